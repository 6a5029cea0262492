/**
 * `$stdDevPop` and `$stdDevSamp` states for `$setWindowFields` windows, as MongoDB 7.0 keeps them, every
 * number taken as a double:
 * - a window that only grows (lower bound `'unbounded'`) runs AccumulatorStdDev (accumulator_std_dev.cpp):
 *   Welford's online mean and sum of squared differences, null below one (two for the sample) number;
 * - a window that documents leave runs WindowFunctionStdDev (window_function_stddev.h): a double-double
 *   sum of the values and of each value's contribution to the squared differences, a leaving value
 *   taking its contribution off; a NaN or an infinity in the window makes the result NaN; a negative
 *   total of squares (rounding) or a population of one answers the int 0 and starts the squares again.
 * Both are O(1) per document, where the engine ran the accumulator over each window's values.
 */
import { numberKind } from './arithmetic.js';
import { asDouble } from './numbers.js';
import { SumState } from './sum-state.js';
import type { WindowState } from './operator-types.js';

const toDouble = (value: unknown): number => Number(String(value));

/** Welford's running deviation (AccumulatorStdDev). */
function growingState(sample: boolean): WindowState {
  let count = 0;
  let mean = 0;
  let m2 = 0;
  return {
    add: (_index, value) => {
      if (numberKind(value) === undefined) return;
      const x = toDouble(value);
      count++;
      const delta = x - mean;
      if (delta !== 0) {
        mean += delta / count;
        m2 += delta * (x - mean);
      }
    },
    remove: () => {
      throw new Error('a growing window never removes');
    },
    result: () => {
      const divisor = sample ? count - 1 : count;
      return divisor <= 0 ? null : asDouble(Math.sqrt(m2 / divisor));
    },
  };
}

/** The removable deviation (WindowFunctionStdDev). */
function removableState(sample: boolean): WindowState {
  let sum = new SumState(false);
  let m2 = new SumState(false);
  let count = 0;
  let nonFinite = 0;
  const update = (value: unknown, sign: 1 | -1): void => {
    if (numberKind(value) === undefined) return;
    const x = toDouble(value);
    if (!Number.isFinite(x)) {
      nonFinite += sign;
      count += sign;
      return;
    }
    if (count === 0) {
      count++;
      sum.add(value);
      return;
    }
    if (count + sign === 0) {
      [sum, m2, count, nonFinite] = [new SumState(false), new SumState(false), 0, 0];
      return;
    }
    const difference = count * x - toDouble(sum.sum());
    count += sign;
    sum.add(x * sign);
    m2.add((difference * difference * sign) / (count * (count - sign)));
  };
  return {
    add: (_index, value) => update(value, 1),
    remove: (_index, value) => update(value, -1),
    result: () => {
      if (nonFinite > 0) return NaN;
      const divisor = sample ? count - 1 : count;
      if (divisor === 0) return null;
      const squares = toDouble(m2.sum());
      if (squares < 0 || (!sample && count === 1)) {
        m2 = new SumState(false);
        return 0;
      }
      return asDouble(Math.sqrt(squares / divisor));
    },
  };
}

/**
 * A `$stdDevPop` (`sample` false) or `$stdDevSamp` state; `removable` says whether documents leave the
 * window. Results are doubles, except the removable state's int 0.
 */
export function stdDevState(sample: boolean, removable: boolean): WindowState {
  return removable ? removableState(sample) : growingState(sample);
}
