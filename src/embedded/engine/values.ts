/**
 * Value helpers shared by the engine: BSON type names, canonical keys for maps, cloning.
 * Stored documents are treated as immutable: writes replace whole documents, never mutate them in place.
 */
import type { Collation } from './collation.js';
import { collationKey } from './collation.js';
import { decimalKey } from './decimal.js';

/** A stored document. */
export type Doc = Record<string, unknown>;

/** The `_bsontype` tag bson classes carry, if any. */
export function bsonTag(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return typeof tag === 'string' ? tag : undefined;
}

/** True for plain (embedded) documents: objects that are neither arrays, dates, regexes nor bson values. */
export function isPlainObject(value: unknown): value is Doc {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value) || value instanceof Date || value instanceof RegExp) return false;
  if (bsonTag(value) !== undefined) return false;
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return false;
  return true;
}

/** The BSON type alias (as `$type` reports it) of a value. */
export function bsonTypeName(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      // The encoder writes -0 as a double (an int has no negative zero), as MongoDB types it.
      return Number.isInteger(value) && value >= -2147483648 && value <= 2147483647 && !Object.is(value, -0)
        ? 'int'
        : 'double';
    case 'bigint':
      return 'long';
    default:
      break;
  }
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  if (value instanceof RegExp) return 'regex';
  switch (bsonTag(value)) {
    case 'ObjectId':
      return 'objectId';
    case 'Binary':
      return 'binData';
    case 'Long':
      return 'long';
    case 'Timestamp':
      return 'timestamp';
    case 'Decimal128':
      return 'decimal';
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
    case 'BSONRegExp':
      return 'regex';
    case 'Code':
      return 'javascript';
    case 'MinKey':
      return 'minKey';
    case 'MaxKey':
      return 'maxKey';
    case 'BSONSymbol':
      return 'symbol';
    case 'DBRef':
      return 'object';
    default:
      return 'object';
  }
}

/** `$type` numeric codes → aliases. */
export const TYPE_NUMBERS: Record<number, string> = {
  1: 'double',
  2: 'string',
  3: 'object',
  4: 'array',
  5: 'binData',
  6: 'undefined',
  7: 'objectId',
  8: 'bool',
  9: 'date',
  10: 'null',
  11: 'regex',
  13: 'javascript',
  14: 'symbol',
  16: 'int',
  17: 'timestamp',
  18: 'long',
  19: 'decimal',
  [-1]: 'minKey',
  127: 'maxKey',
};

const KNOWN_ALIASES = new Set([...Object.values(TYPE_NUMBERS), 'number']);

/** Normalizes a `$type` argument (alias or number) to an alias; undefined when MongoDB would reject it. */
export function typeAlias(spec: unknown): string | undefined {
  if (typeof spec === 'number') return TYPE_NUMBERS[spec];
  if (typeof spec === 'string' && KNOWN_ALIASES.has(spec)) return spec;
  return undefined;
}

/** True when `value` has BSON type `alias` (`'number'` covers every numeric type). */
export function hasType(value: unknown, alias: string): boolean {
  const name = bsonTypeName(value);
  if (alias === 'number') return name === 'int' || name === 'double' || name === 'long' || name === 'decimal';
  return name === alias;
}

/**
 * A canonical string for a value, equal for values MongoDB considers equal (numbers of any width compare
 * by value). Strings go through `collation` when given. Used as the key of the `_id` map and of index maps.
 */
export function keyOf(value: unknown, collation?: Collation): string {
  if (value === undefined || value === null) return 'z';
  switch (typeof value) {
    case 'string':
      return 's' + (collation ? collationKey(value, collation) : value);
    case 'number':
      return 'n' + (Object.is(value, -0) ? '0' : String(value));
    case 'boolean':
      return value ? 'bt' : 'bf';
    case 'bigint':
      return 'n' + value.toString();
    default:
      break;
  }
  if (Array.isArray(value)) return '[' + value.map((v) => keyOf(v, collation)).join(',') + ']';
  if (value instanceof Date) return 'd' + String(value.getTime());
  if (value instanceof RegExp) return 'r' + value.source + '/' + value.flags;
  const tag = bsonTag(value);
  if (tag === 'ObjectId') return 'o' + (value as { toHexString(): string }).toHexString();
  if (tag === 'Decimal128') return 'n' + decimalKey((value as { toString(): string }).toString());
  if (tag === 'Long' || tag === 'Int32' || tag === 'Double') {
    return 'n' + (value as { toString(): string }).toString();
  }
  if (tag === 'Binary') {
    const b = value as { sub_type: number; buffer: Uint8Array };
    return 'x' + String(b.sub_type) + ':' + Buffer.from(b.buffer).toString('hex');
  }
  if (tag !== undefined) return tag + ':' + JSON.stringify(value);
  const obj = value as Doc;
  return (
    '{' +
    Object.keys(obj)
      .map((k) => JSON.stringify(k) + ':' + keyOf(obj[k], collation))
      .join(',') +
    '}'
  );
}

/**
 * One of each value by MongoDB's equality (`keyOf`, strings under `collation`), keyed by `keyOf`, the
 * first occurrence kept, in the order they first appear.
 */
export function distinctValues(values: readonly unknown[], collation?: Collation): Map<string, unknown> {
  const set = new Map<string, unknown>();
  for (const value of values) {
    const key = keyOf(value, collation);
    if (!set.has(key)) set.set(key, value);
  }
  return set;
}

/**
 * `items` split by the value `valueOf` gives each, values equal by MongoDB's equality (`keyOf`, strings
 * under `collation`) in one partition; partitions in the order their first item appears, each with the
 * value of that first item.
 */
export function partitionByValue<T>(
  items: readonly T[],
  valueOf: (item: T, index: number) => unknown,
  collation?: Collation,
): { value: unknown; items: T[] }[] {
  const partitions = new Map<string, { value: unknown; items: T[] }>();
  items.forEach((item, index) => {
    const value = valueOf(item, index);
    const key = keyOf(value, collation);
    const partition = partitions.get(key);
    if (partition) partition.items.push(item);
    else partitions.set(key, { value, items: [item] });
  });
  return [...partitions.values()];
}

/**
 * Deep copy of `value` with `copyOf` copying its parts: plain objects and arrays are copied, Dates
 * re-created, bson values shared.
 */
function copyWith<T>(value: T, copyOf: (part: unknown) => unknown): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyOf) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (!isPlainObject(value)) return value;
  const out: Doc = {};
  for (const key of Object.keys(value)) setOwn(out, key, copyOf((value as Doc)[key]));
  return out as T;
}

/**
 * Deep copy of a document: plain objects and arrays are copied, Dates re-created, bson values shared.
 * A part the document holds twice is copied twice, so the copy may be changed in place (an update, a
 * stored document) without one change showing in two places.
 */
export function cloneValue<T>(value: T): T {
  return copyWith(value, cloneValue);
}

/**
 * Containers with at least this many elements or fields are copied once by {@link sharingCopier}
 * however many values hold them. A smaller one is copied for each holder, which costs little and
 * spares the lookup that made copying an ordinary result twice as slow.
 */
const SHARED_MIN_ENTRIES = 16;

/**
 * A deep copier for values that share their parts (a whole-partition `$setWindowFields` output is one
 * array held by every document of the partition): each distinct array or document of at least
 * {@link SHARED_MIN_ENTRIES} entries it meets, across all the values it copies, is copied once, so the
 * copies share such parts as the originals did and take about the memory the originals take, where
 * {@link cloneValue} would copy a part once per holder (n documents holding one n-element array: n²
 * values). The copies must not be changed in place: copy a value to be stored or updated with
 * {@link cloneValue}.
 */
export function sharingCopier(): <T>(value: T) => T {
  const copies = new Map<object, unknown>();
  const copy = <T>(value: T): T => {
    if (value === null || typeof value !== 'object') return value;
    const entries = Array.isArray(value)
      ? value.length
      : isPlainObject(value)
        ? Object.keys(value).length
        : 0;
    if (entries < SHARED_MIN_ENTRIES) return copyWith(value, copy);
    const known = copies.get(value);
    if (known !== undefined) return known as T;
    const made = copyWith(value, copy);
    copies.set(value, made);
    return made;
  };
  return copy;
}

/**
 * `doc[key] = value` that stores a field named `__proto__` as an own field, as BSON decodes it and
 * MongoDB stores it; plain assignment would set the object's prototype and drop the field.
 */
export function setOwn(doc: Doc, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(doc, key, { value, enumerable: true, writable: true, configurable: true });
  } else doc[key] = value;
}

/** Returns `doc` with `_id` as its first field (a new object only when needed). */
export function idFirst(doc: Doc): Doc {
  const keys = Object.keys(doc);
  if (keys[0] === '_id' || !('_id' in doc)) return doc;
  const out: Doc = { _id: doc['_id'] };
  for (const key of keys) if (key !== '_id') setOwn(out, key, doc[key]);
  return out;
}

/** Reads a dotted path without array traversal (`a.0.b` indexes into arrays). */
export function getPath(doc: unknown, path: string): unknown {
  let cur: unknown = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Doc)[part];
  }
  return cur;
}
