/**
 * The state a `$setWindowFields` function keeps while its window moves, as MongoDB 7.0 keeps it: the
 * values of the documents that enter the window are added and those of the documents that leave are
 * removed, oldest first (WindowFunctionState's add/remove, driven by WindowFunctionExecRemovableDocument
 * and …Range; a window whose lower bound is `'unbounded'` only ever adds, WindowFunctionExecNonRemovable).
 * The answers are the accumulators' (number-operators.ts, ordered-accumulators.ts) to the last bit:
 * - `$count`, and `$sum` of a constant (`{ $sum: 1 }`): the number of documents in the window;
 * - `$sum` and `$avg`: counts of each number type (the result's type follows the values in the window,
 *   window_function_sum.h), the exact sum of the ints and longs, and the doubles summed in the order the
 *   accumulator sums them. MongoDB removes a double by adding its negation to a compensated sum; the
 *   engine's accumulator sums from the window's first value on, and taking a double off a rounded sum
 *   does not give that sum, so after a removal the doubles still in the window are summed again from
 *   the first (a loop over numbers, O(window)) when the result needs them (a double in the window or
 *   an int64 overflow). A sum with a decimal answers undefined: the caller recomputes it over the
 *   window (decimal-sum.ts);
 * - `$min` and `$max`: the candidates in window order, each better than every later one (a monotonic
 *   queue, where window_function_min_max.h keeps a multiset), so the front is the earliest of the best
 *   values, the one the accumulator keeps among equal values (1 and NumberLong(1)).
 */
import { Long } from 'bson';
import type { Collation } from './collation.js';
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, multiply, numberKind } from './arithmetic.js';
import type { NumberKind } from './arithmetic.js';
import { compareBson } from './compare.js';
import { asDouble } from './numbers.js';

/**
 * A window function's state. `add` and `remove` take a document's index in the partition and the value
 * of the function's argument for it; documents leave in the order they entered.
 */
export interface WindowState {
  add(index: number, value: unknown): void;
  remove(index: number, value: unknown): void;
  /** The function's value over the window, or undefined when the state cannot give it exactly. */
  result(): { value: unknown } | undefined;
}

/** The number of documents in the window; with a constant `factor`, factor × that number. */
function countState(factor: unknown): WindowState {
  let count = 0;
  return {
    add: () => void count++,
    remove: () => void count--,
    result: () => ({ value: factor === undefined ? count : multiply([factor, count]) }),
  };
}

/** The numbers of a `$sum` or `$avg` window (see the file comment). */
class NumberTotal {
  readonly kinds: Record<NumberKind, number> = { int: 0, long: 0, double: 0, decimal: 0 };
  count = 0;
  private exact = 0n;
  /** Each number in the window as a double, by index in the partition (for folding again). */
  private readonly doubles: (number | undefined)[] = [];
  private first = 0;
  private last = -1;
  private folded = 0;
  private foldable = true;

  add(index: number, value: unknown): void {
    this.last = index;
    const kind = numberKind(value);
    if (kind === undefined) return;
    this.kinds[kind]++;
    this.count++;
    if (kind === 'int' || kind === 'long') this.exact += BigInt(String(value));
    const double = Number(String(value));
    this.doubles[index] = double;
    this.folded += double;
  }

  remove(index: number, value: unknown): void {
    this.first = index + 1;
    const kind = numberKind(value);
    if (kind === undefined) return;
    this.kinds[kind]--;
    this.count--;
    if (kind === 'int' || kind === 'long') this.exact -= BigInt(String(value));
    this.foldable = false;
  }

  /** The doubles summed from the window's first on, as the accumulator sums them. */
  private fold(): { value: unknown } {
    if (!this.foldable) {
      let sum = 0;
      for (let i = this.first; i <= this.last; i++) {
        const double = this.doubles[i];
        if (double !== undefined) sum += double;
      }
      this.folded = sum;
      this.foldable = true;
    }
    return { value: asDouble(this.folded) };
  }

  /** What arithmetic.ts `add` answers for the numbers in the window, or undefined with a decimal. */
  sum(): { value: unknown } | undefined {
    if (this.kinds.decimal > 0) return undefined;
    if (this.kinds.double > 0) return this.fold();
    if (this.kinds.long === 0 && this.exact >= INT32_MIN && this.exact <= INT32_MAX)
      return { value: Number(this.exact) };
    if (this.exact >= INT64_MIN && this.exact <= INT64_MAX) return { value: Long.fromBigInt(this.exact) };
    return this.fold();
  }
}

function sumState(average: boolean): WindowState {
  const total = new NumberTotal();
  return {
    add: (index, value) => total.add(index, value),
    remove: (index, value) => total.remove(index, value),
    result: () => {
      if (!average) return total.sum();
      if (total.count === 0) return { value: null };
      const sum = total.sum();
      return sum && { value: asDouble(Number(String(sum.value)) / total.count) };
    },
  };
}

/** `$min` (sign 1) or `$max` (sign -1): a queue of candidates, the best at its head. */
function extremeState(sign: 1 | -1, collation: Collation | undefined): WindowState {
  const queue: { index: number; value: unknown }[] = [];
  let head = 0;
  return {
    add: (index, value) => {
      if (value === null || value === undefined) return;
      while (queue.length > head && sign * compareBson(queue[queue.length - 1]!.value, value, collation) > 0)
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
    result: () => ({ value: queue.length > head ? queue[head]!.value : null }),
  };
}

/**
 * A fresh state for the window function `op` with argument `args`, or undefined for a function without
 * one (the caller computes those over each window).
 */
export function windowState(
  op: string,
  args: unknown,
  collation: Collation | undefined,
): WindowState | undefined {
  switch (op) {
    case '$count':
      return countState(undefined);
    case '$sum':
      return typeof args === 'number' ? countState(args) : sumState(false);
    case '$avg':
      return sumState(true);
    case '$min':
      return extremeState(1, collation);
    case '$max':
      return extremeState(-1, collation);
    default:
      return undefined;
  }
}
