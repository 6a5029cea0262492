/**
 * find's `returnKey`: each document replaced by the key of the index the query read it through, as
 * MongoDB answers it (manual, cursor.returnKey(): "Modifies the cursor to return index keys rather than
 * the documents … If the query does not use an index to perform the read operation, the cursor returns
 * empty documents"). The index read is the hint's; without a hint, the one read-plan.ts reads
 * candidates through (the `_id` index for an `_id` equality, an index serving equalities); a scan, a
 * `$natural` hint or a `$text` query answers `{}`.
 *
 * A key holds each field of the key pattern, named as the pattern names it: the document's value (null
 * when missing), the hash as a long for a hashed field (MongoDB's hashed indexes hold the hash). A
 * document with several keys (multikey) answers the key the index scan meets it at first (index_scan.cpp
 * keeps a document's first entry; return_key.cpp answers that entry's key): the first, in the scan's
 * direction, of the keys within the scan's bounds (min/max, else the filter's conditions on the key's
 * fields). Strings under a collation are answered as stored (MongoDB answers their collation keys).
 */
import type { CollectionState } from './collection.js';
import type { Collation } from './collation.js';
import { firstScanKey, ID_INDEX, isIdIndex, keyPattern } from './index-order.js';
import type { IdIndex, KeyFilter, ScanIndex } from './index-order.js';
import type { Index } from './indexes.js';
import { splitText } from './query.js';
import { readPlan } from './read-plan.js';
import { isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';

/** The index a returned key comes from: a secondary index, the `_id` index, or none (a scan). */
export type KeyIndex = ScanIndex | undefined;

/** True for a hint naming the `_id` index (by name or key pattern). */
export function namesIdIndex(hint: unknown): boolean {
  return hint === ID_INDEX || (isPlainObject(hint) && keyOf(hint) === keyOf({ _id: 1 }));
}

/**
 * The index a find reads: `hinted` (checkHint's secondary index), the collection's `_id` index (`id`)
 * for a hint naming it, none for a `$natural` hint, else the index the read plan of prepared filter
 * `filter` uses. Throws nothing (the hint and the filter were checked).
 */
export function keyIndex(
  state: CollectionState,
  hint: unknown,
  hinted: Index | undefined,
  id: IdIndex,
  filter: Doc,
  collation: Collation | undefined,
): KeyIndex {
  if (hinted) return hinted;
  if (namesIdIndex(hint)) return id;
  if (isPlainObject(hint) && '$natural' in hint) return undefined;
  const { rest, text } = splitText(filter);
  if (text) return undefined;
  const plan = readPlan(state, rest, collation);
  if (!plan) return undefined;
  return 'index' in plan ? plan.index : id;
}

/**
 * The direction a scan of `index` reads in for a find sorted by `sort` with prepared filter `filter`:
 * backwards (-1) when the index provides the sort reversed (its key pattern's first fields, each in the
 * opposite direction). Only a multikey index's direction changes which key answers, and MongoDB 7.0's
 * multikey index provides a sort only over [MinKey, MaxKey] bounds on its fields (query_solution.cpp,
 * confirmBoundsProvideSortComponentGivenMultikeyness): a filter on any of its fields means a forward
 * scan and a sort stage (the engine does not tell which paths are multikey). Throws nothing.
 */
export function scanDirection(index: KeyIndex, sort: Doc | undefined, filter: Doc): 1 | -1 {
  if (index === undefined || isIdIndex(index) || !index.multikey || !sort) return 1;
  const pattern = keyPattern(index);
  const order = Object.entries(sort);
  if (order.length === 0 || order.length > pattern.length) return 1;
  const reversed = order.every(([field, direction], i) => {
    const [name, ascending] = pattern[i]!;
    return name === field && Number(String(direction)) === -ascending;
  });
  return reversed && !index.fields.some((field) => field in filter) ? -1 : 1;
}

/**
 * The key document of `doc` in `index`, or `{}` when it holds none: the key the scan meets the document
 * at first (index-order.ts `firstScanKey`), among the keys `reads` accepts (the scan's bounds), going in
 * `direction`.
 */
export function returnedKey(index: KeyIndex, doc: Doc, reads: KeyFilter | undefined, direction: 1 | -1): Doc {
  if (index === undefined) return {};
  if (isIdIndex(index)) return { _id: doc['_id'] };
  if (index.text) return {};
  const key = firstScanKey(index, doc, reads, true, direction);
  if (!key) return {};
  return Object.fromEntries(index.fields.map((field, i) => [field, key.held[i]]));
}
