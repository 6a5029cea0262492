/**
 * Decimal128 values as exact numbers: parsed from their string form into coefficient × 10^exponent, for
 * exact arithmetic (arithmetic.ts), for comparing them with doubles as MongoDB does (a decimal equals a
 * double only when the double is exactly that number: `0.5` yes, `0.1` no), and for index keys.
 */

/** A finite decimal as coefficient × 10^exp, or a special value. */
export type Dec = { coef: bigint; exp: number } | 'NaN' | 'Infinity' | '-Infinity';

/** Parses a decimal's string form (`1.50`, `-1E+3`, `NaN`, `Infinity` …). */
export function parseDecimal(text: string): Dec {
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith('-') ? '-Infinity' : 'Infinity';
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match) return 'NaN';
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const coef = BigInt((whole + fraction || '0').replace(/^0+(?=\d)/, ''));
  return { coef: sign === '-' ? -coef : coef, exp: Number(exponent) - fraction.length };
}

/**
 * A finite double's exact value as a decimal (every double is one: m × 2^e is m × 5^−e × 10^e), the
 * start of MongoDB's `Decimal128(double, kRoundTo34Digits)`.
 */
export function exactDouble(n: number): { coef: bigint; exp: number } {
  if (n === 0) return { coef: 0n, exp: 0 };
  // n = m × 2^-k exactly, with m an integer (at most 1074 doublings for the smallest subnormal).
  let scaled = n;
  let k = 0;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    k++;
  }
  return { coef: BigInt(scaled) * 5n ** BigInt(k), exp: -k };
}

/** The double a decimal is exactly equal to, or undefined when no double is (e.g. `0.1`). */
export function decimalAsDouble(text: string): number | undefined {
  const dec = parseDecimal(text);
  if (dec === 'NaN') return NaN;
  if (dec === 'Infinity') return Infinity;
  if (dec === '-Infinity') return -Infinity;
  const n = Number(text);
  if (!Number.isFinite(n)) return undefined;
  // n = m × 2^-k exactly, with m an integer.
  let scaled = n;
  let k = 0;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    k++;
  }
  const m = BigInt(scaled);
  const twoK = 2n ** BigInt(k);
  const equal =
    dec.exp >= 0
      ? dec.coef * 10n ** BigInt(dec.exp) * twoK === m
      : dec.coef * twoK === m * 10n ** BigInt(-dec.exp);
  return equal ? n : undefined;
}

/** A canonical text for a decimal's value (`1.50` and `1.5` give the same), for index and group keys. */
export function decimalKey(text: string): string {
  const asDouble = decimalAsDouble(text);
  if (asDouble !== undefined) return Object.is(asDouble, -0) ? '0' : String(asDouble);
  const dec = parseDecimal(text) as { coef: bigint; exp: number };
  let { coef, exp } = dec;
  while (coef !== 0n && coef % 10n === 0n) {
    coef /= 10n;
    exp++;
  }
  return `${coef.toString()}E${exp}`;
}
