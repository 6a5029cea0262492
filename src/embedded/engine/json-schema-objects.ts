/**
 * The object `$jsonSchema` keywords as MongoDB 7.0 parses them (`translateObjectKeywords` in
 * `json_schema_parser.cpp`, in its order): `required` (`parseRequired`), `properties`, then
 * `patternProperties` and `additionalProperties` (`parseAllowedProperties`, whose match expression refuses a
 * pattern that does not compile), `minProperties`, `maxProperties`, `dependencies`. Property schemas apply
 * below a field, so they are checked as nested schemas.
 */
import { checkCount } from './json-schema-count.js';
import { checkDependencies } from './json-schema-dependencies.js';
import { bsonTypeName, isPlainObject } from './values.js';
import { LinearRegExp } from './linear-regex.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

type SubschemaCheck = (sub: Doc, nested: boolean) => void;

/** `required`: a non-empty list of distinct strings. */
function checkRequired(value: unknown): void {
  const keyword = "$jsonSchema keyword 'required'";
  if (!Array.isArray(value))
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `${keyword} must be an array, but found an element of type ${bsonTypeName(value)}`,
    );
  const seen = new Set<string>();
  for (const name of value as unknown[]) {
    if (typeof name !== 'string')
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        `${keyword} must be an array of strings, but found an element of type: ${bsonTypeName(name)}`,
      );
    if (seen.has(name))
      throw new CommandError(ErrorCodes.FailedToParse, `${keyword} array cannot contain duplicate values`);
    seen.add(name);
  }
  if (seen.size === 0)
    throw new CommandError(ErrorCodes.FailedToParse, `${keyword} cannot be an empty array`);
}

/** `properties`: a document of schemas. */
function checkProperties(value: unknown, checkSubschema: SubschemaCheck): void {
  if (!isPlainObject(value))
    throw new CommandError(ErrorCodes.TypeMismatch, "$jsonSchema keyword 'properties' must be an object");
  for (const [name, sub] of Object.entries(value)) {
    if (!isPlainObject(sub))
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        `Nested schema for $jsonSchema property '${name}' must be an object`,
      );
    checkSubschema(sub, true);
  }
}

/** `patternProperties` then `additionalProperties`, then the patterns as regexes. */
function checkAllowedProperties(schema: Doc, checkSubschema: SubschemaCheck): void {
  const patterns = schema['patternProperties'];
  if (Object.hasOwn(schema, 'patternProperties')) {
    if (!isPlainObject(patterns))
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        "$jsonSchema keyword 'patternProperties' must be an object",
      );
    for (const [pattern, sub] of Object.entries(patterns)) {
      if (!isPlainObject(sub))
        throw new CommandError(
          ErrorCodes.TypeMismatch,
          `$jsonSchema keyword 'patternProperties' has property '${pattern}' which is not an object`,
        );
      checkSubschema(sub, true);
    }
  }
  if (Object.hasOwn(schema, 'additionalProperties')) {
    const additional = schema['additionalProperties'];
    if (isPlainObject(additional)) checkSubschema(additional, true);
    else if (typeof additional !== 'boolean')
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        "$jsonSchema keyword 'additionalProperties' must be an object or a boolean",
      );
  }
  // InternalSchemaAllowedPropertiesMatchExpression's constructor compiles the patterns (at every level);
  // schema.ts matches them on RE2 with `u` syntax, so that is what must compile here.
  for (const pattern of isPlainObject(patterns) ? Object.keys(patterns) : []) {
    try {
      new RegExp(pattern, 'u');
    } catch (error) {
      throw new CommandError(ErrorCodes.BadValue, `Invalid regular expression: ${(error as Error).message}`);
    }
    LinearRegExp.compile(pattern, 'u');
  }
}

/**
 * Checks the object keywords of one schema, handing each subschema to `checkSubschema` (property schemas
 * as nested, schema dependencies at `nested`).
 * @throws CommandError TypeMismatch (14) for a keyword of the wrong type ("$jsonSchema keyword 'required'
 *   must be an array, but found an element of type string", "Nested schema for $jsonSchema property 'a'
 *   must be an object" …); FailedToParse (9) for an empty or duplicated `required` or a bad count; BadValue
 *   (2) "Invalid regular expression: …" for a `patternProperties` key; whatever `checkSubschema` throws.
 */
export function checkObjectKeywords(schema: Doc, nested: boolean, checkSubschema: SubschemaCheck): void {
  if (Object.hasOwn(schema, 'required')) checkRequired(schema['required']);
  if (Object.hasOwn(schema, 'properties')) checkProperties(schema['properties'], checkSubschema);
  checkAllowedProperties(schema, checkSubschema);
  for (const keyword of ['minProperties', 'maxProperties'])
    if (Object.hasOwn(schema, keyword)) checkCount(keyword, schema[keyword]);
  if (Object.hasOwn(schema, 'dependencies'))
    checkDependencies(schema['dependencies'], nested, checkSubschema);
}
