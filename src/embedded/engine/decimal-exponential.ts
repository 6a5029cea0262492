/**
 * e^x of a decimal128, computed in the steps of the Intel decimal library MongoDB 7.0 links
 * (src/third_party/IntelRDFPMathLib20U1/LIBRARY/src/bid128_exp.c), so that the digits are MongoDB's
 * (see decimal-binary128.ts): x is split into a binary128 high part and the binary128 rounding of the
 * rest (x = n + m), e^x is e^n + e^n·m in binary128, converted back to decimal128. Beyond ±11000,
 * where e^n leaves binary128's range, e^(n ∓ 11000) is taken and multiplied, in decimal, by the
 * library's decimal128 e^±11000. Beyond ±15000 the result is ∞ or 0 (0E-6176) without computing.
 */
import { exp } from './decimal-elementary.js';
import { trim, type BigFloat } from './decimal-float.js';
import {
  correctlyRoundedQuad,
  exactDecimal,
  quad,
  quadFromDecimal,
  quadInt,
  quadResidual,
  quadToDecimal,
} from './decimal-binary128.js';
import { EXP_MIN, roundParts, type DecimalParts, type DecimalValue } from './decimal-round.js';

/** A positive decimal128 from its BID encoding (as the library states its constants). */
function fromBid(high: bigint, low: bigint): DecimalParts {
  const exp = Number((high >> 49n) & 0x3fffn) - 6176;
  return { negative: false, coef: ((high & 0x1ffffffffffffn) << 64n) | low, exp };
}

const E_TO_11000 = fromBid(0x5550558ada285f8bn, 0xd43ede775707fd0an);
const E_TO_MINUS_11000 = fromBid(0x0aab1c2bbc58f8f5n, 0x995ab6781dd4b6f5n);
const LIMIT = 11000;
const BEYOND = 15000n;

/** `x` compared with the integer `n` exactly: negative, zero or positive. */
function versus(x: DecimalParts, n: bigint): number {
  const value = x.negative ? -x.coef : x.coef;
  const [a, b] = x.exp >= 0 ? [value * 10n ** BigInt(x.exp), n] : [value, n * 10n ** BigInt(-x.exp)];
  return a < b ? -1 : a > b ? 1 : 0;
}

/** e^x: 1 for a zero, 0 for −∞, ∞ above 15000, 0E-6176 below −15000. */
export function expDecimal(x: DecimalValue): DecimalValue {
  if (x === 'NaN' || x === 'Infinity') return x;
  if (x === '-Infinity') return { negative: false, coef: 0n, exp: 0 };
  if (x.coef === 0n) return { negative: false, coef: 1n, exp: 0 };
  if (versus(x, BEYOND) > 0) return 'Infinity';
  if (versus(x, -BEYOND) < 0) return { negative: false, coef: 0n, exp: EXP_MIN };
  const value: BigFloat = { m: x.negative ? -x.coef : x.coef, e: x.exp };
  let high = quadFromDecimal(value);
  const low = quadResidual(value, high);
  let factor: DecimalParts | undefined;
  if (quad.less(quadInt(LIMIT), high)) {
    high = quad.sub(high, quadInt(LIMIT));
    factor = E_TO_11000;
  } else if (quad.less(high, quadInt(-LIMIT))) {
    high = quad.add(high, quadInt(LIMIT));
    factor = E_TO_MINUS_11000;
  }
  const power = exactDecimal(high);
  let result = correctlyRoundedQuad((p) => exp(trim(power, p + 20), p));
  result = quad.add(result, quad.mul(result, low));
  const decimal = quadToDecimal(result);
  if (factor === undefined || typeof decimal === 'string') return decimal;
  return roundParts({ negative: false, coef: decimal.coef * factor.coef, exp: decimal.exp + factor.exp });
}
