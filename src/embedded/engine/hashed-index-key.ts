/**
 * The 64-bit hash MongoDB's hashed indexes store for a value (BSONElementHasher::hash64 in
 * src/mongo/db/hasher.cpp), and `$toHashedIndexKey`, which answers it (manual, "$toHashedIndexKey":
 * `"string to hash"` hashes to `Long("763543691661428748")`). The hash is the
 * first 8 bytes, read little-endian, of the MD5 digest of a 4-byte seed of 0, the value's canonical type
 * (4 bytes) and its BSON value bytes; numbers of every type are hashed as the 64-bit integer they
 * truncate to, so `2`, `2.3` and `NumberLong(2)` hash alike; documents and arrays hash each element's
 * canonical type, name and value, then the end marker. Missing is hashed as null. mingo answered a
 * 32-bit string hash of its own, as an int or a double.
 */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { evalExpr } from 'mingo/core';
import { Long } from 'bson';
import type { ExpressionOp } from './operator-types.js';
import { numberKind } from './arithmetic.js';
import type { Collation } from './collation.js';
import { collationKey } from './collation.js';
import { numberOf } from './value-strings.js';
import { bsonTag, isPlainObject } from './values.js';

const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
};

const int64 = (n: bigint): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(BigInt.asIntN(64, n));
  return b;
};

/** A BSON string value: its byte length with the terminator, its UTF-8 bytes, the terminator. */
const stringBytes = (s: string): Buffer => {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([int32(bytes.length + 1), bytes, Buffer.alloc(1)]);
};

/** `BSONElement::safeNumberLong`: truncated toward zero, NaN as 0, clamped to the int64 range. */
function safeLong(value: unknown): bigint {
  if (numberKind(value) === 'long' || numberKind(value) === 'int') return BigInt(String(value));
  const n = numberOf(value);
  if (Number.isNaN(n)) return 0n;
  if (n >= 2 ** 63) return 2n ** 63n - 1n;
  if (n <= -(2 ** 63)) return -(2n ** 63n);
  return BigInt(Math.trunc(n));
}

/**
 * Feeds one value (with its `name` inside a document or array) to the hash, as MongoDB's hasher does;
 * under `collation` a string, at any depth, is hashed as its collation key.
 */
function hashValue(hash: Hash, value: unknown, collation: Collation | undefined, name?: string): void {
  const field =
    name === undefined ? Buffer.alloc(0) : Buffer.concat([Buffer.from(name, 'utf8'), Buffer.alloc(1)]);
  const put = (canonicalType: number, bytes: Buffer): void => {
    hash.update(int32(canonicalType));
    hash.update(field);
    hash.update(bytes);
  };
  if (value === null || value === undefined) return put(5, Buffer.alloc(0));
  if (numberKind(value) !== undefined) return put(10, int64(safeLong(value)));
  if (typeof value === 'string')
    return put(15, stringBytes(collation ? collationKey(value, collation) : value));
  if (typeof value === 'boolean') return put(40, Buffer.from([value ? 1 : 0]));
  if (value instanceof Date) {
    // A BSON date past JavaScript's range arrives as an invalid Date, its milliseconds lost.
    const time = value.getTime();
    return put(45, int64(Number.isNaN(time) ? 0n : BigInt(time)));
  }
  if (Array.isArray(value) || isPlainObject(value)) {
    hash.update(int32(Array.isArray(value) ? 25 : 20));
    hash.update(field);
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i), v] as const)
      : Object.entries(value);
    for (const [key, item] of entries) if (item !== undefined) hashValue(hash, item, collation, key);
    // The end-of-object marker: canonical type 0, no name, no value.
    hash.update(int32(0));
    return;
  }
  const v = value as Record<string, unknown> & { toString(): string };
  switch (bsonTag(value)) {
    case 'ObjectId':
      return put(35, Buffer.from(v.toString(), 'hex'));
    case 'BSONSymbol':
      return put(15, stringBytes(String(v['value'])));
    case 'Code':
      return put(60, stringBytes(String(v['code'])));
    case 'Timestamp':
      return put(47, int64((BigInt(v['high'] as number) << 32n) | BigInt((v['low'] as number) >>> 0)));
    case 'Binary': {
      const binary = value as { buffer: Uint8Array; sub_type: number };
      return put(
        30,
        Buffer.concat([int32(binary.buffer.length), Buffer.from([binary.sub_type]), binary.buffer]),
      );
    }
    case 'BSONRegExp': {
      const regex = value as { pattern: string; options: string };
      return put(50, Buffer.from(`${regex.pattern}\0${regex.options}\0`, 'utf8'));
    }
    case 'MinKey':
      return put(-1, Buffer.alloc(0));
    case 'MaxKey':
      return put(127, Buffer.alloc(0));
    default:
      // BSON undefined (canonical type 0, no value bytes); code with scope and DBPointer are not
      // hashed as MongoDB hashes them.
      return put(0, Buffer.alloc(0));
  }
}

/**
 * The hashed index key of `value`, as a long: what a hashed index on a field holding `value` stores
 * (missing or `undefined` hashes as null). Under `collation`, a string is hashed as its collation key,
 * as MongoDB hashes the collation comparison key (expression_keys_private.cpp getHashKeys), so strings
 * equal under the collation hash alike; plume's keys are not ICU's, so such hashes differ from MongoDB's
 * (those of other values are MongoDB's). Throws nothing.
 */
export function hashedIndexKey(value: unknown, collation?: Collation): Long {
  const hash = createHash('md5');
  // The seed, 0 for every hashed index (BSONElementHasher::DEFAULT_HASH_SEED).
  hash.update(int32(0));
  hashValue(hash, value, collation);
  return Long.fromBigInt(hash.digest().readBigInt64LE(0));
}

/** `$toHashedIndexKey`, to register over mingo's. */
export const hashedIndexKeyExpression: Record<string, ExpressionOp> = {
  // The operand is one expression even in a list: `[x]` hashes the array.
  $toHashedIndexKey: (obj, expr, options) => hashedIndexKey(evalExpr(obj, expr, options)),
};
