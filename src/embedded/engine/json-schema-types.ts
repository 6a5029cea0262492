/**
 * The `$jsonSchema` type keywords as MongoDB 7.0 parses them (`json_schema_parser.cpp`: `_parse`,
 * `parseType`, `JSONSchemaParser::parseTypeSet`; `MatcherTypeSet::fromStringAliases`). `type` takes JSON
 * Schema's names, `bsonType` MongoDB's `$type` aliases; both take `number`. At most one of `type`,
 * `bsonType` and `encrypt` (which implies binData) may be given.
 */
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** `MatcherTypeSet::kJsonSchemaTypeAliasMap`, plus `number` (`kMatchesAllNumbersAlias`). */
const JSON_TYPE_NAMES = new Set(['array', 'boolean', 'null', 'object', 'string', 'number']);

/** `findBSONTypeAlias` (every BSON type's alias), plus `number`. */
const BSON_TYPE_NAMES = new Set([
  'double',
  'string',
  'object',
  'array',
  'binData',
  'undefined',
  'objectId',
  'bool',
  'date',
  'null',
  'regex',
  'dbPointer',
  'javascript',
  'symbol',
  'javascriptWithScope',
  'int',
  'timestamp',
  'long',
  'decimal',
  'minKey',
  'maxKey',
  'number',
]);

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

/** `parseTypeSet` then `parseType`'s emptiness check, for `keyword`'s value. */
function checkTypeSet(keyword: string, value: unknown, names: Set<string>): void {
  if (typeof value !== 'string' && !Array.isArray(value))
    fail(
      ErrorCodes.TypeMismatch,
      `$jsonSchema keyword '${keyword}' must be either a string or an array of strings`,
    );
  const integer = "$jsonSchema type 'integer' is not currently supported.";
  const aliases = new Set<string>();
  for (const entry of typeof value === 'string' ? [value] : (value as unknown[])) {
    if (typeof entry !== 'string')
      fail(ErrorCodes.TypeMismatch, `$jsonSchema keyword '${keyword}' array elements must be strings`);
    if (entry === 'integer') fail(ErrorCodes.FailedToParse, integer);
    if (aliases.has(entry))
      fail(ErrorCodes.FailedToParse, `$jsonSchema keyword '${keyword}' has duplicate value: ${entry}`);
    aliases.add(entry);
  }
  // The aliases are a std::set: the first unknown one in sorted (byte) order is named.
  const unknown = [...aliases].sort().find((alias) => !names.has(alias));
  if (unknown !== undefined) fail(ErrorCodes.BadValue, `Unknown type name alias: ${unknown}`);
  if (aliases.size === 0)
    fail(ErrorCodes.FailedToParse, `$jsonSchema keyword '${keyword}' must name at least one type`);
}

/**
 * Checks `type`, `bsonType` and their combination with each other and with `encrypt`.
 * @throws CommandError FailedToParse (9) for two of them together, `integer`, a duplicate or an empty list;
 *   TypeMismatch (14) for a value that is not a string or a list of strings; BadValue (2)
 *   "Unknown type name alias: x".
 */
export function checkTypeKeywords(schema: Doc): void {
  const has = (key: string): boolean => Object.hasOwn(schema, key);
  if (has('type') && has('bsonType'))
    fail(ErrorCodes.FailedToParse, "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
  for (const keyword of ['type', 'bsonType'])
    if (has(keyword) && has('encrypt'))
      fail(
        ErrorCodes.FailedToParse,
        `$jsonSchema keyword 'encrypt' cannot be used in conjunction with '${keyword}', ` +
          "'encrypt' implies type 'bsonType::BinData'",
      );
  if (has('type')) checkTypeSet('type', schema['type'], JSON_TYPE_NAMES);
  else if (has('bsonType')) checkTypeSet('bsonType', schema['bsonType'], BSON_TYPE_NAMES);
}
