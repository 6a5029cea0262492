/**
 * Arguments of the read commands (`find`, `count`, `distinct`, `getMore`, `killCursors`) checked as
 * MongoDB 7.0's command parsers check them, with their codes and messages: a collection name that is not
 * a string, a `sort` that is not a document, a `singleBatch` that is not a boolean, a `distinct` key or
 * query of the wrong type, a `getMore` without a valid `collection`, a `killCursors` id that is not an
 * int64. The handlers (commands/query.ts) call these before they read anything.
 */
import { Long } from 'bson';
import { numberKind } from './arithmetic.js';
import { bsonTag, bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The wrong-type answer of MongoDB's command parser for `command.field`. */
function wrongType(field: string, value: unknown, expected: string): CommandError {
  return new CommandError(
    ErrorCodes.TypeMismatch,
    `BSON field '${field}' is the wrong type '${bsonTypeName(value)}', expected type '${expected}'`,
  );
}

/** True for a UUID (BinData subtype 4), which names a collection by its id where MongoDB takes one. */
function isUuid(value: unknown): boolean {
  return bsonTag(value) === 'Binary' && (value as { sub_type: number }).sub_type === 4;
}

/**
 * The collection `find` names must be a string. @throws CommandError BadValue (2), as MongoDB answers.
 */
export function checkFindTarget(cmd: Doc): void {
  const target = cmd['find'];
  if (typeof target !== 'string' && !isUuid(target))
    throw new CommandError(ErrorCodes.BadValue, `collection name has invalid type ${bsonTypeName(target)}`);
}

/** The collection `count` names must be a string. @throws CommandError BadValue (2), as MongoDB answers. */
export function checkCountTarget(cmd: Doc): void {
  const target = cmd['count'];
  if (typeof target !== 'string')
    throw new CommandError(ErrorCodes.BadValue, `collection name has invalid type: ${bsonTypeName(target)}`);
}

/**
 * `find`'s `sort` must be a document and `singleBatch` a boolean.
 * @throws CommandError TypeMismatch (14) with MongoDB's messages.
 */
export function checkFindOptions(cmd: Doc): void {
  const sort = cmd['sort'];
  if (sort !== undefined && sort !== null && !isPlainObject(sort))
    throw new CommandError(ErrorCodes.TypeMismatch, 'Expected field sortto be of type object');
  const singleBatch = cmd['singleBatch'];
  if (singleBatch !== undefined && singleBatch !== null && typeof singleBatch !== 'boolean') {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `Field 'singleBatch' should be a boolean value, but found: ${bsonTypeName(singleBatch)}`,
    );
  }
}

/**
 * `distinct`'s collection, `key` and `query`, in MongoDB's order.
 * @throws CommandError InvalidNamespace (73), TypeMismatch (14), 40414 (a missing key) or 31032 (a key
 *   holding a NUL character).
 */
export function checkDistinct(cmd: Doc, db: string): string {
  const target = cmd['distinct'];
  if (typeof target !== 'string')
    throw new CommandError(
      ErrorCodes.InvalidNamespace,
      `collection name has invalid type ${bsonTypeName(target)}`,
    );
  if (target === '')
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${db}.'`);
  const key = cmd['key'];
  if (key === undefined)
    throw new CommandError(40414, "BSON field 'distinct.key' is missing but a required field");
  if (typeof key !== 'string') throw wrongType('distinct.key', key, 'string');
  const query = cmd['query'];
  if (query !== undefined && query !== null && !isPlainObject(query))
    throw wrongType('distinct.query', query, 'object');
  // parsed_distinct.cpp checks this after the IDL parse, before the query is parsed.
  if (key.includes('\0')) throw new CommandError(31032, 'Key field cannot contain an embedded null byte');
  return key;
}

/**
 * `getMore`'s `collection`: present, a string, not empty.
 * @throws CommandError 40414, TypeMismatch (14) or InvalidNamespace (73), as MongoDB answers.
 */
export function getMoreCollection(cmd: Doc): string {
  const name = cmd['collection'];
  if (name === undefined)
    throw new CommandError(40414, "BSON field 'getMore.collection' is missing but a required field");
  if (typeof name !== 'string') throw wrongType('getMore.collection', name, 'string');
  if (name === '') throw new CommandError(ErrorCodes.InvalidNamespace, 'Collection names cannot be empty');
  return name;
}

/**
 * `killCursors`' ids, all checked before any cursor is killed.
 * @throws CommandError TypeMismatch (14) naming the first id that is not an int64.
 */
export function killCursorIds(ids: unknown[]): Long[] {
  return ids.map((raw, i) => {
    if (Long.isLong(raw)) return raw;
    throw wrongType(`killCursors.cursors.${i}`, raw, 'long');
  });
}

/**
 * `find`'s `limit` or `skip`: any BSON number, truncated, not negative.
 * @throws CommandError TypeMismatch (14) naming `FindCommandRequest.<field>`, or 51024 when negative.
 */
export function findCount(cmd: Doc, field: 'limit' | 'skip'): number | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (numberKind(value) === undefined)
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'FindCommandRequest.${field}' is the wrong type '${bsonTypeName(value)}', ` +
        "expected types '[long, int, decimal, double']",
    );
  const n = Math.trunc(Number((value as { toString(): string }).toString()));
  if (n < 0) throw new CommandError(51024, `BSON field '${field}' value must be >= 0, actual value '${n}'`);
  return Number.isNaN(n) ? 0 : n;
}

/**
 * True for a filter that is exactly `{ _id: <value> }`: MongoDB answers it with its IDHACK plan,
 * which knows it is done after the one document, so the cursor closes with it.
 */
export function isIdLookup(filter: Doc | undefined): boolean {
  if (!filter) return false;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return false;
  const id = filter['_id'];
  if (id instanceof RegExp || bsonTag(id) === 'BSONRegExp') return false;
  return !(isPlainObject(id) && Object.keys(id).some((k) => k.startsWith('$')));
}
