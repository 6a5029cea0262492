/**
 * The order an index scan meets documents in, as MongoDB 7.0's index scan stage reads keys: by key,
 * field by field in each field's direction of the key pattern (a hashed field by the hash it holds,
 * ascending; strings under the index's collation). A document with several keys (multikey) comes once,
 * at the first of its keys the scan reads, as the scan deduplicates by record id and keeps the first
 * (src/mongo/db/exec/index_scan.cpp, `shouldDedup`). min-max.ts bounds such a scan; a hinted find or
 * aggregate without a sort answers in this order (planner_access.cpp plans the hinted index's scan).
 */
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import type { Index } from './indexes.js';
import type { Doc } from './values.js';

/** The name of the `_id` index. */
export const ID_INDEX = '_id_';

/**
 * The `_id` index, which `Index` does not model (the documents map is keyed by `_id`). It holds its
 * strings under the collection's default collation, as the `_id` index inherits it (SERVER-26514).
 */
export interface IdIndex {
  readonly name: typeof ID_INDEX;
  readonly collation: Collation | undefined;
}

/** The `_id` index of a collection whose default collation is `collation`. */
export function idIndex(collation: Collation | undefined): IdIndex {
  return { name: ID_INDEX, collation };
}

/** An index a scan reads: a secondary index or the `_id` index. */
export type ScanIndex = Index | IdIndex;

/** True for the `_id` index. */
export function isIdIndex(index: ScanIndex): index is IdIndex {
  return !('spec' in index);
}

/** The fields of `index`'s key pattern, each with its direction (1 or -1; a hashed field ascends). */
export function keyPattern(index: ScanIndex): [string, number][] {
  if (isIdIndex(index)) return [['_id', 1]];
  return index.fields.map((field) => [field, Number(String(index.spec.key[field])) < 0 ? -1 : 1]);
}

/** The collation the index compares its string keys by. */
export function indexCollation(index: ScanIndex): Collation | undefined {
  return isIdIndex(index) ? index.collation : index.spec.collation;
}

/** A key a scan meets, as the document's values (`values`, what a filter sees) and as the values the
 * index holds (`held`: the hash for a hashed field). */
export interface ScanKey {
  values: unknown[];
  held: unknown[];
}

/** The keys the scan meets `doc` by. */
function scanKeys(index: ScanIndex, doc: Doc): ScanKey[] {
  if (isIdIndex(index)) return [{ values: [doc['_id']], held: [doc['_id']] }];
  return index.keysOf(doc).map((key) => ({
    values: key.values,
    held: key.values.map((value, i) => index.keyValue(i, value)),
  }));
}

/** Index order of two held keys: field by field, each in its direction. */
export function compareKeys(
  pattern: [string, number][],
  a: unknown[],
  b: unknown[],
  collation?: Collation,
): number {
  for (const [i, [, direction]] of pattern.entries()) {
    const order = compareBson(a[i], b[i], collation);
    if (order !== 0) return order * direction;
  }
  return 0;
}

/** Which of a document's keys a scan reads, given both forms of the key (see `ScanKey`). */
export type KeyFilter = (key: ScanKey) => boolean;

/**
 * The key of `doc` a scan of `index` meets first, going forwards (`direction` 1) or backwards (-1):
 * the first in that order of the keys `reads` accepts, as the scan deduplicates a multikey document by
 * record id and keeps its first entry (index_scan.cpp). When `reads` accepts none, undefined, unless
 * `keepAll`, which takes the first of all its keys: a document the filter matched is in the scan's
 * bounds, though the engine's key test may be narrower than MongoDB's bounds; a single key is where
 * the scan meets a matched document, whatever its bounds. Undefined for a document without keys.
 * Throws nothing (the keys were generated when the document was stored).
 */
export function firstScanKey(
  index: ScanIndex,
  doc: Doc,
  reads: KeyFilter | undefined,
  keepAll: boolean,
  direction: 1 | -1 = 1,
): ScanKey | undefined {
  const keys = scanKeys(index, doc);
  let read = reads && !(keepAll && keys.length === 1) ? keys.filter(reads) : keys;
  if (read.length === 0 && keepAll) read = keys;
  if (read.length <= 1) return read[0];
  const pattern = keyPattern(index);
  const collation = indexCollation(index);
  return read.reduce((a, b) => (compareKeys(pattern, b.held, a.held, collation) * direction < 0 ? b : a));
}

/**
 * `entries` in the order a scan of `index` meets their documents (`docOf`), each at the first of its
 * keys `reads` accepts (`firstScanKey`, which also says what `keepAll` keeps); equal keys in the order
 * of their record ids (`recordOf`), as the index orders entries with equal keys by RecordId (MongoDB's
 * index keys end with the record id). Throws nothing.
 */
export function inIndexOrder<T>(
  entries: Iterable<T>,
  docOf: (entry: T) => Doc,
  recordOf: (entry: T) => number,
  index: ScanIndex,
  reads: KeyFilter | undefined,
  keepAll = false,
): T[] {
  const pattern = keyPattern(index);
  const collation = indexCollation(index);
  const found: [unknown[], number, T][] = [];
  for (const entry of entries) {
    const first = firstScanKey(index, docOf(entry), reads, keepAll);
    if (first) found.push([first.held, recordOf(entry), entry]);
  }
  found.sort(([a, ra], [b, rb]) => compareKeys(pattern, a, b, collation) || ra - rb);
  return found.map(([, , entry]) => entry);
}
