/**
 * The array `$jsonSchema` keywords as MongoDB 7.0 parses them (`translateArrayKeywords` in
 * `json_schema_parser.cpp`, in its order): `minItems`, `maxItems`, `uniqueItems`, `items` (one schema for
 * every element, or a list of schemas by position), `additionalItems`. Element schemas apply below a
 * field, so they are checked as nested schemas.
 */
import { checkCount } from './json-schema-count.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Checks the array keywords of one schema, handing each element schema to `checkSubschema`.
 * @throws CommandError FailedToParse (9) for a bad count (json-schema-count.ts); TypeMismatch (14)
 *   "$jsonSchema keyword 'uniqueItems' must be a boolean", "... 'items' must be an array or an object, not
 *   string", "... 'additionalItems' must be either an object or a boolean, but got a string" and the like;
 *   whatever `checkSubschema` throws.
 */
export function checkArrayKeywords(schema: Doc, checkSubschema: (sub: Doc, nested: boolean) => void): void {
  for (const keyword of ['minItems', 'maxItems'])
    if (Object.hasOwn(schema, keyword)) checkCount(keyword, schema[keyword]);
  if (Object.hasOwn(schema, 'uniqueItems') && typeof schema['uniqueItems'] !== 'boolean')
    throw new CommandError(ErrorCodes.TypeMismatch, "$jsonSchema keyword 'uniqueItems' must be a boolean");
  if (Object.hasOwn(schema, 'items')) {
    const items = schema['items'];
    if (Array.isArray(items)) {
      for (const sub of items as unknown[]) {
        if (!isPlainObject(sub))
          throw new CommandError(
            ErrorCodes.TypeMismatch,
            "$jsonSchema keyword 'items' requires that each element of the array is an object, but found a " +
              bsonTypeName(sub),
          );
        checkSubschema(sub, true);
      }
    } else if (isPlainObject(items)) checkSubschema(items, true);
    else
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        `$jsonSchema keyword 'items' must be an array or an object, not ${bsonTypeName(items)}`,
      );
  }
  if (Object.hasOwn(schema, 'additionalItems')) {
    const additional = schema['additionalItems'];
    if (isPlainObject(additional)) checkSubschema(additional, true);
    else if (typeof additional !== 'boolean')
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        "$jsonSchema keyword 'additionalItems' must be either an object or a boolean, but got a " +
          bsonTypeName(additional),
      );
  }
}
