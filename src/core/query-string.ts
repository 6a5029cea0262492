import qs from 'qs';
import type { Query } from './declarations.js';

/** Limits of the query-string parser (the `qs` options plume sets explicitly). */
export interface QueryStringLimits {
  /** Highest array index kept as an array; larger arrays become objects keyed by index. */
  arrayLimit: number;
  /** Deepest bracket nesting parsed; deeper brackets stay part of the key. Default 5. */
  depth?: number;
  /** Most parameters read; the rest are ignored. Default 1000. */
  parameterLimit?: number;
}

/** A number as a query string writes it: decimal digits, an optional minus sign and fraction. */
const DECIMAL_NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * True when `text` is a number written the one way plume reads numbers from query strings (and other
 * text): decimal digits with an optional leading `-` and `.fraction` (`20`, `-1.5`, `007`). Not
 * hexadecimal (`0x10`), octal or binary literals, exponents (`1e1`), `+5`, `.5`, `Infinity` or
 * surrounding spaces, which `Number()` would read: a value a client did not mean as that number is
 * refused rather than guessed.
 */
export function isDecimalNumber(text: string): boolean {
  return DECIMAL_NUMBER.test(text);
}

/** A decimal number that writes an integer: no fraction, or only zeros after the point. */
const INTEGER_DIGITS = /^(-?\d+)(?:\.0+)?$/;

/**
 * For a number in decimal digits (`isDecimalNumber`) that writes an integer a double cannot hold,
 * the integer `Number()` rounds it to, in decimal digits (`'9007199254740993'` → `'9007199254740992'`);
 * else `undefined`. Integers up to 2^53 in size are all exact; beyond, a query for one would
 * silently mean another, so plume refuses them. A number with a fraction (`0.1`) is read as the
 * nearest double, which is what writing it in decimal means, and numbers too large for a double
 * (`Infinity`) are refused on their own.
 */
export function roundedIntegerOf(text: string): string | undefined {
  const digits = INTEGER_DIGITS.exec(text)?.[1];
  if (digits === undefined) return undefined;
  const number = Number(text);
  // Rounding keeps order: a number that reads as a safe integer was written as that integer.
  if (Number.isSafeInteger(number) || !Number.isFinite(number)) return undefined;
  const rounded = BigInt(number);
  return rounded === BigInt(digits) ? undefined : rounded.toString();
}

/** Keys that could reach an object's prototype if a service merged client input unsafely. */
const unsafeKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** True for `__proto__`, `constructor` and `prototype`: keys plume never copies from client input. */
export function isUnsafeKey(key: string): boolean {
  return unsafeKeys.has(key);
}

/** Removes unsafe keys at every depth, in place (qs already skips most; this is the guarantee). */
function stripUnsafeKeys(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) {
    if (unsafeKeys.has(key)) delete (value as Record<string, unknown>)[key];
    else stripUnsafeKeys((value as Record<string, unknown>)[key]);
  }
}

/**
 * The query-string parser both transports use (spec: "Request params (HTTP transports)"): nested
 * brackets with `qs` (`a[b]=1&c[]=2` → `{ a: { b: '1' }, c: ['2'] }`), values kept as strings, at most
 * `depth` levels (default 5), `arrayLimit` array indices and `parameterLimit` parameters (default
 * 1000); prototype keys never set and `__proto__`/`constructor`/`prototype` dropped at every depth.
 * The parser takes the text after `?` (without it); `''`, `null` and `undefined` give `{}`.
 */
export function createQueryStringParser(
  limits: QueryStringLimits,
): (queryString: string | null | undefined) => Query {
  const options: qs.IParseOptions = {
    arrayLimit: limits.arrayLimit,
    depth: limits.depth ?? 5,
    parameterLimit: limits.parameterLimit ?? 1000,
    allowPrototypes: false,
  };
  return (queryString) => {
    if (queryString === null || queryString === undefined || queryString === '') return {};
    const query: Query = qs.parse(queryString, options);
    stripUnsafeKeys(query);
    return query;
  };
}
