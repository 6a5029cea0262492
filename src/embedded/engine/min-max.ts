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
import { compareBson } from './compare.js';
import type { Index } from './indexes.js';
import { ID_INDEX } from './return-key.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

/** The bounds of a `min`/`max` scan, checked against the index they bound. */
export interface IndexBounds {
  index: Index | typeof ID_INDEX;
  min: unknown[] | undefined;
  max: unknown[] | undefined;
}

const present = (bound: unknown): bound is Doc => isPlainObject(bound) && Object.keys(bound).length > 0;

/** The fields of `index`'s key pattern, each with its direction (1 or -1; a hashed field ascends). */
function keyPattern(index: Index | typeof ID_INDEX): [string, number][] {
  if (index === ID_INDEX) return [['_id', 1]];
  return index.fields.map((field) => [field, Number(String(index.spec.key[field])) < 0 ? -1 : 1]);
}

/** The keys the scan meets `doc` by, each as the values the index holds. */
function heldKeys(index: Index | typeof ID_INDEX, doc: Doc): unknown[][] {
  if (index === ID_INDEX) return [[doc['_id']]];
  return index.keysOf(doc).map((key) => key.values.map((value, i) => index.keyValue(i, value)));
}

/** Index order of two keys: field by field, each in its direction. */
function compareKeys(pattern: [string, number][], a: unknown[], b: unknown[], collation?: Collation): number {
  for (const [i, [, direction]] of pattern.entries()) {
    const order = compareBson(a[i], b[i], collation);
    if (order !== 0) return order * direction;
  }
  return 0;
}

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
  hint: Index | typeof ID_INDEX | undefined,
  idLookup: boolean,
  collation: Collation | undefined,
): IndexBounds | undefined {
  if (!present(rawMin) && !present(rawMax)) return undefined;
  if (!hint) {
    if (idLookup) return undefined;
    throw new CommandError(51173, 'When using min()/max() a hint of which index to use must be provided');
  }
  const pattern = keyPattern(hint);
  const indexCollation = hint === ID_INDEX ? undefined : hint.spec.collation;
  const values = (bound: unknown): unknown[] | undefined => {
    if (!present(bound)) return undefined;
    const fields = Object.keys(bound);
    const fits =
      fields.length === pattern.length &&
      fields.every((field, i) => field === pattern[i]![0]) &&
      (sameCollation(collation, indexCollation) || !Object.values(bound).some(collatable));
    if (!fits) throw new CommandError(51174, 'The index chosen is not compatible with min/max');
    return Object.values(bound);
  };
  const min = values(rawMin);
  const max = values(rawMax);
  if (min && max && compareKeys(pattern, min, max, indexCollation) >= 0)
    throw new CommandError(
      51175,
      'The value provided for min() does not come before the value provided for max() in the hinted index',
    );
  return { index: hint, min, max };
}

/**
 * `state` reduced to the documents with a key within `bounds`, in index order (by the first such key),
 * as the bounded index scan reads them. Throws nothing (the keys were generated when the documents
 * were stored).
 */
export function boundedState(state: CollectionState, bounds: IndexBounds): CollectionState {
  const { index, min, max } = bounds;
  const pattern = keyPattern(index);
  const collation = index === ID_INDEX ? undefined : index.spec.collation;
  const within = (key: unknown[]): boolean =>
    (!min || compareKeys(pattern, key, min, collation) >= 0) &&
    (!max || compareKeys(pattern, key, max, collation) < 0);
  const found: [unknown[], string, Doc][] = [];
  for (const [idKey, doc] of state.docs) {
    const keys = heldKeys(index, doc).filter(within);
    if (keys.length === 0) continue;
    const first = keys.reduce((a, b) => (compareKeys(pattern, b, a, collation) < 0 ? b : a));
    found.push([first, idKey, doc]);
  }
  found.sort(([a], [b]) => compareKeys(pattern, a, b, collation));
  return new CollectionState(new Map(found.map(([, idKey, doc]) => [idKey, doc])), state.indexes);
}
