/**
 * The shape of an update's `$v: 2` delta as MongoDB 7.0 logs it in the oplog (doc_diff: a document
 * level holds `u` updated, `i` inserted and `d` deleted fields and `s<field>` sub-diffs; an array level
 * holds `a: true`, `l` a new (shorter) size, `u<index>` new elements and `s<index>` sub-diffs). Change
 * events are read from it (change-update-description.ts); update-delta.ts builds it for operator
 * updates, update-delta-pipeline.ts for pipeline updates.
 */
import { bsonTypeName, isPlainObject, keyOf } from './values.js';

/** A sub-diff of a document: the sections in the order MongoDB's change stream parser reads them. */
export interface DocDelta {
  kind: 'doc';
  /** `u`: fields given a new value. */
  updates: [string, unknown][];
  /** `i`: fields created. */
  inserts: [string, unknown][];
  /** `d`: fields removed. */
  deletes: string[];
  /** `s<field>`: fields changed inside. */
  subs: [string, Delta][];
}

/** A sub-diff of an array: a new size when it was cut short, then entries by ascending index. */
export interface ArrayDelta {
  kind: 'array';
  newSize?: number;
  entries: [number, { value: unknown } | { sub: Delta }][];
}

/** A sub-diff of either kind. */
export type Delta = DocDelta | ArrayDelta;

/** A document sub-diff with nothing in it. */
export function emptyDocDelta(): DocDelta {
  return { kind: 'doc', updates: [], inserts: [], deletes: [], subs: [] };
}

/** True when a sub-diff records nothing. */
export function isEmptyDelta(delta: Delta): boolean {
  if (delta.kind === 'array') return delta.newSize === undefined && delta.entries.length === 0;
  return delta.updates.length + delta.inserts.length + delta.deletes.length + delta.subs.length === 0;
}

/**
 * MongoDB's `binaryEqual`, as far as the engine's values tell it: same BSON types, same values, and
 * embedded documents with the same fields in the same order (unlike `keyOf`, `1` and `1.0` differ).
 */
export function sameBson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => sameBson(v, b[i]));
  }
  if (isPlainObject(a) || isPlainObject(b)) {
    if (!isPlainObject(a) || !isPlainObject(b)) return false;
    const keys = Object.keys(a);
    const other = Object.keys(b);
    if (keys.length !== other.length) return false;
    return keys.every((k, i) => other[i] === k && sameBson(a[k], b[k]));
  }
  return (
    bsonTypeName(a) === bsonTypeName(b) && keyOf(a) === keyOf(b) && Object.is(a, -0) === Object.is(b, -0)
  );
}

/** 'doc' or 'array' for the values a diff descends into; undefined for any other value. */
export function containerKind(value: unknown): 'doc' | 'array' | undefined {
  if (Array.isArray(value)) return 'array';
  return isPlainObject(value) ? 'doc' : undefined;
}
