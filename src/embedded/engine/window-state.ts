/**
 * The state a `$setWindowFields` function keeps while its window moves, as MongoDB 7.0 keeps it: the
 * values of the documents that enter the window are added and those of the documents that leave are
 * removed, oldest first (WindowFunctionState's add/remove, driven by WindowFunctionExecRemovableDocument
 * and …Range; a window whose lower bound is `'unbounded'` only ever adds, WindowFunctionExecNonRemovable).
 * The answers are the accumulators' (number-operators.ts, ordered-accumulators.ts) to the last bit:
 * - `$count`, and `$sum` of a constant (`{ $sum: 1 }`): the number of documents in the window;
 * - `$sum` and `$avg`: sum-state.ts's state, MongoDB's double-double and decimal totals, from which a
 *   value leaves by adding its negation (RemovableSum, window_function_sum.h), typed by the values still
 *   in the window when the window's lower bound is not `'unbounded'`;
 * - `$stdDevPop` and `$stdDevSamp`: stddev-state.ts's, Welford's running deviation in a growing window,
 *   MongoDB's removable one otherwise;
 * - `$min` and `$max`: the candidates in window order, each better than every later one (a monotonic
 *   queue, where window_function_min_max.h keeps a multiset), so the front is the earliest of the best
 *   values, the one the accumulator keeps among equal values (1 and NumberLong(1)); but a removable
 *   `$max` answers the multiset's last element (`rbegin`), the latest of equal values, so there a later
 *   equal value displaces the earlier ones.
 */
import type { Collation } from './collation.js';
import { multiply } from './arithmetic.js';
import { compareBson } from './compare.js';
import type { WindowState } from './operator-types.js';
import { stdDevState } from './stddev-state.js';
import { SumState } from './sum-state.js';

/** The number of documents in the window; with a constant `factor`, factor × that number. */
function countState(factor: unknown): WindowState {
  let count = 0;
  return {
    add: () => void count++,
    remove: () => void count--,
    result: () => (factor === undefined ? count : multiply([factor, count])),
  };
}

function sumState(average: boolean, removable: boolean): WindowState {
  const total = new SumState(removable);
  return {
    add: (_index, value) => total.add(value),
    remove: (_index, value) => total.remove(value),
    result: () => (average ? total.average() : total.sum()),
  };
}

/**
 * `$min` (sign 1) or `$max` (sign -1): a queue of candidates, the best at its head; `latest` keeps the
 * latest of equal values rather than the earliest.
 */
function extremeState(sign: 1 | -1, latest: boolean, collation: Collation | undefined): WindowState {
  const displaces = (c: number): boolean => c > 0 || (latest && c === 0);
  const queue: { index: number; value: unknown }[] = [];
  let head = 0;
  return {
    add: (index, value) => {
      if (value === null || value === undefined) return;
      while (
        queue.length > head &&
        displaces(sign * compareBson(queue[queue.length - 1]!.value, value, collation))
      )
        queue.pop();
      queue.push({ index, value });
    },
    remove: (index) => {
      if (queue[head]?.index === index) head++;
      // Drop the part of the queue that left the window once it outweighs the rest.
      if (head > 1024 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
    },
    result: () => (queue.length > head ? queue[head]!.value : null),
  };
}

/**
 * A fresh state for the window function `op` with argument `args`, or undefined for a function without
 * one (the caller computes those over each window). `removable` says whether documents leave the
 * window (its lower bound is not `'unbounded'`): MongoDB then keeps a removable state, whose `$sum`
 * is typed by the values still in the window.
 */
export function windowState(
  op: string,
  args: unknown,
  collation: Collation | undefined,
  removable: boolean,
): WindowState | undefined {
  switch (op) {
    case '$count':
      return countState(undefined);
    case '$sum':
      return typeof args === 'number' ? countState(args) : sumState(false, removable);
    case '$avg':
      return sumState(true, removable);
    case '$stdDevPop':
      return stdDevState(false, removable);
    case '$stdDevSamp':
      return stdDevState(true, removable);
    case '$min':
      return extremeState(1, false, collation);
    case '$max':
      return extremeState(-1, removable, collation);
    default:
      return undefined;
  }
}
