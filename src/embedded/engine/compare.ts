/**
 * MongoDB's comparison order for BSON values, as sorts and `$min`/`$max` use it
 * (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/): first by type
 * (MinKey, null and missing, numbers, strings, objects, arrays, binary data, ObjectId, booleans, dates,
 * timestamps, regular expressions, MaxKey), then by value. Numbers of every type compare by value, int64
 * exactly; strings compare under the collation when there is one, by code unit otherwise.
 */
import type { Collation } from './collation.js';
import { compareStrings } from './collation.js';
import { bsonTag, isPlainObject } from './values.js';

/** The type rank of MinKey and MaxKey, which compare with values of every type in queries. */
export const MIN_KEY_RANK = 1;
export const MAX_KEY_RANK = 13;

/** A type's place in the comparison order (1 MinKey … 13 MaxKey; every number type is 3). */
export function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 2;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
    default:
      break;
  }
  if (Array.isArray(value)) return 6;
  if (value instanceof Date) return 10;
  if (value instanceof RegExp) return 12;
  switch (bsonTag(value)) {
    case 'MinKey':
      return MIN_KEY_RANK;
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return 3;
    case 'BSONSymbol':
      return 4;
    case 'Binary':
      return 7;
    case 'ObjectId':
      return 8;
    case 'Timestamp':
      return 11;
    case 'BSONRegExp':
      return 12;
    case 'MaxKey':
      return MAX_KEY_RANK;
    default:
      return 5;
  }
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** A number of any BSON type as a JS number or, for int64 beyond ±2^53, a bigint (exact). */
function numeric(value: unknown): number | bigint {
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  const text = String(value);
  if (bsonTag(value) === 'Long') {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : BigInt(text);
  }
  return Number(text);
}

function compareNumbers(a: number | bigint, b: number | bigint): number {
  const aNaN = typeof a === 'number' && Number.isNaN(a);
  const bNaN = typeof b === 'number' && Number.isNaN(b);
  if (aNaN || bNaN) return aNaN === bNaN ? 0 : aNaN ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return sign(a.length - b.length);
}

/**
 * Compares two BSON values in MongoDB's order.
 * @returns a negative number, 0 or a positive number, as `Array.prototype.sort` expects.
 */
export function compareBson(a: unknown, b: unknown, collation?: Collation): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 3:
      return compareNumbers(numeric(a), numeric(b));
    case 4: {
      const x = String(a);
      const y = String(b);
      return collation ? sign(compareStrings(x, y, collation)) : compareText(x, y);
    }
    case 5:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>, collation);
    case 6: {
      const x = a as unknown[];
      const y = b as unknown[];
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        const c = compareBson(x[i], y[i], collation);
        if (c !== 0) return c;
      }
      return sign(x.length - y.length);
    }
    case 7: {
      const x = a as { sub_type: number; buffer: Uint8Array };
      const y = b as { sub_type: number; buffer: Uint8Array };
      if (x.buffer.length !== y.buffer.length) return sign(x.buffer.length - y.buffer.length);
      if (x.sub_type !== y.sub_type) return sign(x.sub_type - y.sub_type);
      return compareBytes(x.buffer, y.buffer);
    }
    case 8:
      return compareText(
        (a as { toHexString(): string }).toHexString(),
        (b as { toHexString(): string }).toHexString(),
      );
    case 9:
      return sign(Number(a) - Number(b));
    case 10:
      return sign((a as Date).getTime() - (b as Date).getTime());
    case 11: {
      const x = a as { t: number; i: number };
      const y = b as { t: number; i: number };
      return x.t !== y.t ? sign(x.t - y.t) : sign(x.i - y.i);
    }
    case 12: {
      const [xs, xf] = regexParts(a);
      const [ys, yf] = regexParts(b);
      return compareText(xs, ys) || compareText(xf, yf);
    }
    default:
      return 0;
  }
}

function regexParts(value: unknown): [string, string] {
  if (value instanceof RegExp) return [value.source, value.flags];
  const r = value as { pattern: string; options: string };
  return [r.pattern, r.options];
}

/** Embedded documents compare field by field: the value's type, then the field name, then the value. */
function compareObjects(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  collation: Collation | undefined,
): number {
  if (!isPlainObject(a) || !isPlainObject(b)) return 0;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const va = a[ka[i]!];
    const vb = b[kb[i]!];
    const byType = typeRank(va) - typeRank(vb);
    if (byType !== 0) return sign(byType);
    const byName = compareText(ka[i]!, kb[i]!);
    if (byName !== 0) return byName;
    const byValue = compareBson(va, vb, collation);
    if (byValue !== 0) return byValue;
  }
  return sign(ka.length - kb.length);
}

/** The sort key of an empty array: it sorts before null and missing, in both directions' terms. */
const EMPTY_ARRAY = Symbol('empty array');

/**
 * The value a document sorts by, for a field holding `value`: an array sorts by its smallest element in
 * an ascending sort and by its largest in a descending one; an empty array before null.
 */
export function sortKey(value: unknown, descending: boolean, collation?: Collation): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 0) return EMPTY_ARRAY;
  let best: unknown = value[0];
  for (let i = 1; i < value.length; i++) {
    const c = compareBson(value[i], best, collation);
    if (descending ? c > 0 : c < 0) best = value[i];
  }
  return best;
}

/** {@link compareBson} for sort keys (see {@link sortKey}). */
export function compareSortKeys(a: unknown, b: unknown, collation?: Collation): number {
  if (a === EMPTY_ARRAY || b === EMPTY_ARRAY) {
    // Between MinKey (1) and null (2).
    return sign((a === EMPTY_ARRAY ? 1.5 : typeRank(a)) - (b === EMPTY_ARRAY ? 1.5 : typeRank(b)));
  }
  return compareBson(a, b, collation);
}
