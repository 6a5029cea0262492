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
 * document with several keys (multikey) answers the first in index order among those the filter's
 * equalities on the key's fields select, as a scan of those equalities' bounds meets it first. Strings
 * under a collation are answered as stored (MongoDB answers their collation keys).
 */
import type { CollectionState } from './collection.js';
import type { Collation } from './collation.js';
import { compareKeys, ID_INDEX, keyPattern } from './index-order.js';
import type { IndexKey } from './index-keys.js';
import { scalarEquality } from './indexes.js';
import type { Index } from './indexes.js';
import { splitText } from './query.js';
import { readPlan } from './read-plan.js';
import { isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';

export { ID_INDEX };

/** The index a returned key comes from: a secondary index, the `_id` index, or none (a scan). */
export type KeyIndex = Index | typeof ID_INDEX | undefined;

/** True for a hint naming the `_id` index (by name or key pattern). */
export function namesIdIndex(hint: unknown): boolean {
  return hint === ID_INDEX || (isPlainObject(hint) && keyOf(hint) === keyOf({ _id: 1 }));
}

/**
 * The index a find reads: `hinted` (checkHint's secondary index), the `_id` index for a hint naming it,
 * none for a `$natural` hint, else the index the read plan of prepared filter `filter` uses. Throws
 * nothing (the hint and the filter were checked).
 */
export function keyIndex(
  state: CollectionState,
  hint: unknown,
  hinted: Index | undefined,
  filter: Doc,
  collation: Collation | undefined,
): KeyIndex {
  if (hinted) return hinted;
  if (namesIdIndex(hint)) return ID_INDEX;
  if (isPlainObject(hint) && '$natural' in hint) return undefined;
  const { rest, text } = splitText(filter);
  if (text) return undefined;
  const plan = readPlan(state, rest, collation);
  if (!plan) return undefined;
  return 'index' in plan ? plan.index : ID_INDEX;
}

/** The key document of `doc` in `index`, or `{}` when it holds none. */
export function returnedKey(index: KeyIndex, doc: Doc, filter: Doc): Doc {
  if (index === undefined) return {};
  if (index === ID_INDEX) return { _id: doc['_id'] };
  const keys = index.text ? [] : index.keysOf(doc);
  if (keys.length === 0) return {};
  const key = keys.length === 1 ? keys[0]! : firstKey(index, keys, filter);
  return Object.fromEntries(index.fields.map((field, i) => [field, index.keyValue(i, key.values[i])]));
}

/** The first of a multikey document's keys in index order, among those the filter's equalities select. */
function firstKey(index: Index, keys: IndexKey[], filter: Doc): IndexKey {
  const selected = keys.filter((key) =>
    index.fields.every((field, i) => {
      const values = field in filter ? scalarEquality(filter[field]) : undefined;
      const part = index.keyPart(i, key.values[i]);
      return !values || values.some((v) => index.keyPart(i, v) === part);
    }),
  );
  const pool = selected.length > 0 ? selected : keys;
  const pattern = keyPattern(index);
  const held = (key: IndexKey) => key.values.map((value, i) => index.keyValue(i, value));
  const before = (a: IndexKey, b: IndexKey) =>
    compareKeys(pattern, held(a), held(b), index.spec.collation) < 0;
  return pool.reduce((first, key) => (before(key, first) ? key : first));
}
