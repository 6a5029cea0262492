/**
 * The `$jsonSchema` keyword names MongoDB 7.0 knows, and the metadata keywords. `_parse` in
 * `json_schema_parser.cpp` first walks the schema's fields: a name of draft 4 it does not implement is
 * refused as unsupported, any other name it does not know as unknown (queries and validators never ask it
 * to ignore them). Then `validateMetadataKeywords` checks `description` and `title` before any other keyword.
 */
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** Every keyword of `_parse`'s keyword map. */
const KNOWN = new Set([
  'additionalItems',
  'additionalProperties',
  'allOf',
  'anyOf',
  'bsonType',
  'dependencies',
  'description',
  'encrypt',
  'encryptMetadata',
  'enum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'items',
  'maxItems',
  'maxLength',
  'maxProperties',
  'maximum',
  'minItems',
  'minLength',
  'minProperties',
  'minimum',
  'multipleOf',
  'not',
  'oneOf',
  'pattern',
  'patternProperties',
  'properties',
  'required',
  'title',
  'type',
  'uniqueItems',
]);

/** JSON Schema keywords MongoDB names as explicitly unsupported (`unsupportedKeywords`). */
const UNSUPPORTED = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);

/**
 * Checks the field names of one schema level, in document order, as `_parse` does.
 * @throws CommandError FailedToParse (9): "$jsonSchema keyword 'format' is not currently supported" or
 *   "Unknown $jsonSchema keyword: foo".
 */
export function checkKeywordNames(schema: Doc): void {
  for (const name of Object.keys(schema)) {
    if (KNOWN.has(name)) continue;
    throw new CommandError(
      ErrorCodes.FailedToParse,
      UNSUPPORTED.has(name)
        ? `$jsonSchema keyword '${name}' is not currently supported`
        : `Unknown $jsonSchema keyword: ${name}`,
    );
  }
}

/**
 * Checks `description` and `title` (`validateMetadataKeywords`): annotations, but strings only.
 * @throws CommandError TypeMismatch (14) "$jsonSchema keyword 'title' must be of type string".
 */
export function checkMetadataKeywords(schema: Doc): void {
  for (const name of ['description', 'title']) {
    if (Object.hasOwn(schema, name) && typeof schema[name] !== 'string')
      throw new CommandError(ErrorCodes.TypeMismatch, `$jsonSchema keyword '${name}' must be of type string`);
  }
}
