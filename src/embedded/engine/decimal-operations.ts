/**
 * Decimal128 division, remainder and quantization computed exactly with bigints, with the results MongoDB
 * 7.0 gets from the Intel decimal library (src/mongo/platform/decimal128.cpp: `divide` is `bid128_div`,
 * `modulo` is `bid128_fmod`, `quantize` is `bid128_quantize` behind MongoDB's own guard): the same digits
 * and the same exponent, so that trailing zeros print as MongoDB prints them.
 */
import { digitCount, EXP_MIN, MAX_DIGITS, roundParts, shiftRight } from './decimal-round.js';
import type { DecimalParts, DecimalValue, Rounding } from './decimal-round.js';

const isInfinite = (v: DecimalValue): boolean => v === 'Infinity' || v === '-Infinity';
const isNegative = (v: DecimalValue): boolean => v === '-Infinity' || (typeof v !== 'string' && v.negative);

/**
 * `x ÷ y` rounded to 34 significant digits, ties to even (IEEE 754 division). An exact quotient takes
 * the exponent nearest the preferred one, `x.exp − y.exp` (`10 ÷ 4` is `2.5`, `1.00 ÷ 2` is `0.50`,
 * `6 ÷ 2` is `3`); an inexact one has all 34 digits (`1 ÷ 3` is `0.3333…3`). Division by zero gives an
 * infinity (or NaN for 0 ÷ 0): MongoDB's operators refuse a zero divisor before dividing.
 */
export function divideDecimal(x: DecimalValue, y: DecimalValue): DecimalValue {
  if (x === 'NaN' || y === 'NaN' || (isInfinite(x) && isInfinite(y))) return 'NaN';
  const negative = isNegative(x) !== isNegative(y);
  if (typeof x === 'string') return negative ? '-Infinity' : 'Infinity';
  if (typeof y === 'string') return { negative, coef: 0n, exp: EXP_MIN };
  if (y.coef === 0n) return x.coef === 0n ? 'NaN' : negative ? '-Infinity' : 'Infinity';
  const ideal = x.exp - y.exp;
  if (x.coef === 0n) return roundParts({ negative, coef: 0n, exp: ideal });
  // Enough extra digits that the quotient has 35: the 34 kept and one to round on; the remainder tells
  // whether anything lies beyond that one.
  const shift = Math.max(0, MAX_DIGITS + 1 + digitCount(y.coef) - digitCount(x.coef));
  const dividend = x.coef * 10n ** BigInt(shift);
  let coef = dividend / y.coef;
  const remainder = dividend % y.coef;
  let exp = ideal - shift;
  if (remainder === 0n) {
    while (exp < ideal && coef % 10n === 0n) {
      coef /= 10n;
      exp++;
    }
  }
  return roundParts({ negative, coef, exp }, 'half-even', remainder !== 0n);
}

/**
 * `x − y × trunc(x ÷ y)`, exactly (C's `fmod`): the sign of `x` (a zero remainder too: `-6 mod 3` is
 * `-0`) at the smaller of the two exponents. NaN for an infinite `x` or a zero `y`; `x` for an
 * infinite `y`.
 */
export function moduloDecimal(x: DecimalValue, y: DecimalValue): DecimalValue {
  if (x === 'NaN' || y === 'NaN' || typeof x === 'string') return 'NaN';
  if (typeof y === 'string') return x;
  if (y.coef === 0n) return 'NaN';
  const exp = Math.min(x.exp, y.exp);
  const scale = (d: DecimalParts): bigint => d.coef * 10n ** BigInt(d.exp - exp);
  return { negative: x.negative, coef: scale(x) % scale(y), exp };
}

/**
 * `x` rounded as `mode` says to the exponent `exp` (`quantize(x, 1E exp)`), as MongoDB's
 * `Decimal128::quantize` does it: when the result would need more than 34 digits (`1.298` to 100
 * places), MongoDB gives `x` with 34 digits instead (`1.298000000000000000000000000000000`) where the
 * library would give NaN. Infinities and NaN become NaN (callers pass those on before).
 */
export function quantizeDecimal(x: DecimalValue, exp: number, mode: Rounding): DecimalValue {
  if (typeof x === 'string') return 'NaN';
  if (exp >= x.exp) return { negative: x.negative, coef: shiftRight(x, exp - x.exp, mode), exp };
  const widened = x.coef * 10n ** BigInt(x.exp - exp);
  if (x.coef !== 0n && digitCount(widened) > MAX_DIGITS) return normalized(x);
  return { negative: x.negative, coef: widened, exp };
}

/** `x` with as many trailing zeros as 34 digits and the exponent range allow (`x + 0E-6176`). */
function normalized(x: DecimalParts): DecimalParts {
  const pad = Math.min(MAX_DIGITS - digitCount(x.coef), x.exp - EXP_MIN);
  return { negative: x.negative, coef: x.coef * 10n ** BigInt(pad), exp: x.exp - pad };
}

/** `|x|`: the sign cleared, digits and exponent kept (`Decimal128::toAbs`). */
export function absDecimal(x: DecimalValue): DecimalValue {
  if (x === 'NaN') return 'NaN';
  if (typeof x === 'string') return 'Infinity';
  return { ...x, negative: false };
}
