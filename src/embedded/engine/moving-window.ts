/**
 * An accumulator over a bounded `$setWindowFields` window (`documents` or `range` bounds other than both
 * `'unbounded'`), computed as MongoDB 7.0's executors compute it (window_function_exec_non_removable.h
 * for a lower bound of `'unbounded'`, window_function_exec_removable_document.cpp and …_range.cpp
 * otherwise): each document's argument is evaluated once, and from one document to the next only the
 * documents that enter the window are added to the function's state and those that leave are removed
 * (window-state.ts). The engine used to run the accumulator over every document's whole window, so a
 * running `$sum` over n documents evaluated n²/2 arguments: 20,000 documents took minutes.
 *
 * `$minN`/`$maxN`/`$top`/`$bottom`/`$topN`/`$bottomN` keep ranked-window-state.ts's sorted multiset.
 * Functions without a state (`$push`, `$addToSet`) run the accumulator over
 * the window's evaluated values, in O(window) but without evaluating an argument twice; `$first` and
 * `$last` read one document, `$firstN` and `$lastN` the window's first or last n. The others
 * (`$median`, `$percentile` …) run over the window's documents as before.
 */
import type { Options } from 'mingo/types';
import { normalizeCollation } from './collation.js';
import { collect } from './number-operators.js';
import type { AccumulatorOp } from './operator-types.js';
import { countOf, globalOptions } from './ordered-accumulators.js';
import { rankedWindowState } from './ranked-window-state.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { windowState } from './window-state.js';
import type { WindowState } from './operator-types.js';

/** The window of the document at an index: [first, last] indexes, undefined when empty. */
export type Frame = (index: number) => [number, number] | undefined;

/** Accumulators that take already evaluated values (`expr` null) as they take documents and `expr`. */
const OVER_VALUES = new Set(['$count', '$sum', '$avg', '$min', '$max', '$stdDevPop', '$stdDevSamp']);
/** Accumulators whose value for one document is a list of zero or one value. */
const OVER_LISTS = new Set(['$push', '$addToSet']);

/**
 * The value of the accumulator `op` (`accumulator`, its argument `args`) over the window `frame` gives
 * each document of `docs`, for the documents asked in ascending index order (any order is answered
 * right, in-order calls in O(1) each for the functions with a state). `removable` says whether documents
 * leave the window (its lower bound is not `'unbounded'`), which types a `$sum` as MongoDB's removable
 * state does (window-state.ts).
 */
export function movingWindow(
  op: string,
  args: unknown,
  accumulator: AccumulatorOp,
  docs: Doc[],
  frame: Frame,
  removable: boolean,
  options: Options,
): (index: number) => unknown {
  const over = (window: Doc[]): unknown => accumulator(window, args, options);
  if (op === '$first' || op === '$last') {
    return (index) => {
      const bounds = frame(index);
      return over(bounds ? [docs[bounds[op === '$first' ? 0 : 1]]!] : []);
    };
  }
  const collation = normalizeCollation((options as { collation?: unknown }).collation);
  const ranked = rankedWindowState(op, args, docs, collation, removable, options);
  if (ranked)
    return slidingWindow(
      frame,
      (i) => i,
      ranked,
      () => over([]),
    );
  if ((op === '$firstN' || op === '$lastN') && isPlainObject(args)) {
    // Only the window's first or last n documents count (AccumulatorFirstLastN keeps n): O(n) each.
    const n = countOf(args, {}, globalOptions(options));
    return (index) => {
      const bounds = frame(index);
      if (!bounds) return over([]);
      const [first, last] = bounds;
      return over(
        op === '$firstN'
          ? docs.slice(first, Math.min(last + 1, first + n))
          : docs.slice(Math.max(first, last + 1 - n), last + 1),
      );
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
  const fresh = (): WindowState | undefined => windowState(op, args, collation, removable);
  const initial = fresh();
  if (!initial) {
    return (index) => {
      const bounds = frame(index);
      return bounds ? recompute(bounds[0], bounds[1]) : over([]);
    };
  }
  return slidingWindow(
    frame,
    valueAt,
    () => fresh()!,
    () => over([]),
  );
}

/**
 * The value a window function's state (`fresh` makes one) gives each document's window `frame`, for
 * documents asked in ascending index order: as MongoDB's removable executors do
 * (window_function_exec_removable_document.cpp and …_range.cpp `update`), the documents that enter the
 * window are added, then those that leave are removed, each once, so n documents cost O(n) state
 * updates whatever the window's size; an empty window answers `empty()` and its documents leave the
 * state. `valueAt` gives a document's value (the function's evaluated argument). A window that moves
 * back (an out-of-order call) starts a fresh state.
 */
export function slidingWindow(
  frame: Frame,
  valueAt: (index: number) => unknown,
  fresh: () => WindowState,
  empty: () => unknown,
): (index: number) => unknown {
  let state = fresh();
  // The documents the state holds are [first, last] (none when first > last); every document up to
  // `last` has entered it.
  let [first, last] = [0, -1];
  return (index) => {
    const bounds = frame(index);
    if (bounds && (bounds[0] < first || bounds[1] < last)) {
      state = fresh();
      [first, last] = [bounds[0], bounds[0] - 1];
    }
    const [from, to] = bounds ?? [last + 1, last];
    for (let i = Math.max(last + 1, from); i <= to; i++) state.add(i, valueAt(i));
    for (let i = first; i <= Math.min(from - 1, last); i++) state.remove(i, valueAt(i));
    [first, last] = [from, Math.max(last, to)];
    return bounds ? state.result() : empty();
  };
}
