import { ObjectId } from 'mongodb';
import { describeValue, isPlainObject } from '../adapter/index.js';
import type { Query } from '../core/index.js';
import { BadRequest } from '../errors/index.js';

const HEX_ID = /^[0-9a-fA-F]{24}$/;

/** Operators whose values are compared with the id, so they need the id's stored type. */
const COMPARISON_OPERATORS = new Set(['$eq', '$ne', '$lt', '$lte', '$gt', '$gte']);
const LIST_OPERATORS = new Set(['$in', '$nin']);

/** A constructor of driver `ObjectId`s, e.g. `ObjectId` from `mongodb` (any major version). */
export type ObjectIdClass = new (hex?: string) => ObjectId;

/** True for a driver `ObjectId`, also one from another copy of `bson`. */
export function isObjectId(value: unknown): value is ObjectId {
  return (
    value instanceof ObjectId ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { _bsontype?: unknown })._bsontype === 'ObjectId')
  );
}

/**
 * Converts an id for the `_id` field (spec: "Object ids"): a 24-character hex string becomes an
 * `ObjectId`; an `ObjectId` passes. Anything else (12-character strings, numbers, objects, arrays,
 * longer strings) throws `BadRequest` (400) naming the id. `Class` makes the `ObjectId`s (default:
 * the one of plume's `mongodb`).
 */
export function toObjectId(id: unknown, Class: ObjectIdClass = ObjectId): ObjectId {
  if (id instanceof Class) return id;
  // An ObjectId from another bson major version would be refused by the driver's serializer.
  if (isObjectId(id)) return new Class(id.toHexString());
  if (typeof id === 'string' && HEX_ID.test(id)) return new Class(id);
  throw new BadRequest(`Invalid id '${describeValue(id)}': expected a 24-character hex ObjectId`);
}

/**
 * Checks an id given to a method when it is not converted (custom id field or `disableObjectify`):
 * strings, numbers and `ObjectId`s pass; anything else throws `BadRequest` (400) naming it.
 */
export function checkPlainId(id: unknown): string | number | ObjectId {
  if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) || isObjectId(id)) return id;
  throw new BadRequest(`Invalid id '${describeValue(id)}'`);
}

function convertIdValue(value: unknown, Class: ObjectIdClass): unknown {
  if (!isPlainObject(value)) return toObjectId(value, Class);
  const converted: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (COMPARISON_OPERATORS.has(key)) converted[key] = item === null ? null : toObjectId(item, Class);
    else if (LIST_OPERATORS.has(key) && Array.isArray(item))
      converted[key] = item.map((entry) => toObjectId(entry, Class));
    else converted[key] = item;
  }
  return converted;
}

/**
 * Converts the values of `field` in a query to `ObjectId`s: direct values and the values of
 * `$eq $ne $lt $lte $gt $gte`, the items of `$in`/`$nin`, at the top level and inside `$or`/`$and`
 * (spec: "Object ids", `resolveQueryObjectId`). Returns a new query; throws `BadRequest` (400)
 * naming an id that is not a valid ObjectId.
 */
export function objectifyQuery(query: Query, field: string, Class: ObjectIdClass = ObjectId): Query {
  let changed: Query | undefined;
  for (const [key, value] of Object.entries(query)) {
    let next = value;
    if (key === field && value !== null && value !== undefined) next = convertIdValue(value, Class);
    else if ((key === '$or' || key === '$and') && Array.isArray(value)) {
      next = value.map((entry: unknown) =>
        isPlainObject(entry) ? objectifyQuery(entry, field, Class) : entry,
      );
    }
    if (next !== value) {
      changed ??= { ...query };
      changed[key] = next;
    }
  }
  return changed ?? query;
}
