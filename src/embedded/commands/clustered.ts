/** The `_id` index of a collection, clustered (`clusteredIndex` create option) or not. */
import { describeCollation } from '../engine/collation.js';
import type { Collection } from '../engine/collection.js';
import { isPlainObject, keyOf } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The `_id` index of an ordinary collection, as listIndexes and listCollections report it. */
export const ID_INDEX = { v: 2, key: { _id: 1 }, name: '_id_' };

/**
 * The `_id` index as listIndexes and listCollections (`idIndex`) report it: clustered collections say
 * so (they have no separate one); on a collection with a default collation the index carries it, as
 * MongoDB builds the spec (index_catalog_impl.cpp getDefaultIdIndexSpec).
 */
export function idIndex(coll: Collection): Doc {
  const clustered = coll.options['clusteredIndex'];
  if (isPlainObject(clustered)) return { ...clustered, clustered: true };
  const collation = coll.options.collation;
  return collation ? { ...ID_INDEX, collation: describeCollation(collation) } : ID_INDEX;
}

/** A `clusteredIndex` create option in the form listCollections reports. */
export function clusteredIndexOption(raw: unknown): Doc {
  if (!isPlainObject(raw) || keyOf(raw['key']) !== keyOf({ _id: 1 }) || raw['unique'] !== true)
    throw new CommandError(
      ErrorCodes.InvalidIndexSpecificationOption,
      "The 'clusteredIndex' option must be { key: { _id: 1 }, unique: true } (with an optional name)",
    );
  return {
    v: 2,
    key: { _id: 1 },
    name: typeof raw['name'] === 'string' ? raw['name'] : '_id_',
    unique: true,
  };
}
