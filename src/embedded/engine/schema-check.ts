/**
 * `$jsonSchema` documents checked when a filter or validator is parsed, as MongoDB 7.0's
 * `json_schema_parser.cpp` (`_parse`) refuses them before any document is read: a bad validator fails
 * `create` or `collMod`, and a bad filter fails even on an empty or missing collection. Each schema level
 * is checked in `_parse`'s order, so that a schema with several faults is refused for the one MongoDB
 * names: field names, metadata, type keywords, then scalar, array, encryption, object and logical keywords,
 * each group descending into its subschemas as it goes (json-schema-*.ts). `schema.ts` matches the schemas
 * that pass.
 */
import { checkArrayKeywords } from './json-schema-arrays.js';
import { checkEncryptKeywords } from './json-schema-encrypt.js';
import { checkKeywordNames, checkMetadataKeywords } from './json-schema-keywords.js';
import { checkLogicalKeywords } from './json-schema-logical.js';
import { checkObjectKeywords } from './json-schema-objects.js';
import { checkScalarKeywords } from './json-schema-scalars.js';
import { checkTypeKeywords } from './json-schema-types.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/**
 * Checks `schema` and its subschemas. `nested` is false for the `$jsonSchema` document itself (and the
 * logical keywords' schemas at that level), true below a field: MongoDB builds some match expressions
 * (a `pattern` regex, a `multipleOf` divisor) only there, and their constructors refuse more.
 * @throws CommandError the code and message MongoDB's parser gives for the first fault it meets, e.g.
 *   FailedToParse (9) "Unknown $jsonSchema keyword: foo", TypeMismatch (14) "$jsonSchema keyword 'minimum'
 *   must be a number", BadValue (2) "Unknown type name alias: foo".
 */
export function checkSchema(schema: Doc, nested = false): void {
  checkKeywordNames(schema);
  checkMetadataKeywords(schema);
  checkTypeKeywords(schema);
  checkScalarKeywords(schema, nested);
  checkArrayKeywords(schema, checkSchema);
  checkEncryptKeywords(schema);
  checkObjectKeywords(schema, nested, checkSchema);
  checkLogicalKeywords(schema, nested, checkSchema);
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
