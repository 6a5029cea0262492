/**
 * The elementary functions (exp, ln, atan, sin/cos and the constants π and ln 10) approximated to `p`
 * significant digits on {@link BigFloat}s, by argument reduction and Taylor series. Each works with a
 * few guard digits beyond `p`; the caller (decimal-functions.ts) asks for more digits until the
 * decimal128 rounding of the result no longer changes.
 */
import {
  absolute,
  add,
  div,
  int,
  mul,
  nearestInteger,
  neg,
  ONE,
  order,
  scale10,
  sqrt,
  sub,
  toNumber,
  ZERO,
} from './decimal-float.js';
import type { BigFloat } from './decimal-float.js';

const GUARD = 8;

/** Sums `first + next(first, 1) + next(…, 2) + …` until the terms fall below the sum's `p` digits. */
function series(first: BigFloat, next: (term: BigFloat, k: number) => BigFloat, p: number): BigFloat {
  let sum = first;
  let term = first;
  for (let k = 1; term.m !== 0n && order(term) >= order(sum) - p - 2; k++) {
    term = next(term, k);
    sum = add(sum, term, p);
  }
  return sum;
}

/** `Σ x^(2k+1) / (2k+1)` for |x| < 1: atanh x, or atan x when the signs `alternate`. */
function oddPowerSeries(x: BigFloat, alternate: boolean, p: number): BigFloat {
  const x2 = mul(x, x, p);
  let power = x;
  return series(
    x,
    (_term, k) => {
      power = mul(power, alternate ? neg(x2) : x2, p);
      return div(power, int(2 * k + 1), p);
    },
    p,
  );
}

/** atanh(z) = z + z³/3 + z⁵/5 + …, for |z| well below 1 (≤ 0.6 here). */
export const atanhSeries = (z: BigFloat, p: number): BigFloat => oddPowerSeries(z, false, p + GUARD);

/**
 * atan(1/n) (or atanh(1/n) when `hyperbolic`) as an integer scaled by 10^digits: the series in fixed
 * point, each term one division by a small number, fast even for the thousands of digits that
 * reducing a huge sine argument needs.
 */
function inverseArctangent(n: number, digits: number, hyperbolic: boolean): bigint {
  const big = BigInt(n);
  const square = big * big;
  let power = 10n ** BigInt(digits) / big;
  let sum = power;
  for (let k = 1n; power !== 0n; k++) {
    power /= square;
    const term = power / (2n * k + 1n);
    sum += hyperbolic || k % 2n === 0n ? term : -term;
  }
  return sum;
}

const memo = new Map<string, BigFloat>();

/**
 * A constant to `p` digits from `terms(digits)` (the constant scaled by 10^digits), computed once with
 * room for the next few precisions asked for.
 */
function constant(name: string, p: number, terms: (digits: number) => bigint): BigFloat {
  const known = memo.get(name);
  if (known && -known.e >= p + GUARD) return known;
  // Ten more digits absorb the truncation of the series' terms.
  const digits = p + 2 * GUARD + 64;
  const value = { m: terms(digits + 10) / 10n ** 10n, e: -digits };
  memo.set(name, value);
  return value;
}

/** π by Machin's formula, 16·atan(1/5) − 4·atan(1/239). */
export const pi = (p: number): BigFloat =>
  constant(
    'pi',
    p,
    (digits) => 16n * inverseArctangent(5, digits, false) - 4n * inverseArctangent(239, digits, false),
  );

/** ln 10 = 3·ln 2 + ln(5/4) = 6·atanh(1/3) + 2·atanh(1/9). */
export const ln10 = (p: number): BigFloat =>
  constant(
    'ln10',
    p,
    (digits) => 6n * inverseArctangent(3, digits, true) + 2n * inverseArctangent(9, digits, true),
  );

/** e^x for |x| up to a few tens of thousands: e^x = e^r × 10^q with x = q·ln 10 + r, |r| ≤ 1.2. */
export function exp(x: BigFloat, p: number): BigFloat {
  if (x.m === 0n) return ONE;
  const w = p + GUARD;
  const q = nearestInteger(div(x, ln10(w), w));
  const r = sub(x, mul(int(q), ln10(w + String(q).length), w + String(q).length), w);
  // e^r = (e^(r/2^8))^(2^8): the series then needs few terms.
  const halvings = 8;
  const small = div(r, int(2 ** halvings), w);
  let result = series(ONE, (term, k) => div(mul(term, small, w), int(k), w), w);
  for (let i = 0; i < halvings; i++) result = mul(result, result, w);
  return scale10(result, Number(q));
}

/** ln(1 + t) for t > −1, without losing the digits of a small `t`: 2·atanh(t / (2 + t)). */
export function ln1p(t: BigFloat, p: number): BigFloat {
  const w = p + GUARD;
  const z = div(t, add(int(2), t, w), w);
  if (Math.abs(toNumber(z)) <= 0.6) return mul(int(2), atanhSeries(z, w), w);
  return ln(add(ONE, t, w), p);
}

/** ln x for x > 0: x = f × 10^k with f in [√10/10, √10), ln x = ln f + k·ln 10. */
export function ln(x: BigFloat, p: number): BigFloat {
  const w = p + GUARD;
  let k = order(x);
  let f = scale10(x, -k);
  // f² ≥ 10 exactly when f ≥ √10 (f is exact here: only its exponent moved).
  if (order({ m: f.m * f.m, e: 2 * f.e }) >= 1) {
    f = scale10(f, -1);
    k++;
  }
  const lnF = mul(int(2), atanhSeries(div(sub(f, ONE, w + 40), add(f, ONE, w), w), w), w);
  if (k === 0) return lnF;
  const digitsOfK = String(Math.abs(k)).length;
  return add(lnF, mul(int(k), ln10(w + digitsOfK), w + digitsOfK), w);
}

/** atan x: π/2 − atan(1/x) beyond 1, three halvings (atan x = 2·atan(x / (1 + √(1 + x²)))) below. */
export function atan(x: BigFloat, p: number): BigFloat {
  const w = p + GUARD;
  if (x.m === 0n) return ZERO;
  if (sub(absolute(x), ONE, w).m > 0n) {
    const result = sub(div(pi(w), int(2), w), atan(div(ONE, absolute(x), w), w), w);
    return x.m < 0n ? neg(result) : result;
  }
  let y = x;
  const halvings = 3;
  for (let i = 0; i < halvings; i++) y = div(y, add(ONE, sqrt(add(ONE, mul(y, y, w), w), w), w), w);
  return mul(int(2 ** halvings), oddPowerSeries(y, true, w), w);
}

/**
 * sin x and cos x: x = q·π/2 + r with |r| ≤ π/4 (π to as many more digits as x has before its point),
 * the series of sin r and cos r, and the quadrant q mod 4 to choose and sign them.
 */
export function sinCos(x: BigFloat, p: number): { sin: BigFloat; cos: BigFloat } {
  const extra = Math.max(0, order(x)) + GUARD;
  const w = p + extra;
  const halfPi = div(pi(w), int(2), w);
  const q = nearestInteger(div(x, halfPi, w));
  // The remainder has only p + GUARD good digits: the series need no more.
  const v = p + GUARD;
  const r = sub(x, mul(int(q), halfPi, w), v);
  const r2 = mul(r, r, v);
  const s = series(r, (term, k) => div(mul(term, neg(r2), v), int(2 * k * (2 * k + 1)), v), v);
  const c = series(ONE, (term, k) => div(mul(term, neg(r2), v), int((2 * k - 1) * 2 * k), v), v);
  switch (Number(((q % 4n) + 4n) % 4n)) {
    case 0:
      return { sin: s, cos: c };
    case 1:
      return { sin: c, cos: neg(s) };
    case 2:
      return { sin: neg(s), cos: neg(c) };
    default:
      return { sin: neg(c), cos: s };
  }
}

/** sinh x and cosh x: the series of sinh below 1 (no cancellation), (e^x ∓ e^−x)/2 above. */
export function sinhCosh(x: BigFloat, p: number): { sinh: BigFloat; cosh: BigFloat } {
  const w = p + GUARD;
  if (order(x) < 0) {
    const x2 = mul(x, x, w);
    const s = series(x, (term, k) => div(mul(term, x2, w), int(2 * k * (2 * k + 1)), w), w);
    return { sinh: s, cosh: sqrt(add(ONE, mul(s, s, w), w), w) };
  }
  const e = exp(x, w);
  const inverse = div(ONE, e, w);
  const half = (v: BigFloat): BigFloat => div(v, int(2), w);
  return { sinh: half(sub(e, inverse, w)), cosh: half(add(e, inverse, w)) };
}
