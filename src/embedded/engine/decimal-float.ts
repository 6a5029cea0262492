/**
 * Decimal floating point of any precision, for approximating the transcendental functions
 * (decimal-elementary.ts): a value is `m × 10^e` with a bigint `m`, and each operation keeps `p`
 * significant digits (truncating), so that a small result keeps its relative precision however small
 * it is.
 */

/** `m × 10^e`; the sign is the sign of `m`. */
export interface BigFloat {
  m: bigint;
  e: number;
}

export const ZERO: BigFloat = { m: 0n, e: 0 };
export const ONE: BigFloat = { m: 1n, e: 0 };

const abs = (n: bigint): bigint => (n < 0n ? -n : n);
const digits = (n: bigint): number => (n === 0n ? 0 : abs(n).toString().length);

/** A small integer as a BigFloat. */
export const int = (n: number | bigint): BigFloat => ({ m: BigInt(n), e: 0 });

/** `x` truncated to `p` significant digits. */
export function trim(x: BigFloat, p: number): BigFloat {
  const drop = digits(x.m) - p;
  if (drop <= 0) return x;
  return { m: x.m / 10n ** BigInt(drop), e: x.e + drop };
}

/**
 * The decimal exponent of `x`'s leading digit (`1234` → 3, `0.05` → −2); −Infinity for zero. `x` lies
 * in [10^order, 10^(order+1)).
 */
export const order = (x: BigFloat): number => (x.m === 0n ? -Infinity : digits(x.m) - 1 + x.e);

export const neg = (x: BigFloat): BigFloat => ({ m: -x.m, e: x.e });
export const absolute = (x: BigFloat): BigFloat => ({ m: abs(x.m), e: x.e });

/** `x` as the nearest double (for comparing with a bound, not for computing). */
export const toNumber = (x: BigFloat): number => Number(`${x.m}e${x.e}`);

/** `x × 10^n`, exactly. */
export const scale10 = (x: BigFloat, n: number): BigFloat => ({ m: x.m, e: x.e + n });

/** `a + b` to `p` digits (exact before truncating, so a difference of near values loses nothing more). */
export function add(a: BigFloat, b: BigFloat, p: number): BigFloat {
  if (a.m === 0n) return trim(b, p);
  if (b.m === 0n) return trim(a, p);
  const [large, small] = order(a) >= order(b) ? [a, b] : [b, a];
  // A term wholly below the larger one's p digits cannot cancel it: only its leading digits matter,
  // and aligning all of them (1 + 10^-6000) would be slow.
  const floor = order(large) - p - 3;
  const e = order(small) < floor ? Math.min(large.e, floor) : Math.min(large.e, small.e);
  const align = (x: BigFloat): bigint =>
    x.e >= e ? x.m * 10n ** BigInt(x.e - e) : x.m / 10n ** BigInt(e - x.e);
  return trim({ m: align(large) + align(small), e }, p);
}

export const sub = (a: BigFloat, b: BigFloat, p: number): BigFloat => add(a, neg(b), p);

export const mul = (a: BigFloat, b: BigFloat, p: number): BigFloat => trim({ m: a.m * b.m, e: a.e + b.e }, p);

/** `a ÷ b` to `p` digits. `b` must not be zero. */
export function div(a: BigFloat, b: BigFloat, p: number): BigFloat {
  const shift = Math.max(0, p + 1 + digits(b.m) - digits(a.m));
  return trim({ m: (a.m * 10n ** BigInt(shift)) / b.m, e: a.e - b.e - shift }, p);
}

/** The integer square root ⌊√n⌋ of `n` ≥ 0 (Newton's method from above). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** √x to `p` digits, `x` ≥ 0. */
export function sqrt(x: BigFloat, p: number): BigFloat {
  if (x.m === 0n) return ZERO;
  // An even exponent, and at least 2p digits under the root so that the root has p.
  let shift = Math.max(0, 2 * p + 2 - digits(x.m));
  if ((x.e - shift) % 2 !== 0) shift++;
  return trim({ m: isqrt(x.m * 10n ** BigInt(shift)), e: (x.e - shift) / 2 }, p);
}

/** The nearest integer to `x` (ties away from zero), for argument reduction. */
export function nearestInteger(x: BigFloat): bigint {
  if (x.e >= 0) return x.m * 10n ** BigInt(x.e);
  const unit = 10n ** BigInt(-x.e);
  const q = x.m / unit;
  const twice = 2n * abs(x.m % unit);
  return twice >= unit ? q + (x.m < 0n ? -1n : 1n) : q;
}

/** `x` as an exact fraction-free pair, for rounding into decimal128. */
export const toExact = (x: BigFloat): { negative: boolean; coef: bigint; exp: number } => ({
  negative: x.m < 0n,
  coef: abs(x.m),
  exp: x.e,
});
