/**
 * The logical `$jsonSchema` keywords as MongoDB 7.0 parses them (`translateLogicalKeywords` in
 * `json_schema_parser.cpp`, in its order): `allOf`, `anyOf`, `oneOf` (`parseLogicalKeyword`), `not`, and
 * `enum` (`parseEnum`). Their schemas apply to the same value as the schema holding them, so they keep its
 * level. `enum` refuses duplicates as `UnorderedFieldsBSONElementComparator` sees them: numbers by value,
 * documents whatever the order of their fields.
 */
import { bsonTypeName, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** `value` with the fields of every document in it sorted, so that field order does not tell them apart. */
function unordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unordered);
  if (!isPlainObject(value)) return value;
  const out: Doc = {};
  for (const key of Object.keys(value).sort()) out[key] = unordered(value[key]);
  return out;
}

/** `enum`: a non-empty array without duplicates. */
function checkEnum(values: unknown): void {
  if (!Array.isArray(values))
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `$jsonSchema keyword 'enum' must be an array, but found an element of type ${bsonTypeName(values)}`,
    );
  if (values.length === 0)
    throw new CommandError(ErrorCodes.FailedToParse, "$jsonSchema keyword 'enum' cannot be an empty array");
  const seen = new Set<string>();
  for (const value of values as unknown[]) {
    const key = keyOf(unordered(value));
    if (seen.has(key))
      throw new CommandError(
        ErrorCodes.FailedToParse,
        "$jsonSchema keyword 'enum' array cannot contain duplicate values.",
      );
    seen.add(key);
  }
}

/**
 * Checks the logical keywords and `enum` of one schema, handing each subschema to `checkSubschema` at the
 * schema's own level (`nested`).
 * @throws CommandError TypeMismatch (14) "$jsonSchema keyword 'allOf' must be an array", "... must be an
 *   array of objects, but found an element of type int", "$jsonSchema keyword 'not' must be an object, but
 *   found an element of type array", "... 'enum' must be an array, but found an element of type string";
 *   BadValue (2) "$jsonSchema keyword 'anyOf' must be a non-empty array"; FailedToParse (9) for an empty or
 *   duplicated `enum`; whatever `checkSubschema` throws.
 */
export function checkLogicalKeywords(
  schema: Doc,
  nested: boolean,
  checkSubschema: (sub: Doc, nested: boolean) => void,
): void {
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const list = schema[keyword];
    if (!Array.isArray(list))
      throw new CommandError(ErrorCodes.TypeMismatch, `$jsonSchema keyword '${keyword}' must be an array`);
    if (list.length === 0)
      throw new CommandError(
        ErrorCodes.BadValue,
        `$jsonSchema keyword '${keyword}' must be a non-empty array`,
      );
    for (const sub of list as unknown[]) {
      if (!isPlainObject(sub))
        throw new CommandError(
          ErrorCodes.TypeMismatch,
          `$jsonSchema keyword '${keyword}' must be an array of objects, but found an element of type ` +
            bsonTypeName(sub),
        );
      checkSubschema(sub, nested);
    }
  }
  if (Object.hasOwn(schema, 'not')) {
    const not = schema['not'];
    if (!isPlainObject(not))
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        `$jsonSchema keyword 'not' must be an object, but found an element of type ${bsonTypeName(not)}`,
      );
    checkSubschema(not, nested);
  }
  if (Object.hasOwn(schema, 'enum')) checkEnum(schema['enum']);
}
