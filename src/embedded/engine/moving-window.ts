/**
 * An accumulator over a bounded `$setWindowFields` window (`documents` or `range` bounds other than both
 * `'unbounded'`), computed as MongoDB 7.0's executors compute it (window_function_exec_non_removable.h
 * for a lower bound of `'unbounded'`, window_function_exec_removable_document.cpp and …_range.cpp
 * otherwise): each document's argument is evaluated once, and from one document to the next only the
 * documents that enter the window are added to the function's state and those that leave are removed
 * (window-state.ts). The engine used to run the accumulator over every document's whole window, so a
 * running `$sum` over n documents evaluated n²/2 arguments: 20,000 documents took minutes.
 *
 * Functions without a state (`$push`, `$addToSet`, `$stdDevPop`/`$stdDevSamp`), and `$sum`/`$avg` when
 * their state cannot answer exactly, run the accumulator over the window's evaluated values, in O(window)
 * but without evaluating an argument twice; `$first` and `$last` read one document. The others
 * (`$minN`, `$topN`, `$median` …) run over the window's documents as before.
 */
import type { Options } from 'mingo/types';
import { normalizeCollation } from './collation.js';
import { collect } from './number-operators.js';
import type { AccumulatorOp } from './operator-types.js';
import type { Doc } from './values.js';
import { windowState } from './window-state.js';
import type { WindowState } from './window-state.js';

/** The window of the document at an index: [first, last] indexes, undefined when empty. */
export type Frame = (index: number) => [number, number] | undefined;

/** Accumulators that take already evaluated values (`expr` null) as they take documents and `expr`. */
const OVER_VALUES = new Set(['$count', '$sum', '$avg', '$min', '$max', '$stdDevPop', '$stdDevSamp']);
/** Accumulators whose value for one document is a list of zero or one value. */
const OVER_LISTS = new Set(['$push', '$addToSet']);

/**
 * The value of the accumulator `op` (`accumulator`, its argument `args`) over the window `frame` gives
 * each document of `docs`, for the documents asked in ascending index order (any order is answered
 * right, in-order calls in O(1) each for the functions with a state).
 */
export function movingWindow(
  op: string,
  args: unknown,
  accumulator: AccumulatorOp,
  docs: Doc[],
  frame: Frame,
  options: Options,
): (index: number) => unknown {
  const over = (window: Doc[]): unknown => accumulator(window, args, options);
  if (op === '$first' || op === '$last') {
    return (index) => {
      const bounds = frame(index);
      return over(bounds ? [docs[bounds[op === '$first' ? 0 : 1]]!] : []);
    };
  }
  const lists = OVER_LISTS.has(op);
  if (!lists && !OVER_VALUES.has(op)) {
    return (index) => {
      const bounds = frame(index);
      return over(bounds ? docs.slice(bounds[0], bounds[1] + 1) : []);
    };
  }
  const evaluated: unknown[] = [];
  const valueAt = (i: number): unknown => {
    if (!(i in evaluated)) {
      evaluated[i] = lists ? accumulator([docs[i]!], args, options) : collect([docs[i]!], args, options)[0];
    }
    return evaluated[i];
  };
  const recompute = (first: number, last: number): unknown => {
    const values: unknown[] = [];
    for (let i = first; i <= last; i++) {
      if (lists) values.push(...(valueAt(i) as unknown[]));
      else values.push(valueAt(i));
    }
    return accumulator(values, null, options);
  };
  const fresh = (): WindowState | undefined =>
    windowState(op, args, normalizeCollation((options as { collation?: unknown }).collation));
  const initial = fresh();
  if (!initial) {
    return (index) => {
      const bounds = frame(index);
      return bounds ? recompute(bounds[0], bounds[1]) : over([]);
    };
  }
  // The documents [first, last] the state holds.
  let state = initial;
  let [first, last] = [0, -1];
  return (index) => {
    const bounds = frame(index);
    if (!bounds) return over([]);
    const [from, to] = bounds;
    if (from < first || to < last || from > last) {
      state = fresh()!;
      [first, last] = [from, from - 1];
    }
    while (last < to) {
      last++;
      state.add(last, valueAt(last));
    }
    while (first < from) {
      state.remove(first, valueAt(first));
      first++;
    }
    const result = state.result();
    return result ? result.value : recompute(from, to);
  };
}
