/**
 * The decimal total of the `$sum` and `$avg` accumulators once a decimal is among their values, as
 * MongoDB 7.0 forms it (src/mongo/db/pipeline/accumulator_sum.cpp, accumulator_avg.cpp): the decimals
 * added one after another, and the other numbers summed apart in double-double precision, whose two
 * halves then join as decimals of 34 significant digits (`Decimal128(sum, kRoundTo34Digits)`) — not
 * the 15 digits `$add` gives a double.
 */
import { Decimal128 } from 'bson';
import { numberKind, toDec } from './arithmetic.js';
import { exactDouble, parseDecimal } from './decimal.js';
import type { Dec } from './decimal.js';
import { decToParts, partsToDec, roundDec, roundParts, toDecimal128 } from './decimal-round.js';

/** The exact sum of two finite decimals. */
function plus(
  a: { coef: bigint; exp: number },
  b: { coef: bigint; exp: number },
): { coef: bigint; exp: number } {
  const exp = Math.min(a.exp, b.exp);
  return { coef: a.coef * 10n ** BigInt(a.exp - exp) + b.coef * 10n ** BigInt(b.exp - exp), exp };
}

/** Decimal128 addition (special values as IEEE 754 adds them), rounded to 34 digits. */
function addRounded(a: Dec, b: Dec): Dec {
  if (a === 'NaN' || b === 'NaN') return 'NaN';
  if (typeof a === 'string' || typeof b === 'string') {
    if (typeof a === 'string' && typeof b === 'string' && a !== b) return 'NaN';
    return typeof a === 'string' ? a : b;
  }
  return roundDec(plus(a, b));
}

/** A double as `Decimal128(double, kRoundTo34Digits)`. */
function doubleAt34(n: number): Dec {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  return partsToDec(roundParts(decToParts(exactDouble(n))));
}

/**
 * The ints, longs and doubles among `values` as MongoDB's double-double sum hands them to a decimal
 * total: the nearest double to their exact sum and the nearest double to what it misses, each at 34
 * digits, added to zero (nothing when the sum is zero).
 */
function nonDecimalTotal(values: readonly unknown[]): Dec {
  const others = values.filter((v) => numberKind(v) !== 'decimal');
  const doubles = others.map((v) => Number(String(v)));
  if (!doubles.every(Number.isFinite)) return doubleAt34(doubles.reduce((a, b) => a + b, 0));
  let exact = { coef: 0n, exp: 0 };
  for (const v of others) {
    exact = plus(
      exact,
      numberKind(v) === 'double'
        ? exactDouble(Number(String(v)))
        : (toDec(v) as { coef: bigint; exp: number }),
    );
  }
  const high = Number(`${exact.coef.toString()}E${exact.exp}`);
  if (high === 0) return { coef: 0n, exp: 0 };
  const highExact = exactDouble(high);
  const missed = plus(exact, { coef: -highExact.coef, exp: highExact.exp });
  const low = Number(`${missed.coef.toString()}E${missed.exp}`);
  return addRounded(addRounded({ coef: 0n, exp: 0 }, doubleAt34(high)), doubleAt34(low));
}

/** The decimals among `values` added in order, from a zero. */
function decimalTotal(values: readonly unknown[]): Dec {
  return values
    .filter((v) => numberKind(v) === 'decimal')
    .map((v) => parseDecimal((v as Decimal128).toString()))
    .reduce(addRounded, { coef: 0n, exp: 0 });
}

/** `$sum` of numbers at least one of which is a decimal (AccumulatorSum::getValue). */
export function decimalSum(values: readonly unknown[]): Decimal128 {
  return toDecimal128(decToParts(addRounded(nonDecimalTotal(values), decimalTotal(values))));
}

/** The total `$avg` divides by its count when one of `values` is a decimal (AccumulatorAvg). */
export function decimalAverageTotal(values: readonly unknown[]): Decimal128 {
  return toDecimal128(decToParts(addRounded(decimalTotal(values), nonDecimalTotal(values))));
}
