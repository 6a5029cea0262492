/**
 * find's `min` and `max`: the inclusive lower and the exclusive upper bound of a scan of the hinted
 * index, as MongoDB 7.0 plans them (src/mongo/db/query/query_planner.cpp; manual, cursor.min(): "the
 * inclusive lower bound for a specific index"). Either needs a hint (51173 "When using min()/max() a
 * hint of which index to use must be provided"), except for an `_id` equality, which the manual says
 * needs none and which is then read by `_id`; each must name every field of the hinted index's key
 * pattern, in its order, and under the query's collation when it holds a string, document or array
 * (51174 "The index chosen is not compatible with min/max"); min must come before max in index order
 * (51175). The scan reads the documents with a key in the bounds (a multikey document once), in index
 * order, and the filter still applies. A hashed field's bound is compared with the hash it holds.
 */
import { CollectionState } from './collection.js';
import type { Collation } from './collation.js';
import { sameCollation } from './collation.js';
import { compareKeys, indexCollation, inIndexOrder, keyPattern } from './index-order.js';
import type { KeyFilter, ScanIndex } from './index-order.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

/** The bounds of a `min`/`max` scan, checked against the index they bound. */
export interface IndexBounds {
  index: ScanIndex;
  min: unknown[] | undefined;
  max: unknown[] | undefined;
}

const present = (bound: unknown): bound is Doc => isPlainObject(bound) && Object.keys(bound).length > 0;

/** True for a value compared by collation: a string, or a document or array that may hold one. */
const collatable = (value: unknown): boolean =>
  typeof value === 'string' || isPlainObject(value) || Array.isArray(value);

/**
 * The bounds of a find's `min`/`max` over its hinted index (`hinted`, or the `_id` index when `hint`
 * names it), or undefined when it has neither (or only empty documents) or `idLookup` (the filter is an
 * `_id` equality) and no hint.
 * @throws CommandError 51173, 51174 or 51175 (see the file comment).
 */
export function indexBounds(
  rawMin: unknown,
  rawMax: unknown,
  hint: ScanIndex | undefined,
  idLookup: boolean,
  collation: Collation | undefined,
): IndexBounds | undefined {
  if (!present(rawMin) && !present(rawMax)) return undefined;
  if (!hint) {
    if (idLookup) return undefined;
    throw new CommandError(51173, 'When using min()/max() a hint of which index to use must be provided');
  }
  const pattern = keyPattern(hint);
  const collationOfIndex = indexCollation(hint);
  const values = (bound: unknown): unknown[] | undefined => {
    if (!present(bound)) return undefined;
    const fields = Object.keys(bound);
    const fits =
      fields.length === pattern.length &&
      fields.every((field, i) => field === pattern[i]![0]) &&
      (sameCollation(collation, collationOfIndex) || !Object.values(bound).some(collatable));
    if (!fits) throw new CommandError(51174, 'The index chosen is not compatible with min/max');
    return Object.values(bound);
  };
  const min = values(rawMin);
  const max = values(rawMax);
  if (min && max && compareKeys(pattern, min, max, collationOfIndex) >= 0)
    throw new CommandError(
      51175,
      'The value provided for min() does not come before the value provided for max() in the hinted index',
    );
  return { index: hint, min, max };
}

/** The keys within `bounds`: from min (inclusive) up to max (exclusive), in index order. */
export function withinBounds(bounds: IndexBounds): KeyFilter {
  const { index, min, max } = bounds;
  const pattern = keyPattern(index);
  const collation = indexCollation(index);
  return ({ held }) =>
    (!min || compareKeys(pattern, held, min, collation) >= 0) &&
    (!max || compareKeys(pattern, held, max, collation) < 0);
}

/**
 * `state` reduced to the documents with a key within `bounds`, in index order (by the first such key),
 * as the bounded index scan reads them (index-order.ts). Throws nothing.
 */
export function boundedState(state: CollectionState, bounds: IndexBounds): CollectionState {
  const { index } = bounds;
  const within = withinBounds(bounds);
  const found = inIndexOrder(
    state.docs,
    ([, doc]) => doc,
    ([idKey]) => state.records.of(idKey),
    index,
    within,
  );
  return new CollectionState(new Map(found), state.indexes, state.records);
}
