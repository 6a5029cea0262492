/**
 * `$jsonSchema` arguments checked when a filter or validator is parsed, as MongoDB's
 * `json_schema_parser.cpp` refuses them before any document is read (so a bad validator fails `create` or
 * `collMod`, and a bad filter fails even on an empty or missing collection). The walk follows every place
 * MongoDB parses a subschema: `properties`, `patternProperties`, `additionalProperties`, `items`,
 * `additionalItems` and `dependencies` (field schemas), and `allOf`, `anyOf`, `oneOf`, `not` (the same
 * level). Only `multipleOf` is checked so far (multiple-of.ts); `schema.ts` ignores malformed values of
 * the other keywords.
 */
import { checkMultipleOf } from './multiple-of.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** `value` when it is a schema (a document). */
function schemaAt(value: unknown): Doc[] {
  return isPlainObject(value) ? [value] : [];
}

/** The schema entries of a list keyword (`allOf`, or `items` given as a list). */
function schemaList(value: unknown): Doc[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/** The values of a `{ name: schema }` map keyword that are schemas. */
function schemaValues(value: unknown): Doc[] {
  return isPlainObject(value) ? Object.values(value).filter(isPlainObject) : [];
}

/**
 * Checks `schema` and its subschemas. `nested` is false for the `$jsonSchema` document itself (and the
 * logical keywords' schemas at that level), true below a field.
 * @throws CommandError the code and message MongoDB's parser gives (see checkMultipleOf).
 */
export function checkSchema(schema: Doc, nested = false): void {
  if (schema['multipleOf'] !== undefined) checkMultipleOf(schema['multipleOf'], nested);
  const fieldSchemas = [
    ...schemaValues(schema['properties']),
    ...schemaValues(schema['patternProperties']),
    ...schemaAt(schema['additionalProperties']),
    ...schemaAt(schema['items']),
    ...schemaList(schema['items']),
    ...schemaAt(schema['additionalItems']),
  ];
  for (const sub of fieldSchemas) checkSchema(sub, true);
  // A schema dependency and the logical keywords apply to the value this schema applies to.
  const sameLevel = [
    ...schemaValues(schema['dependencies']),
    ...schemaList(schema['allOf']),
    ...schemaList(schema['anyOf']),
    ...schemaList(schema['oneOf']),
    ...schemaAt(schema['not']),
  ];
  for (const sub of sameLevel) checkSchema(sub, nested);
}

/**
 * Checks every `$jsonSchema` of a filter where MongoDB takes one: at the top and in the entries of
 * `$and`, `$or` and `$nor` (pipelines and `$elemMatch` are checked where they compile, context.ts).
 * @throws CommandError as checkSchema.
 */
export function checkFilterSchemas(filter: Doc): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$jsonSchema' && isPlainObject(value)) checkSchema(value);
    else if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value))
      for (const entry of value) if (isPlainObject(entry)) checkFilterSchemas(entry);
  }
}
