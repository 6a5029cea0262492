/**
 * Numbers across BSON's numeric types. The wire decoder keeps every int64 as a bson `Long`, and each
 * integral double that fits 32 bits as a bson `Double`, so that they keep their types on a round trip, while
 * mingo only understands JS numbers. MongoDB compares numbers of any type by value, so the engine hands
 * mingo "plain" views in which each such `Double`, each `Long` within ±2^53, and each `Decimal128` that is
 * exactly a double, is a JS number. Longs beyond that range stay `Long` objects: converting them
 * would make neighbouring ids (snowflakes, counters) compare equal.
 */
import { Double, Long } from 'bson';
import { decimalAsDouble } from './decimal.js';
import { bsonTag, bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';

const MAX_SAFE = Long.fromNumber(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = Long.fromNumber(Number.MIN_SAFE_INTEGER);

/**
 * The JS number for a `Long` within ±2^53 or a `Decimal128` that is exactly a double, `undefined` for
 * any other value.
 */
function plainValue(value: unknown): number | undefined {
  const tag = bsonTag(value);
  if (tag === 'Double' || tag === 'Int32') return (value as Double).value;
  if (tag === 'Decimal128') return decimalAsDouble(String(value));
  if (tag !== 'Long') return undefined;
  const long = value as Long;
  if (long.greaterThan(MAX_SAFE) || long.lessThan(MIN_SAFE)) return undefined;
  return long.toNumber();
}

/**
 * A double result as the engine keeps it: a bson `Double` when the value is integral and fits 32 bits
 * (the BSON encoder writes such a JS number as an int32, which would change its type), the JS number
 * otherwise.
 */
export function asDouble(n: number): number | Double {
  return bsonTypeName(n) === 'int' && !Object.is(n, -0) ? new Double(n) : n;
}

/** `value` with `replace` applied to every bson value at any depth; `value` itself when nothing changes. */
function mapBsonValues<T>(value: T, replace: (v: unknown) => number | undefined): T {
  if (value === null || typeof value !== 'object') return value;
  const n = replace(value);
  if (n !== undefined) return n as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const p = mapBsonValues(v, replace);
      if (p !== v) {
        out ??= value.slice();
        out[i] = p;
      }
    }
    return (out ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let out: Doc | undefined;
  for (const key of Object.keys(value)) {
    const v = value[key];
    const p = mapBsonValues(v, replace);
    if (p !== v) {
      out ??= { ...value };
      out[key] = p;
    }
  }
  return (out ?? value) as T;
}

/**
 * `value` with every `Double` wrapper, `Long` within ±2^53 and `Decimal128` that is exactly a double
 * replaced by a JS number, at any depth. Returns `value` itself when there is nothing to replace, so the
 * common case allocates nothing.
 */
export function plainNumbers<T>(value: T): T {
  return mapBsonValues(value, plainValue);
}

/** `doc` with the top-level fields that `paths` start with made plain (see {@link plainNumbers}). */
export function plainFields(doc: Doc, paths: readonly string[]): Doc {
  let out: Doc | undefined;
  for (const path of paths) {
    const dot = path.indexOf('.');
    const top = dot < 0 ? path : path.slice(0, dot);
    const v = doc[top];
    const p = plainNumbers(v);
    if (p !== v) {
      out ??= { ...doc };
      out[top] = p;
    }
  }
  return out ?? doc;
}
