/**
 * Numbers across BSON's numeric types. The wire decoder keeps every int64 as a bson `Long` so that it keeps
 * its type on a round trip, while mingo only understands JS numbers. MongoDB compares numbers of any type by
 * value, so the engine hands mingo "plain" views in which each `Long` within ±2^53 is a JS number.
 * Longs beyond that range stay `Long` objects: converting them would make neighbouring ids (snowflakes,
 * counters) compare equal.
 */
import { Long } from 'bson';
import { bsonTag, isPlainObject } from './values.js';
import type { Doc } from './values.js';

const MAX_SAFE = Long.fromNumber(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = Long.fromNumber(Number.MIN_SAFE_INTEGER);

/** The JS number for a `Long` within ±2^53, `undefined` for any other value. */
function safeLong(value: unknown): number | undefined {
  if (bsonTag(value) !== 'Long') return undefined;
  const long = value as Long;
  if (long.greaterThan(MAX_SAFE) || long.lessThan(MIN_SAFE)) return undefined;
  return long.toNumber();
}

/**
 * `value` with every `Long` within ±2^53 replaced by a JS number, at any depth. Returns `value` itself when
 * there is nothing to replace, so the common case allocates nothing.
 */
export function plainNumbers<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const n = safeLong(value);
  if (n !== undefined) return n as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const p = plainNumbers(v);
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
    const p = plainNumbers(v);
    if (p !== v) {
      out ??= { ...value };
      out[key] = p;
    }
  }
  return (out ?? value) as T;
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

/** The kind of number a value is for update arithmetic: MongoDB's int, long and double. */
type Kind = 'int' | 'long' | 'double';

function kindOf(value: unknown): Kind | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 ? 'int' : 'double';
  }
  return bsonTag(value) === 'Long' ? 'long' : undefined;
}

function asLong(value: number | Long): Long {
  return typeof value === 'number' ? Long.fromNumber(value) : value;
}

/** True when `$inc`/`$mul` on these operands needs int64 arithmetic (a `Long` is involved, or an int overflows). */
export function needsLongArithmetic(op: '$inc' | '$mul', current: unknown, operand: unknown): boolean {
  const a = current === undefined ? 'int' : kindOf(current);
  const b = kindOf(operand);
  if (a === undefined || b === undefined || a === 'double' || b === 'double') return false;
  if (a === 'long' || b === 'long') return true;
  const result =
    op === '$inc' ? Number(current ?? 0) + Number(operand) : Number(current ?? 0) * Number(operand);
  return kindOf(result) !== 'int';
}

/**
 * `$inc`/`$mul` of int/long operands as MongoDB does it: the result is a long when either operand is a long
 * or an int result overflows 32 bits (`$mul` on a missing field yields a zero of the operand's type).
 * @throws RangeError when the result overflows 64 bits (the caller reports it as MongoDB does).
 */
export function longArithmetic(op: '$inc' | '$mul', current: unknown, operand: unknown): Long | number {
  const a = asLong((current ?? 0) as number | Long);
  const b = asLong(operand as number | Long);
  if (op === '$mul' && current === undefined) return kindOf(operand) === 'long' ? Long.ZERO : 0;
  const result = op === '$inc' ? a.add(b) : a.multiply(b);
  const overflow =
    op === '$inc'
      ? a.isNegative() === b.isNegative() && result.isNegative() !== a.isNegative()
      : !a.isZero() && !result.divide(a).equals(b);
  if (overflow) throw new RangeError('integer overflow');
  return result;
}
