/**
 * The encryption keywords of `$jsonSchema` (client-side field level encryption) as MongoDB 7.0 parses them
 * (`translateEncryptionKeywords` in `json_schema_parser.cpp`): `encrypt` and `encryptMetadata` are
 * documents read by the strict IDL structs `EncryptionInfo` and `EncryptionMetadata`
 * (`encrypt_schema.idl`), and never appear together. The embedded database checks the shape and
 * `algorithm`; it does not check `keyId` or `bsonType` inside them.
 */
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The two `FleAlgorithm` values. */
const ALGORITHMS = new Set([
  'AEAD_AES_256_CBC_HMAC_SHA_512-Deterministic',
  'AEAD_AES_256_CBC_HMAC_SHA_512-Random',
]);

/** The fields each struct accepts (`strict: true` refuses any other). */
const FIELDS: Record<string, Set<string>> = {
  encrypt: new Set(['bsonType', 'algorithm', 'initializationVector', 'keyId']),
  encryptMetadata: new Set(['algorithm', 'initializationVector', 'keyId']),
};

/** Reads `value` as the IDL struct of `keyword`, field by field, as the generated parser does. */
function checkStruct(keyword: string, value: Doc): void {
  for (const [name, field] of Object.entries(value)) {
    const path = `${keyword}.${name}`;
    if (!FIELDS[keyword]!.has(name))
      throw new CommandError(40415, `BSON field '${path}' is an unknown field.`);
    if (name !== 'algorithm') continue;
    if (typeof field !== 'string')
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        `BSON field '${path}' is the wrong type '${bsonTypeName(field)}', expected type 'string'`,
      );
    if (!ALGORITHMS.has(field))
      throw new CommandError(
        ErrorCodes.BadValue,
        `Enumeration value '${field}' for field '${path}' is not a valid value.`,
      );
  }
}

/**
 * Checks `encrypt` and `encryptMetadata` of one schema.
 * @throws CommandError FailedToParse (9) for both together or an empty `encryptMetadata`; TypeMismatch (14)
 *   "$jsonSchema keyword 'encrypt' must be an object " (MongoDB's trailing space) or a non-string
 *   `algorithm`; 40415 "BSON field 'encrypt.foo' is an unknown field."; BadValue (2) for an unknown
 *   algorithm.
 */
export function checkEncryptKeywords(schema: Doc): void {
  const hasEncrypt = Object.hasOwn(schema, 'encrypt');
  const hasMetadata = Object.hasOwn(schema, 'encryptMetadata');
  if (hasEncrypt && hasMetadata)
    throw new CommandError(
      ErrorCodes.FailedToParse,
      "Cannot specify both $jsonSchema keywords 'encrypt' and 'encryptMetadata'",
    );
  for (const keyword of ['encryptMetadata', 'encrypt']) {
    if (!Object.hasOwn(schema, keyword)) continue;
    const value = schema[keyword];
    if (!isPlainObject(value))
      throw new CommandError(ErrorCodes.TypeMismatch, `$jsonSchema keyword '${keyword}' must be an object `);
    if (keyword === 'encryptMetadata' && Object.keys(value).length === 0)
      throw new CommandError(
        ErrorCodes.FailedToParse,
        "$jsonSchema keyword 'encryptMetadata' cannot be an empty object ",
      );
    checkStruct(keyword, value);
  }
}
