/**
 * IEEE 754 binary128 ("quad") numbers, as far as the decimal128 logarithms need them. The Intel decimal
 * library that MongoDB 7.0 links (src/third_party/IntelRDFPMathLib20U1: `bid128_log`, `bid128_log2`,
 * `bid128_log10`) computes a transcendental function of a decimal by converting it to binary128,
 * applying the binary128 function and converting the result back: the result is the decimal128 nearest
 * to a binary128 value, not the decimal128 nearest to the true value, and the two differ in the last
 * digit now and then. Computing the same steps here gives MongoDB's digits.
 *
 * Every operation is exact on bigints, then rounded once to 113 significant bits, ties to even, as
 * IEEE 754 defines binary128's operations. Values stay in binary128's normal range (the callers scale
 * decimals beyond 10^±4464 first, as the library does), so subnormals do not arise.
 */
import type { BigFloat } from './decimal-float.js';
import { digitCount, roundParts, type DecimalValue } from './decimal-round.js';

/** `m × 2^e` with `2^112 ≤ |m| < 2^113`, or `m` 0. */
export interface Quad {
  m: bigint;
  e: number;
}

const PRECISION = 113;
const bitLength = (n: bigint): number => n.toString(2).length;
const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** `num / den` (`den` > 0) rounded to binary128, ties to even. */
export function quadOf(num: bigint, den: bigint): Quad {
  if (num === 0n) return { m: 0n, e: 0 };
  const n = abs(num);
  let k = PRECISION - (bitLength(n) - bitLength(den));
  const shifted = (s: number): [bigint, bigint] => (s >= 0 ? [n << BigInt(s), den] : [n, den << BigInt(-s)]);
  let [a, b] = shifted(k);
  if (a / b >= 1n << BigInt(PRECISION)) [a, b] = shifted(--k);
  if (a / b < 1n << BigInt(PRECISION - 1)) [a, b] = shifted(++k);
  let q = a / b;
  const twice = 2n * (a - q * b);
  if (twice > b || (twice === b && (q & 1n) === 1n)) q++;
  if (q === 1n << BigInt(PRECISION)) {
    q >>= 1n;
    k--;
  }
  return { m: num < 0n ? -q : q, e: -k };
}

/** A quad as an exact fraction `[num, den]`. */
const fraction = (q: Quad): [bigint, bigint] =>
  q.e >= 0 ? [q.m << BigInt(q.e), 1n] : [q.m, 1n << BigInt(-q.e)];

/** A decimal (`m × 10^e`) rounded to binary128: the library's `bid128_to_binary128`. */
export function quadFromDecimal(x: BigFloat): Quad {
  return x.e >= 0 ? quadOf(x.m * 10n ** BigInt(x.e), 1n) : quadOf(x.m, 10n ** BigInt(-x.e));
}

/** `x − q` (a decimal minus a quad) rounded to binary128: the low part of a two-part conversion. */
export function quadResidual(x: BigFloat, q: Quad): Quad {
  const [xn, xd] = x.e >= 0 ? [x.m * 10n ** BigInt(x.e), 1n] : [x.m, 10n ** BigInt(-x.e)];
  const [qn, qd] = fraction(q);
  return quadOf(xn * qd - qn * xd, xd * qd);
}

/** A quad's exact value as a decimal `m × 10^e` (2^−k is 5^k × 10^−k). */
export function exactDecimal(q: Quad): BigFloat {
  return q.e >= 0 ? { m: q.m << BigInt(q.e), e: 0 } : { m: q.m * 5n ** BigInt(-q.e), e: q.e };
}

/**
 * A quad as a decimal128: the library's `binary128_to_bid128`. Rounded to 34 digits, ties to even; a
 * value that fits in 34 digits comes exactly, without trailing zeros after the point (`2`, `10`, `0.5`).
 */
export function quadToDecimal(q: Quad): DecimalValue {
  let { m: coef, e: exp } = exactDecimal(q);
  const negative = coef < 0n;
  coef = abs(coef);
  if (coef === 0n) return { negative: false, coef, exp: 0 };
  while (exp < 0 && coef % 10n === 0n) {
    coef /= 10n;
    exp++;
  }
  if (digitCount(coef) <= 34) return { negative, coef, exp };
  return roundParts({ negative, coef, exp });
}

const add = (a: Quad, b: Quad): Quad => {
  const [an, ad] = fraction(a);
  const [bn, bd] = fraction(b);
  return ad >= bd ? quadOf(an + bn * (ad / bd), ad) : quadOf(an * (bd / ad) + bn, bd);
};

/** The quad operations, each exact and then rounded once. */
export const quad = {
  add,
  sub: (a: Quad, b: Quad): Quad => add(a, { m: -b.m, e: b.e }),
  mul: (a: Quad, b: Quad): Quad => {
    const [an, ad] = fraction(a);
    const [bn, bd] = fraction(b);
    return quadOf(an * bn, ad * bd);
  },
  div: (a: Quad, b: Quad): Quad => {
    const [an, ad] = fraction(a);
    const [bn, bd] = fraction(b);
    const num = an * bd;
    const den = ad * bn;
    return den < 0n ? quadOf(-num, -den) : quadOf(num, den);
  },
  abs: (a: Quad): Quad => ({ m: abs(a.m), e: a.e }),
  /** `a < b`. */
  less: (a: Quad, b: Quad): boolean => {
    const [an, ad] = fraction(a);
    const [bn, bd] = fraction(b);
    return an * bd < bn * ad;
  },
};

/** A binary128 constant from its 128-bit IEEE encoding (as the library states its constants). */
export function quadFromBits(bits: bigint): Quad {
  const negative = bits >> 127n === 1n;
  const exponent = Number((bits >> 112n) & 0x7fffn);
  const m = (1n << 112n) | (bits & ((1n << 112n) - 1n));
  return { m: negative ? -m : m, e: exponent - 16383 - 112 };
}

/** A small integer as a quad (exact). */
export const quadInt = (n: number): Quad => quadOf(BigInt(n), 1n);

/**
 * The binary128 rounding of the value `approximate(p)` tends to (the library's binary128 functions are
 * within an ulp; this is the nearest): approximations at 50, 70, 98 … digits until two round alike.
 */
export function correctlyRoundedQuad(approximate: (p: number) => BigFloat): Quad {
  let p = 50;
  let previous = quadFromDecimal(approximate(p));
  for (;;) {
    p = Math.ceil(p * 1.4);
    const next = quadFromDecimal(approximate(p));
    if ((next.m === previous.m && next.e === previous.e) || p > 600) return next;
    previous = next;
  }
}
