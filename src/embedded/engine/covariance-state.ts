/**
 * The state of `$covariancePop` and `$covarianceSamp` over a `$setWindowFields` window, as MongoDB 7.0
 * keeps it (WindowFunctionCovariance, window_function_covariance.cpp): the pairs `[x, y]` that enter
 * the window update running means of x and y and a running sum of co-moments (Welford's online
 * covariance), and a pair that leaves undoes its update, so the window moves in O(1) per document.
 * The means are removable `$avg` states and the co-moments a removable `$sum` (sum-state.ts), with
 * MongoDB's `$subtract` and `$multiply` between them, so a decimal among the values makes a decimal
 * answer and ints and doubles a double:
 * - a value that is not an array of two numbers is ignored;
 * - a pair with a NaN or an infinity only goes to the co-moments' sum as one NaN or infinity (NaN for
 *   a NaN or infinities of both signs; decimal when the pair holds a decimal), so it makes the answer
 *   NaN or infinite while it is in the window;
 * - the population covariance of one pair is the double 0; with no pairs (or one, for the sample) the
 *   answer is null; the last pair leaving resets the state, its NaN and infinity counts included.
 */
import { Decimal128 } from 'bson';
import { divideDecimal, multiply, numberKind, subtract } from './arithmetic.js';
import { parseDecimal } from './decimal.js';
import { asDouble } from './numbers.js';
import { SumState } from './sum-state.js';
import type { WindowState } from './operator-types.js';

/** -1, 0 (NaN) or 1 for a non-finite number, undefined for a finite one. */
function nonFinite(value: unknown): number | undefined {
  const text = String(value);
  const x = numberKind(value) === 'decimal' ? parseDecimal(text) : Number(text);
  if (x === 'NaN' || Number.isNaN(x)) return 0;
  if (x === 'Infinity' || x === Infinity) return 1;
  if (x === '-Infinity' || x === -Infinity) return -1;
  return undefined;
}

/** The one NaN or infinity a pair with a non-finite number adds to the co-moments. */
function nonFiniteOf(pair: unknown[]): unknown {
  const signs = pair.map(nonFinite);
  const decimal = pair.some((v) => numberKind(v) === 'decimal');
  const named =
    signs.includes(0) || (signs.includes(1) && signs.includes(-1))
      ? 'NaN'
      : signs.includes(1)
        ? 'Infinity'
        : '-Infinity';
  return decimal ? Decimal128.fromString(named) : Number(named);
}

/** `a - b`, null when `b` is (the mean of no values). */
const minus = (a: unknown, b: unknown): unknown => (b === null ? null : subtract(a, b));
/** `a × b`, null when either is null. */
const times = (a: unknown, b: unknown): unknown => (a === null || b === null ? null : multiply([a, b]));

/**
 * A covariance state (see the file comment); `sample` for `$covarianceSamp`. `add` and `remove` take
 * the function's evaluated argument for a document, removals oldest first.
 */
export function covarianceState(sample: boolean): WindowState {
  let count = 0;
  let [meanX, meanY, comoments] = [new SumState(true), new SumState(true), new SumState(true)];
  const pairOf = (value: unknown): unknown[] | undefined =>
    Array.isArray(value) && value.length === 2 && value.every((v) => numberKind(v) !== undefined)
      ? value
      : undefined;
  const finite = (pair: unknown[]): boolean => pair.every((v) => nonFinite(v) === undefined);
  return {
    add: (_index, value) => {
      const pair = pairOf(value);
      if (!pair) return;
      if (!finite(pair)) return comoments.add(nonFiniteOf(pair));
      const [x, y] = pair;
      count++;
      const dx = minus(x, meanX.average());
      meanX.add(x);
      meanY.add(y);
      comoments.add(times(dx, minus(y, meanY.average())));
    },
    remove: (_index, value) => {
      const pair = pairOf(value);
      if (!pair) return;
      if (!finite(pair)) return comoments.remove(nonFiniteOf(pair));
      const [x, y] = pair;
      if (--count === 0) {
        [meanX, meanY, comoments] = [new SumState(true), new SumState(true), new SumState(true)];
        return;
      }
      meanX.remove(x);
      comoments.remove(times(minus(x, meanX.average()), minus(y, meanY.average())));
      meanY.remove(y);
    },
    result: () => {
      if (count === 1 && !sample) return asDouble(0);
      const divisor = sample ? count - 1 : count;
      if (divisor <= 0) return null;
      const total = comoments.sum();
      if (numberKind(total) === 'decimal') return divideDecimal(total, divisor);
      return numberKind(total) === undefined ? total : asDouble(Number(String(total)) / divisor);
    },
  };
}
