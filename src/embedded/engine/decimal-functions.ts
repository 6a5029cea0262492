/**
 * Square root, exponential, logarithms and power of decimal128 values, as MongoDB 7.0 computes `$sqrt`,
 * `$exp`, `$ln`, `$log10`, `$log` and `$pow` of a decimal (src/mongo/platform/decimal128.cpp, with the
 * Intel decimal library's `bid128_sqrt`, `bid128_exp`, `bid128_log`, `bid128_log10`, `bid128_pow`):
 * 34 significant digits, ties to even, the special values as IEEE 754 defines them.
 *
 * The square root is correctly rounded, as IEEE 754 requires and the Intel library does. The
 * exponential and the logarithms take the library's own steps through binary128
 * (decimal-exponential.ts, decimal-logarithm.ts). The others are
 * computed here to the correctly rounded result (approximated with more and more digits until the
 * rounding settles); the Intel library only promises them within 1 ulp, so MongoDB's last digit can
 * differ from ours.
 */
import { isqrt, mul, order, toExact, toNumber } from './decimal-float.js';
import type { BigFloat } from './decimal-float.js';
import { divideDecimal } from './decimal-operations.js';
import { digitCount, EXP_MIN, MAX_DIGITS, roundParts } from './decimal-round.js';
import type { DecimalParts, DecimalValue } from './decimal-round.js';
import { exp, ln } from './decimal-elementary.js';
import { lnDecimal, log10Decimal, log2Decimal } from './decimal-logarithm.js';

/** e^15000 overflows decimal128 (10^6145 is its limit) and e^−15000 underflows it. */
const EXP_LIMIT = 15000;

/** Whether e^|x| is beyond decimal128's range (so e^x is ∞ or 0). */
export const beyondExpRange = (x: DecimalParts): boolean => Math.abs(toNumber(float(x))) > EXP_LIMIT;

/** A finite decimal as a BigFloat. */
export const float = (x: DecimalParts): BigFloat => ({ m: x.negative ? -x.coef : x.coef, e: x.exp });

export const isZero = (x: DecimalValue): boolean => typeof x !== 'string' && x.coef === 0n;
const positive = (coef: bigint, exp = 0): DecimalParts => ({ negative: false, coef, exp });
const zero = (negative: boolean, exp = 0): DecimalParts => ({ negative, coef: 0n, exp });

/**
 * The decimal128 rounding of the value `approximate(p)` tends to: approximations at 50, 70, 100 …
 * digits until two in a row round alike. Like the Intel library, whose transcendental functions go
 * through binary128 and convert back, a result that is a binary fraction (`1`, `0.5`, `3`) comes
 * without trailing zeros.
 */
export function correctlyRounded(approximate: (p: number) => BigFloat): DecimalValue {
  let p = 50;
  let previous = roundParts(toExact(approximate(p)));
  for (;;) {
    p = Math.ceil(p * 1.4);
    const next = roundParts(toExact(approximate(p)));
    if (same(previous, next) || p > 600) return shortBinary(next);
    previous = next;
  }
}

const same = (a: DecimalValue, b: DecimalValue): boolean =>
  typeof a === 'string' || typeof b === 'string'
    ? a === b
    : a.negative === b.negative && a.coef === b.coef && a.exp === b.exp;

/** `x` without the trailing zeros of its fraction when it is exactly a binary fraction. */
function shortBinary(x: DecimalValue): DecimalValue {
  if (typeof x === 'string') return x;
  let { coef, exp } = x;
  while (exp < 0 && coef % 10n === 0n) {
    coef /= 10n;
    exp++;
  }
  if (coef === 0n) return zero(x.negative);
  return exp >= 0 || coef % 5n ** BigInt(-exp) === 0n ? { ...x, coef, exp } : x;
}

/**
 * √x, correctly rounded; an exact root takes the exponent nearest ⌊exp/2⌋ (√0.25 is 0.5, √1E-10 is
 * 0.00001, √0.00 is 0.0). NaN for a negative `x` (callers refuse one first).
 */
export function sqrtDecimal(x: DecimalValue): DecimalValue {
  if (x === 'NaN' || x === '-Infinity' || (typeof x !== 'string' && x.negative && x.coef !== 0n))
    return 'NaN';
  if (x === 'Infinity') return x;
  const preferred = Math.floor(x.exp / 2);
  if (x.coef === 0n) return zero(x.negative, preferred);
  // At least 2 × 35 digits under the root, so that the root has the 34 kept and one to round on.
  let shift = Math.max(0, 2 * (MAX_DIGITS + 1) - digitCount(x.coef));
  if ((x.exp - shift) % 2 !== 0) shift++;
  const scaled = x.coef * 10n ** BigInt(shift);
  let coef = isqrt(scaled);
  let exp = (x.exp - shift) / 2;
  const exact = coef * coef === scaled;
  while (exact && exp < preferred && coef % 10n === 0n) {
    coef /= 10n;
    exp++;
  }
  return roundParts(positive(coef, exp), 'half-even', !exact);
}

/**
 * log_b x for x > 0 and b > 0, b ≠ 1 (callers refuse the rest), as `Decimal128::logarithm(other)`
 * computes it: `bid128_log2` / `bid128_log10` for a base equal to 2 / 10, else ln x and ln b each
 * rounded to 34 digits, then divided (IEEE 754 division, so log₈ 1 is 0E+33 and log₈ 64
 * 2.000000000000000000000000000000000: ln 64 and ln 8 rounded are not exactly 2 apart).
 */
export function logDecimal(x: DecimalValue, base: DecimalValue): DecimalValue {
  if (typeof base !== 'string') {
    const b = integerValue(base);
    if (b === 2n) return log2Decimal(x);
    if (b === 10n) return log10Decimal(x);
  }
  return divideDecimal(lnDecimal(x), lnDecimal(base));
}

/** A decimal as an integer when it is one, else undefined. */
function integerValue(x: DecimalParts): bigint | undefined {
  if (x.exp >= 0) return (x.negative ? -x.coef : x.coef) * 10n ** BigInt(Math.min(x.exp, 7000));
  const unit = 10n ** BigInt(-x.exp);
  if (x.coef % unit !== 0n) return undefined;
  return (x.negative ? -x.coef : x.coef) / unit;
}

/**
 * x^y as `Decimal128::power` gives it: the IEEE 754 `pow` (integer powers exactly, others through
 * e^(y·ln x)), then added to 0E-6176, which pads the result to 34 digits (2^3 is
 * 8.000000000000000000000000000000000, 0^2 is 0E-6176). Callers refuse a zero base with a negative
 * exponent.
 */
export function powDecimal(x: DecimalValue, y: DecimalValue): DecimalValue {
  return padded(power(x, y));
}

function padded(x: DecimalValue): DecimalValue {
  if (typeof x === 'string') return x;
  if (x.coef === 0n) return zero(false, EXP_MIN);
  const pad = Math.min(MAX_DIGITS - digitCount(x.coef), x.exp - EXP_MIN);
  return { ...x, coef: x.coef * 10n ** BigInt(pad), exp: x.exp - pad };
}

/** |x| compared with 1, for a non-zero x: −1, 0 or 1. */
function versusOne(x: DecimalParts): number {
  if (x.exp > 0) return 1;
  const one = 10n ** BigInt(-x.exp);
  return x.coef < one ? -1 : x.coef > one ? 1 : 0;
}

const negate = (x: DecimalValue): DecimalValue =>
  typeof x !== 'string' ? { ...x, negative: !x.negative } : x === 'Infinity' ? '-Infinity' : x;

function power(x: DecimalValue, y: DecimalValue): DecimalValue {
  // x^0 = 1 and 1^y = 1, even for a NaN on the other side.
  if (isZero(y)) return positive(1n);
  if (typeof x !== 'string' && !x.negative && x.coef !== 0n && versusOne(x) === 0) return positive(1n);
  if (x === 'NaN' || y === 'NaN') return 'NaN';
  const n = typeof y === 'string' ? undefined : integerValue(y);
  const odd = n !== undefined && n % 2n !== 0n;
  if (typeof x === 'string' || x.coef === 0n) {
    // ±0 and ±∞: a zero or an infinity, negative only for a negative base to an odd power.
    const yNegative = y === '-Infinity' || (typeof y !== 'string' && y.negative);
    const xNegative = x === '-Infinity' || (typeof x !== 'string' && x.negative);
    const result = (typeof x === 'string') !== yNegative ? 'Infinity' : zero(false);
    return xNegative && odd ? negate(result) : result;
  }
  if (typeof y === 'string') {
    // |x| against 1 decides; (−1)^±∞ is 1.
    const side = versusOne(x);
    if (side === 0) return positive(1n);
    return side > 0 === (y === 'Infinity') ? 'Infinity' : zero(false);
  }
  if (x.negative && n === undefined) return 'NaN';
  const result = positivePower({ ...x, negative: false }, y, n);
  return x.negative && odd ? negate(result) : result;
}

/** |x|^y for x > 0: exactly when y is a small enough integer, else e^(y·ln x). */
function positivePower(x: DecimalParts, y: DecimalParts, n: bigint | undefined): DecimalValue {
  const magnitude = n === undefined ? 0n : n < 0n ? -n : n;
  if (n !== undefined && magnitude * BigInt(digitCount(x.coef)) <= 4000n) {
    const k = Number(magnitude);
    const exact = positive(x.coef ** magnitude, x.exp * k);
    return n < 0n ? divideDecimal(positive(1n), exact) : roundParts(exact);
  }
  // y·ln x decides overflow first, at low precision (a double holds its order of magnitude).
  const estimate = toNumber(float(y)) * toNumber(ln(float(x), 20));
  if (estimate > EXP_LIMIT) return 'Infinity';
  if (estimate < -EXP_LIMIT) return zero(false, EXP_MIN);
  const logarithm = (p: number): BigFloat =>
    mul(float(y), ln(float(x), p + Math.max(0, order(float(y))) + 8), p + 8);
  return correctlyRounded((p) => exp(logarithm(p), p));
}
