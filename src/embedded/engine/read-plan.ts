/**
 * How a query reads its candidates: the `_id` map for an `_id` equality, an index for equalities on
 * its fields (indexes.ts `lookupIndex`), or a scan. read.ts reads the documents this way, explain names
 * the stage after it, and find's `returnKey` answers the keys of the index it names.
 */
import type { CollectionState } from './collection.js';
import type { Collation } from './collation.js';
import { lookupIndex } from './indexes.js';
import type { IndexLookup } from './indexes.js';
import { bsonTag, isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** The `_id` values an `_id` lookup reads, or the index lookup that serves the filter. */
export type ReadPlan = { idValues: unknown[] } | IndexLookup;

function idEquality(value: unknown): unknown[] | undefined {
  const scalar = (v: unknown): boolean =>
    v !== undefined &&
    !(v instanceof RegExp) &&
    (!isPlainObject(v) || !Object.keys(v).some((k) => k.startsWith('$'))) &&
    bsonTag(v) !== 'BSONRegExp';
  if (scalar(value)) return [value];
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$eq' && scalar(value['$eq'])) return [value['$eq']];
    if (keys.length === 1 && keys[0] === '$in' && Array.isArray(value['$in']) && value['$in'].every(scalar))
      return value['$in'] as unknown[];
  }
  return undefined;
}

/** The lookup that serves the filter's own fields, or undefined for a scan. */
function directPlan(
  state: CollectionState,
  filter: Doc,
  collation: Collation | undefined,
): ReadPlan | undefined {
  if ('_id' in filter) {
    const ids = idEquality(filter['_id']);
    const stringIds = ids?.some((v) => typeof v === 'string' || Array.isArray(v));
    if (ids && !(collation && stringIds)) return ids.some(Array.isArray) ? undefined : { idValues: ids };
    // One value the `_id` index holds under the query's collation is read through it; an `$in` is
    // scanned, as its answer comes in natural order.
    const held = ids?.length === 1 && collation ? state.heldIdUnder(ids[0], collation) : undefined;
    if (held) return { idValues: held };
  }
  if (state.indexes.length === 0) return undefined;
  return lookupIndex(state.indexes, filter, collation);
}

/**
 * The lookup that reads the candidates of prepared filter `filter`, or undefined when it needs a scan.
 * Every entry of a top-level `$and` must match, so the lookup of one entry also holds every match (the
 * whole filter still runs on the candidates): `{ $and: [{ _id }, …] }` is read by `_id`, not by a scan.
 * Throws nothing.
 */
export function readPlan(
  state: CollectionState,
  filter: Doc,
  collation: Collation | undefined,
): ReadPlan | undefined {
  const direct = directPlan(state, filter, collation);
  if (direct || !Array.isArray(filter['$and'])) return direct;
  for (const entry of filter['$and'] as unknown[]) {
    const found = isPlainObject(entry) ? readPlan(state, entry, collation) : undefined;
    if (found) return found;
  }
  return undefined;
}
