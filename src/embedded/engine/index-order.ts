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

/** The `_id` index, which `Index` does not model. */
export const ID_INDEX = '_id_';

/** An index a scan reads: a secondary index or the `_id` index. */
export type ScanIndex = Index | typeof ID_INDEX;

/** The fields of `index`'s key pattern, each with its direction (1 or -1; a hashed field ascends). */
export function keyPattern(index: ScanIndex): [string, number][] {
  if (index === ID_INDEX) return [['_id', 1]];
  return index.fields.map((field) => [field, Number(String(index.spec.key[field])) < 0 ? -1 : 1]);
}

/** The collation the index compares its string keys by. */
export function indexCollation(index: ScanIndex): Collation | undefined {
  return index === ID_INDEX ? undefined : index.spec.collation;
}

/**
 * The keys the scan meets `doc` by, each as the document's values (`values`, what a filter sees) and
 * as the values the index holds (`held`: the hash for a hashed field).
 */
function scanKeys(index: ScanIndex, doc: Doc): { values: unknown[]; held: unknown[] }[] {
  if (index === ID_INDEX) return [{ values: [doc['_id']], held: [doc['_id']] }];
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

/** Which of a document's keys a scan reads, given both forms of the key (see `scanKeys`). */
export type KeyFilter = (key: { values: unknown[]; held: unknown[] }) => boolean;

/**
 * `entries` in the order a scan of `index` meets their documents (`docOf`), each at the first of its
 * keys `reads` accepts; an entry none of whose keys it accepts is dropped, unless `keepAll`, which
 * places it at its first key (a document the filter matched is in the scan's bounds, though the
 * engine's key test may be narrower than MongoDB's bounds). Stable: equal keys keep their input order,
 * as the index orders them by record id. Throws nothing (the keys were generated when the documents
 * were stored).
 */
export function inIndexOrder<T>(
  entries: Iterable<T>,
  docOf: (entry: T) => Doc,
  index: ScanIndex,
  reads: KeyFilter | undefined,
  keepAll = false,
): T[] {
  const pattern = keyPattern(index);
  const collation = indexCollation(index);
  const found: [unknown[], T][] = [];
  for (const entry of entries) {
    const keys = scanKeys(index, docOf(entry));
    // A single key is where the scan meets a matched document, whatever its bounds.
    let read = reads && !(keepAll && keys.length === 1) ? keys.filter(reads) : keys;
    if (read.length === 0 && keepAll) read = keys;
    if (read.length === 0) continue;
    const first = read.reduce((a, b) => (compareKeys(pattern, b.held, a.held, collation) < 0 ? b : a));
    found.push([first.held, entry]);
  }
  found.sort(([a], [b]) => compareKeys(pattern, a, b, collation));
  return found.map(([, entry]) => entry);
}
