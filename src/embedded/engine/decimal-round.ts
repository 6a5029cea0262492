/**
 * Rounding exact decimal results into decimal128, as IEEE 754-2008 and the Intel decimal library MongoDB
 * uses (src/mongo/platform/decimal128.cpp) do: at most 34 significant digits, the exponent within
 * [-6176, 6111], a result that fits kept with the exponent it was computed at (`2.50` stays `2.50`).
 * Values here keep the sign apart from the coefficient, so that a negative zero (`-0`, which `$mod` and
 * `$round` can give) survives.
 */
import { Decimal128 } from 'bson';
import { parseDecimal } from './decimal.js';
import type { Dec } from './decimal.js';

/** A finite decimal: (−1)^negative × coef × 10^exp, with `coef` ≥ 0. */
export interface DecimalParts {
  negative: boolean;
  coef: bigint;
  exp: number;
}

/** A decimal128 value: finite parts, or a special value. */
export type DecimalValue = DecimalParts | 'NaN' | 'Infinity' | '-Infinity';

/**
 * The IEEE 754 rounding directions MongoDB asks for: ties to even (arithmetic, `$round`), toward zero
 * (`$trunc`), toward +∞ (`$ceil`) and toward −∞ (`$floor`).
 */
export type Rounding = 'half-even' | 'toward-zero' | 'ceiling' | 'floor';

/** decimal128's precision and exponent range (IEEE 754-2008: p = 34, emax = 6144, q = e − 33). */
export const MAX_DIGITS = 34;
export const EXP_MAX = 6111;
export const EXP_MIN = -6176;

/** The number of decimal digits of a coefficient (0 has one). */
export function digitCount(coef: bigint): number {
  return coef === 0n ? 1 : coef.toString().length;
}

/**
 * `parts.coef ÷ 10^drop`, rounded as `mode` says; `sticky` tells that the true value lies a little beyond
 * `parts.coef` (a division's non-zero remainder), which breaks a tie.
 */
export function shiftRight(parts: DecimalParts, drop: number, mode: Rounding, sticky = false): bigint {
  if (drop <= 0) return parts.coef;
  const unit = 10n ** BigInt(drop);
  const quotient = parts.coef / unit;
  const rest = parts.coef % unit;
  if (rest === 0n && !sticky) return quotient;
  switch (mode) {
    case 'toward-zero':
      return quotient;
    case 'ceiling':
      return parts.negative ? quotient : quotient + 1n;
    case 'floor':
      return parts.negative ? quotient + 1n : quotient;
    case 'half-even': {
      const twice = rest * 2n;
      if (twice > unit || (twice === unit && sticky)) return quotient + 1n;
      if (twice === unit) return quotient % 2n === 1n ? quotient + 1n : quotient;
      return quotient;
    }
  }
}

/**
 * An exact result as the decimal128 IEEE 754 delivers: rounded to 34 significant digits (and to the
 * smallest exponent, as a subnormal), clamped into the exponent range when trailing zeros allow,
 * infinite when it overflows.
 */
export function roundParts(parts: DecimalParts, mode: Rounding = 'half-even', sticky = false): DecimalValue {
  let { coef, exp } = parts;
  const drop = Math.max(digitCount(coef) - MAX_DIGITS, EXP_MIN - exp, 0);
  if (drop > 0 || sticky) {
    coef = shiftRight(parts, drop, mode, sticky);
    exp += drop;
    // A carry out of 34 nines (9…9 + 1) leaves a trailing zero to give up.
    if (digitCount(coef) > MAX_DIGITS) {
      coef /= 10n;
      exp++;
    }
  }
  if (exp > EXP_MAX) {
    // IEEE 754's clamping: a large exponent is traded for trailing zeros while the digits allow.
    const pad = exp - EXP_MAX;
    if (coef !== 0n && digitCount(coef) + pad > MAX_DIGITS) return parts.negative ? '-Infinity' : 'Infinity';
    coef *= 10n ** BigInt(pad);
    exp = EXP_MAX;
  }
  return { negative: parts.negative, coef, exp };
}

/** A bson `Decimal128` for a value that `roundParts` delivered (or any in-range value of ≤ 34 digits). */
export function toDecimal128(value: DecimalValue): Decimal128 {
  if (typeof value === 'string') return Decimal128.fromString(value);
  return Decimal128.fromString(`${value.negative ? '-' : ''}${value.coef.toString()}E${value.exp}`);
}

/** The parts of a decimal's string form, keeping the sign of a zero (`-0.00`). */
export function decimalParts(text: string): DecimalValue {
  return decToParts(parseDecimal(text), text.startsWith('-'));
}

/** A `Dec` as a decimal value (`negativeZero` gives the sign a zero coefficient cannot carry). */
export function decToParts(dec: { coef: bigint; exp: number }, negativeZero?: boolean): DecimalParts;
export function decToParts(dec: Dec, negativeZero?: boolean): DecimalValue;
export function decToParts(dec: Dec, negativeZero = false): DecimalValue {
  if (typeof dec === 'string') return dec;
  const negative = dec.coef < 0n || (dec.coef === 0n && negativeZero);
  return { negative, coef: negative ? -dec.coef : dec.coef, exp: dec.exp };
}

/** A decimal value as a `Dec` (a negative zero becomes zero). */
export function partsToDec(value: DecimalValue): Dec {
  if (typeof value === 'string') return value;
  return { coef: value.negative ? -value.coef : value.coef, exp: value.exp };
}

/** A `Dec` rounded into decimal128 (ties to even), still as a `Dec`: one step of a running sum or product. */
export function roundDec(dec: Dec): Dec {
  return typeof dec === 'string' ? dec : partsToDec(roundParts(decToParts(dec)));
}
