import { ObjectId } from 'mongodb';
import { BadRequest } from '../errors/index.js';
import { isObjectIdLike, isObjectIdString } from './object-id-keyword.js';

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function toObjectId(value: unknown): ObjectId {
  if (isObjectIdLike(value)) return value as ObjectId;
  if (isObjectIdString(value)) return new ObjectId(value);
  throw new BadRequest(`Invalid id '${describe(value)}': expected an ObjectId or 24 hexadecimal characters`);
}

/**
 * Converts an id to an `ObjectId` (spec: SEED.md "Object ids"). Use it as a property resolver
 * (`resolve({ userId: resolveObjectId })`) or call it with a value.
 *
 * Takes an `ObjectId` (returned as it is, also copies from another `bson` version) or a string of 24
 * hexadecimal characters; `undefined` stays `undefined` (so a resolver leaves a missing property missing).
 * @throws BadRequest (400) naming the value for anything else (other strings, numbers, `null`, objects).
 */
export function resolveObjectId(value: ObjectId | string): ObjectId;
export function resolveObjectId(value: unknown): ObjectId | undefined;
export function resolveObjectId(value: unknown): ObjectId | undefined {
  if (value === undefined) return undefined;
  return toObjectId(value);
}

/** Query operators whose values `resolveQueryObjectId` converts. */
const listOperators = ['$in', '$nin'] as const;

/**
 * Converts the id values of one query property to `ObjectId`s (spec: SEED.md "Object ids"):
 * a direct value (`{ userId: '…' }`) and the values inside `$in`, `$nin` (arrays) and `$ne`.
 * Other operators in the same object are kept as they are. Falsy values (`undefined`, `null`, `''`)
 * give `undefined`, so the property is dropped when used as a query property resolver.
 * @throws BadRequest (400) naming the value for an invalid id, or when `$in`/`$nin` is not an array.
 */
export function resolveQueryObjectId(value: unknown): unknown {
  if (!value) return undefined;
  if (typeof value !== 'object' || isObjectIdLike(value) || Array.isArray(value)) return toObjectId(value);
  const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const operator of listOperators) {
    const list = converted[operator];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new BadRequest(`'${operator}' must be an array of ids, got '${describe(list)}'`);
    converted[operator] = list.map(toObjectId);
  }
  if (converted.$ne !== undefined) converted.$ne = toObjectId(converted.$ne);
  return converted;
}
