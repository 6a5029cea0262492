/**
 * The decimal side of `$sum` and `$avg` once a decimal is among their values, as MongoDB 7.0 forms it
 * (src/mongo/db/pipeline/accumulator_sum.cpp, accumulator_avg.cpp): the decimals added one after another,
 * each step rounded to 34 significant digits, and the other numbers' double-double total (double-double.ts)
 * turned into a decimal by its two halves, each taken at 34 digits (`Decimal128(sum, kRoundTo34Digits)`) —
 * not the 15 digits `$add` gives a double.
 */
import { exactDouble } from './decimal.js';
import type { Dec } from './decimal.js';
import { decToParts, partsToDec, roundDec, roundParts } from './decimal-round.js';

/** The exact sum of two finite decimals. */
function plus(
  a: { coef: bigint; exp: number },
  b: { coef: bigint; exp: number },
): { coef: bigint; exp: number } {
  const exp = Math.min(a.exp, b.exp);
  return { coef: a.coef * 10n ** BigInt(a.exp - exp) + b.coef * 10n ** BigInt(b.exp - exp), exp };
}

/** Decimal128 addition (special values as IEEE 754 adds them), rounded to 34 digits. */
export function addRounded(a: Dec, b: Dec): Dec {
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
 * A double-double total as a decimal (DoubleDoubleSummation::getDecimal): its two halves at 34 digits
 * added, or the plain total when it is not finite.
 */
export function doubleDoubleDecimal([sum, addend]: [number, number]): Dec {
  if (!Number.isFinite(sum)) return doubleAt34(sum);
  return addRounded(doubleAt34(sum), doubleAt34(addend));
}
