/**
 * ln, log₂ and log₁₀ of a decimal128, computed in the steps of the Intel decimal library MongoDB 7.0
 * links (src/third_party/IntelRDFPMathLib20U1/LIBRARY/src: `bid128_log.c`, `bid128_log2.c`,
 * `bid128_log10.c`), so that the digits are MongoDB's (see decimal-binary128.ts):
 * - x is converted to binary128, its binary128 logarithm taken, and the result converted back;
 * - for |x − 1| < ½, where converting x lost digits that matter, the logarithm is corrected by the
 *   conversion's error: (x_quad − 1 − quad(x − 1)) / x_quad (× 1/ln 2 for log₂);
 * - x beyond 10^±4464 (outside binary128's range) is scaled by 10^∓4464 first and 4464·ln 10
 *   (or 4464·log₂ 10, or 4464) added back;
 * - log₁₀ is the binary128 ln times the binary128 1/ln 10, so log₁₀ 1000 comes out as 3 only because
 *   that product rounds to 3.
 * The binary128 constants are the library's, by their IEEE encodings.
 */
import {
  correctlyRoundedQuad,
  quad,
  quadFromBits,
  quadFromDecimal,
  quadInt,
  quadToDecimal,
  exactDecimal,
} from './decimal-binary128.js';
import type { Quad } from './decimal-binary128.js';
import { div, order, trim, type BigFloat } from './decimal-float.js';
import { ln } from './decimal-elementary.js';
import type { DecimalParts, DecimalValue } from './decimal-round.js';

const ONE = quadInt(1);
const HALF = quadFromBits(0x3ffe0000000000000000000000000000n);
const LN_10_TIMES_4464 = quadFromBits(0x400c4135eb3929fba719f2c946d2d728n);
const LOG2_10_TIMES_4464 = quadFromBits(0x400ccf68b235391208f6437dd4607b55n);
const INVERSE_LN_2 = quadFromBits(0x3fff71547652b82fe1777d0ffda0d23an);
const INVERSE_LN_10 = quadFromBits(0x3ffdbcb7b1526e50e32a6ab7555f5a68n);
const FOUR_THOUSAND_464 = quadInt(4464);
const SCALE = 4464;

type Base = 'e' | '2' | '10';

/** The binary128 logarithm (ln, or log₂ for base 2) of a positive quad, correctly rounded. */
function quadLogarithm(x: Quad, base: Base): Quad {
  const value = exactDecimal(x);
  const lnAt = (p: number): BigFloat => ln(trim(value, p + 20), p);
  if (base === '2') return correctlyRoundedQuad((p) => div(lnAt(p + 5), ln({ m: 2n, e: 0 }, p + 5), p));
  return correctlyRoundedQuad(lnAt);
}

/** The decimal's logarithm to `base`, for a finite x > 0 (callers refuse or handle the rest). */
function logarithm(x: DecimalParts, base: Base): DecimalValue {
  const magnitude = order({ m: x.coef, e: x.exp });
  const powerOfTen = /^10*$/.test(x.coef.toString());
  // The library compares x with 10^4464 and 10^−4464 themselves.
  const scaled =
    magnitude > SCALE || (magnitude === SCALE && !powerOfTen) ? -SCALE : magnitude < -SCALE ? SCALE : 0;
  const decimal: BigFloat = { m: x.coef, e: x.exp + scaled };
  const xq = quadFromDecimal(decimal);
  let rq = quadLogarithm(xq, base);
  if (scaled !== 0) {
    if (base === '10') rq = quad.mul(rq, INVERSE_LN_10);
    const shift = base === 'e' ? LN_10_TIMES_4464 : base === '2' ? LOG2_10_TIMES_4464 : FOUR_THOUSAND_464;
    rq = scaled < 0 ? quad.add(rq, shift) : quad.sub(rq, shift);
    return quadToDecimal(rq);
  }
  const eBin = quad.sub(xq, ONE);
  if (quad.less(quad.abs(eBin), HALF)) {
    // x − 1 is exact in decimal128 here (x has at most 34 digits and lies within ½ of 1).
    const exactMinusOne = x.exp >= 0 ? x.coef * 10n ** BigInt(x.exp) - 1n : x.coef - 10n ** BigInt(-x.exp);
    const e = quadFromDecimal({ m: exactMinusOne, e: Math.min(x.exp, 0) });
    let rt = quad.sub(eBin, e);
    if (base === '2') rt = quad.mul(INVERSE_LN_2, rt);
    rt = quad.div(rt, xq);
    rq = quad.sub(rq, rt);
  }
  if (base === '10') rq = quad.mul(rq, INVERSE_LN_10);
  return quadToDecimal(rq);
}

/** ln x for a decimal x > 0 (`bid128_log`); ∞ for ∞, NaN for NaN. */
export function lnDecimal(x: DecimalValue): DecimalValue {
  if (typeof x === 'string') return x === 'Infinity' ? x : 'NaN';
  return logarithm(x, 'e');
}

/** log₂ x for a decimal x > 0 (`bid128_log2`). */
export function log2Decimal(x: DecimalValue): DecimalValue {
  if (typeof x === 'string') return x === 'Infinity' ? x : 'NaN';
  return logarithm(x, '2');
}

/** log₁₀ x for a decimal x > 0 (`bid128_log10`). */
export function log10Decimal(x: DecimalValue): DecimalValue {
  if (typeof x === 'string') return x === 'Infinity' ? x : 'NaN';
  return logarithm(x, '10');
}
