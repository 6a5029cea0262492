/**
 * The arguments of `createIndexes` and `dropIndexes`, checked as MongoDB 7.0's command parsers check
 * them, before anything is read or built: the collection name, the `indexes` array and the shape of
 * each index specification (`key` and `name` required, boolean options convertible to bool), and the
 * `index` of `dropIndexes`. Codes and messages are MongoDB's (as recorded by FerretDB's integration
 * suite against MongoDB 7.0), so a client sees the same answer it would get from a real server.
 */
import { bsonText } from '../engine/bson-text.js';
import { checkCollectionName } from '../engine/namespace.js';
import { bsonTypeName, isPlainObject } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** Index options MongoDB reads as booleans (a number is accepted too). */
const BOOLEAN_OPTIONS = new Set(['unique', 'sparse', 'hidden', 'background', 'prepareUnique']);

/**
 * The collection an index command (`createIndexes`, `dropIndexes`) names.
 * @throws CommandError BadValue (2) for a non-string, InvalidNamespace (73) for an empty or bad name.
 */
export function indexCommandTarget(cmd: Doc, command: string, db: string): string {
  const name = cmd[command];
  if (typeof name !== 'string')
    throw new CommandError(ErrorCodes.BadValue, `collection name has invalid type ${bsonTypeName(name)}`);
  if (name === '')
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${db}.'`);
  return checkCollectionName(name);
}

/**
 * `createIndexes.indexes`: present, an array of documents, not empty.
 * @throws CommandError 40414 (missing), 10065 (null), TypeMismatch (14), BadValue (2) when empty.
 */
export function indexesArgument(cmd: Doc): Doc[] {
  const list = cmd['indexes'];
  if (list === undefined)
    throw new CommandError(40414, "BSON field 'createIndexes.indexes' is missing but a required field");
  if (list === null) throw new CommandError(10065, 'invalid parameter: expected an object (indexes)');
  if (!Array.isArray(list))
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field 'createIndexes.indexes' is the wrong type '${bsonTypeName(list)}', expected type 'array'`,
    );
  list.forEach((raw: unknown, i) => {
    if (!isPlainObject(raw))
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        `BSON field 'createIndexes.indexes.${i}' is the wrong type '${bsonTypeName(raw)}', expected type 'object'`,
      );
  });
  if (list.length === 0)
    throw new CommandError(ErrorCodes.BadValue, 'Must specify at least one index to create');
  return list as Doc[];
}

/** A specification as MongoDB prints it once it has a version (`v: 2` appended when absent). */
export function versionedSpecText(raw: Doc): string {
  return bsonText(raw['v'] === undefined ? { ...raw, v: 2 } : raw);
}

function specError(code: number, raw: Doc, reason: string, versioned = false): CommandError {
  const text = versioned ? versionedSpecText(raw) : bsonText(raw);
  return new CommandError(code, `Error in specification ${text} :: caused by :: ${reason}`);
}

/**
 * The shape of one index specification: boolean options convertible to bool, `key` and `name`
 * present, the name not empty.
 * @throws CommandError TypeMismatch (14), FailedToParse (9) or CannotCreateIndex (67).
 */
export function checkSpecShape(raw: Doc): void {
  for (const [field, value] of Object.entries(raw)) {
    if (BOOLEAN_OPTIONS.has(field) && typeof value !== 'boolean' && typeof value !== 'number') {
      // MongoDB's message lacks the quote after the field name.
      throw specError(
        ErrorCodes.TypeMismatch,
        raw,
        `The field '${field} has value ${field}: ${bsonText(value)}, which is not convertible to bool`,
      );
    }
  }
  if (raw['key'] === undefined)
    throw specError(
      ErrorCodes.FailedToParse,
      raw,
      "The 'key' field is a required property of an index specification",
    );
  if (raw['name'] === undefined)
    throw specError(
      ErrorCodes.FailedToParse,
      raw,
      "The 'name' field is a required property of an index specification",
    );
  if (raw['name'] === '')
    throw specError(ErrorCodes.CannotCreateIndex, raw, 'index name cannot be empty', true);
}

/**
 * `dropIndexes.index`: a name, `'*'`, a key pattern or an array of names.
 * @throws CommandError 40414 (missing) or TypeMismatch (14), with MongoDB's messages.
 */
export function dropIndexesArgument(cmd: Doc): string | string[] | Doc {
  const which = cmd['index'];
  if (which === undefined)
    throw new CommandError(40414, "BSON field 'dropIndexes.index' is missing but a required field");
  if (typeof which === 'string' || isPlainObject(which)) return which;
  if (Array.isArray(which) && which.every((n) => typeof n === 'string')) return which;
  // MongoDB's messages put the closing quote inside the bracket.
  const expected = Array.isArray(which) ? "'[string']" : "'[string, object']";
  throw new CommandError(
    ErrorCodes.TypeMismatch,
    `BSON field 'dropIndexes.index' is the wrong type '${bsonTypeName(which)}', expected types ${expected}`,
  );
}
