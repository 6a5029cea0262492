/**
 * The trigonometric and hyperbolic functions of decimal128 values, as MongoDB 7.0's `$sin` … `$atanh`
 * and `$atan2` compute them for a decimal (`Decimal128::sin` … `atan2`, the Intel decimal library's
 * `bid128_sin` …): 34 significant digits, ties to even, the special values of C's `<math.h>` (IEEE
 * 754). Computed to the correctly rounded result (decimal-functions.ts); the Intel library is within
 * 1 ulp, so MongoDB's last digit can differ. Callers refuse arguments outside a function's domain
 * (`$sin` of ∞, `$acos` of 2) before calling.
 */
import { absolute, add, div, int, mul, neg, ONE, sqrt, sub } from './decimal-float.js';
import type { BigFloat } from './decimal-float.js';
import { atan, ln1p, pi, sinCos, sinhCosh } from './decimal-elementary.js';
import { beyondExpRange, correctlyRounded, float } from './decimal-functions.js';
import type { DecimalParts, DecimalValue } from './decimal-round.js';

/** A function of one decimal. */
export type DecimalFunction = (x: DecimalValue) => DecimalValue;

const one = (negative = false): DecimalParts => ({ negative, coef: 1n, exp: 0 });
const isZero = (x: DecimalValue): x is DecimalParts => typeof x !== 'string' && x.coef === 0n;
const halfPi = (p: number): BigFloat => div(pi(p), int(2), p);
const signed = (negative: boolean, x: BigFloat): BigFloat => (negative ? neg(x) : x);

/**
 * `f` for finite non-zero arguments, with NaN passed through, a zero given `atZero` (the zero itself
 * for the odd functions) and an infinity `atInfinity`.
 */
function defined(
  f: (x: DecimalParts, p: number) => BigFloat,
  atZero: (x: DecimalParts) => DecimalValue,
  atInfinity: (negative: boolean) => DecimalValue = () => 'NaN',
  beyond?: (x: DecimalParts) => DecimalValue | undefined,
): DecimalFunction {
  return (x) => {
    if (x === 'NaN') return x;
    if (x === 'Infinity' || x === '-Infinity') return atInfinity(x === '-Infinity');
    if (isZero(x)) return atZero(x);
    return beyond?.(x) ?? correctlyRounded((p) => f(x, p));
  };
}

const itself = (x: DecimalParts): DecimalValue => x;
const piOver2 = (negative: boolean): DecimalValue => correctlyRounded((p) => signed(negative, halfPi(p)));

/** (1 − x)(1 + x) = 1 − x², without the cancellation near ±1. */
const oneMinusSquare = (x: BigFloat, p: number): BigFloat => mul(sub(ONE, x, p + 40), add(ONE, x, p + 40), p);

/** The decimal functions MongoDB's trigonometric operators call, by operator name. */
export const decimalTrigonometry: Record<string, DecimalFunction> = {
  $sin: defined((x, p) => sinCos(float(x), p).sin, itself),
  $cos: defined(
    (x, p) => sinCos(float(x), p).cos,
    () => one(),
  ),
  $tan: defined((x, p) => {
    const { sin, cos } = sinCos(float(x), p + 5);
    return div(sin, cos, p);
  }, itself),
  $asin: defined((x, p) => {
    const v = float(x);
    if (sub(absolute(v), ONE, p).m === 0n) return signed(x.negative, halfPi(p));
    return atan(div(v, sqrt(oneMinusSquare(v, p + 5), p + 5), p + 5), p);
  }, itself),
  // acos x = 2·atan(√((1 − x)/(1 + x))): no cancellation near 1; acos(−1) = π.
  $acos: defined(
    (x, p) => {
      const v = float(x);
      if (sub(v, neg(ONE), p).m === 0n) return pi(p);
      return mul(int(2), atan(sqrt(div(sub(ONE, v, p + 40), add(ONE, v, p + 5), p + 5), p + 5), p + 5), p);
    },
    () => correctlyRounded(halfPi),
  ),
  $atan: defined((x, p) => atan(float(x), p), itself, piOver2),
  $sinh: defined(
    (x, p) => sinhCosh(float(x), p).sinh,
    itself,
    (negative) => (negative ? '-Infinity' : 'Infinity'),
    (x) => (beyondExpRange(x) ? (x.negative ? '-Infinity' : 'Infinity') : undefined),
  ),
  $cosh: defined(
    (x, p) => sinhCosh(float(x), p).cosh,
    () => one(),
    () => 'Infinity',
    (x) => (beyondExpRange(x) ? 'Infinity' : undefined),
  ),
  $tanh: defined(
    (x, p) => {
      const { sinh, cosh } = sinhCosh(float(x), p + 5);
      return div(sinh, cosh, p);
    },
    itself,
    (negative) => one(negative),
    (x) => (beyondExpRange(x) ? one(x.negative) : undefined),
  ),
  // asinh |x| = ln(1 + |x| + x²/(1 + √(1 + x²))), which keeps a small x's digits.
  $asinh: defined(
    (x, p) => {
      const v = absolute(float(x));
      const square = mul(v, v, p + 5);
      const t = add(v, div(square, add(ONE, sqrt(add(ONE, square, p + 5), p + 5), p + 5), p + 5), p + 5);
      return signed(x.negative, ln1p(t, p));
    },
    itself,
    (negative) => (negative ? '-Infinity' : 'Infinity'),
  ),
  // acosh x = ln(1 + d + √(d(2 + d))) with d = x − 1, exact for a decimal x.
  $acosh: defined(
    (x, p) => {
      const d = sub(float(x), ONE, p + 40);
      return ln1p(add(d, sqrt(mul(d, add(int(2), d, p + 5), p + 5), p + 5), p + 5), p);
    },
    () => 'NaN',
    (negative) => (negative ? 'NaN' : 'Infinity'),
    (x) => (sub(float(x), ONE, 50).m === 0n ? { negative: false, coef: 0n, exp: 0 } : undefined),
  ),
  // atanh x = ½·ln(1 + 2x/(1 − x)); ±1 give ±∞.
  $atanh: defined(
    (x, p) => {
      const v = float(x);
      const ratio = div(mul(int(2), v, p + 5), sub(ONE, v, p + 40), p + 5);
      return div(ln1p(ratio, p + 5), int(2), p);
    },
    itself,
    () => 'NaN',
    (x) => (sub(absolute(float(x)), ONE, 50).m === 0n ? (x.negative ? '-Infinity' : 'Infinity') : undefined),
  ),
};

/**
 * atan2(y, x), the angle of the point (x, y) in (−π, π], with C's special values: ±0 or ±π along the
 * x axis (by the signs of the zeros), ±π/2 along the y axis, ±π/4 and ±3π/4 for two infinities.
 */
export function atan2Decimal(y: DecimalValue, x: DecimalValue): DecimalValue {
  if (y === 'NaN' || x === 'NaN') return 'NaN';
  const yNegative = y === '-Infinity' || (typeof y !== 'string' && y.negative);
  const xNegative = x === '-Infinity' || (typeof x !== 'string' && x.negative);
  const yInfinite = typeof y === 'string';
  const xInfinite = typeof x === 'string';
  const angle = (of: (p: number) => BigFloat): DecimalValue =>
    correctlyRounded((p) => signed(yNegative, of(p)));
  if (yInfinite && xInfinite) {
    return angle((p) => div(mul(pi(p + 2), int(xNegative ? 3 : 1), p + 2), int(4), p));
  }
  if (yInfinite || isZero(x)) {
    return isZero(y)
      ? xNegative
        ? angle((p) => pi(p))
        : { negative: yNegative, coef: 0n, exp: 0 }
      : angle(halfPi);
  }
  if (xInfinite || isZero(y)) {
    return xNegative ? angle((p) => pi(p)) : { negative: yNegative, coef: 0n, exp: 0 };
  }
  return angle((p) => {
    const reference = atan(absolute(div(float(y), float(x), p + 5)), p + 5);
    return xNegative ? sub(pi(p + 5), reference, p) : reference;
  });
}
