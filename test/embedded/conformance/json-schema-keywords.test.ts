/**
 * Malformed `$jsonSchema` documents are refused when a filter or a validator is parsed, as MongoDB 7.0
 * does (mongodb/mongo). Sources, cited by name in the table:
 * - JSON_SCHEMA_PARSER: src/mongo/db/matcher/schema/json_schema_parser.cpp (`_parse`, which checks field
 *   names, then `validateMetadataKeywords`, the type keywords, `translateScalarKeywords`,
 *   `translateArrayKeywords`, `translateEncryptionKeywords`, `translateObjectKeywords`,
 *   `translateLogicalKeywords`, in that order; `JSONSchemaParser::parseTypeSet`);
 * - MATCHER_TYPE_SET: src/mongo/db/matcher/matcher_type_set.cpp (`fromStringAliases`: "Unknown type name
 *   alias");
 * - BSON_ELEMENT: src/mongo/bson/bsonelement.cpp (`parseIntegerElementToNonNegativeLong`, used for every
 *   length and count keyword);
 * - ALLOWED_PROPERTIES: src/mongo/db/matcher/schema/expression_internal_schema_allowed_properties.cpp
 *   (its constructor refuses a `patternProperties` key that does not compile);
 * - ENCRYPT_IDL: src/mongo/db/matcher/schema/encrypt_schema.idl (strict structs `EncryptionInfo`,
 *   `EncryptionMetadata`, `FleAlgorithm`).
 * A message ending in '…' is compared as a prefix (the rest names the regex engine's own error).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Refusal = [schema: object, code: number, message: string];

const RANDOM = 'AEAD_AES_256_CBC_HMAC_SHA_512-Random';

/** Malformed schemas and what MongoDB answers, grouped in JSON_SCHEMA_PARSER's order. */
const refusals: Refusal[] = [
  // _parse: unsupportedKeywords, then any name outside its keyword map (nested schemas too).
  [{ foo: 1 }, 9, 'Unknown $jsonSchema keyword: foo'],
  [{ properties: { a: { minlength: 1 } } }, 9, 'Unknown $jsonSchema keyword: minlength'],
  [{ $ref: '#/definitions/a' }, 9, "$jsonSchema keyword '$ref' is not currently supported"],
  [{ properties: { a: { format: 'email' } } }, 9, "$jsonSchema keyword 'format' is not currently supported"],
  [{ default: {} }, 9, "$jsonSchema keyword 'default' is not currently supported"],
  [{ minimum: 'x', foo: 1 }, 9, 'Unknown $jsonSchema keyword: foo'],
  // validateMetadataKeywords.
  [{ title: 1 }, 14, "$jsonSchema keyword 'title' must be of type string"],
  [{ description: true }, 14, "$jsonSchema keyword 'description' must be of type string"],
  // _parse's type conflicts; parseTypeSet; MATCHER_TYPE_SET; parseType.
  [
    { type: 'object', bsonType: 'object' },
    9,
    "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'",
  ],
  [
    { properties: { a: { bsonType: 'binData', encrypt: {} } } },
    9,
    "$jsonSchema keyword 'encrypt' cannot be used in conjunction with 'bsonType', 'encrypt' implies type " +
      "'bsonType::BinData'",
  ],
  [{ type: 5 }, 14, "$jsonSchema keyword 'type' must be either a string or an array of strings"],
  [{ bsonType: ['string', 1] }, 14, "$jsonSchema keyword 'bsonType' array elements must be strings"],
  [{ properties: { a: { type: 'integer' } } }, 9, "$jsonSchema type 'integer' is not currently supported."],
  [{ bsonType: ['int', 'int'] }, 9, "$jsonSchema keyword 'bsonType' has duplicate value: int"],
  [{ bsonType: 'strin' }, 2, 'Unknown type name alias: strin'],
  [{ properties: { a: { type: 'int' } } }, 2, 'Unknown type name alias: int'],
  [{ bsonType: [] }, 9, "$jsonSchema keyword 'bsonType' must name at least one type"],
  // translateScalarKeywords: parsePattern, parseLength (BSON_ELEMENT), parseMinimum/parseMaximum.
  [{ pattern: 1 }, 14, "$jsonSchema keyword 'pattern' must be a string"],
  [{ properties: { a: { pattern: '(' } } }, 51091, 'Regular expression is invalid…'],
  [{ minLength: -1 }, 9, 'Expected a non-negative number in: minLength: -1'],
  [{ properties: { a: { maxLength: '2' } } }, 9, 'Expected a number in: maxLength: "2"'],
  [{ minimum: 'x' }, 14, "$jsonSchema keyword 'minimum' must be a number"],
  [{ properties: { a: { maximum: null } } }, 14, "$jsonSchema keyword 'maximum' must be a number"],
  [{ minimum: 1, exclusiveMinimum: 1 }, 14, "$jsonSchema keyword 'exclusiveMinimum' must be a boolean"],
  [
    { exclusiveMaximum: true },
    9,
    "$jsonSchema keyword 'maximum' must be a present if exclusiveMaximum is present",
  ],
  // translateArrayKeywords: parseLength, parseUniqueItems, parseItems, parseAdditionalItems.
  [{ minItems: 1.5 }, 9, 'Expected an integer: minItems: 1.5'],
  [{ maxItems: NaN }, 9, 'Expected an integer, but found NaN in: maxItems…'],
  [{ uniqueItems: 1 }, 14, "$jsonSchema keyword 'uniqueItems' must be a boolean"],
  [
    { properties: { a: { items: 1 } } },
    14,
    "$jsonSchema keyword 'items' must be an array or an object, not int",
  ],
  [
    { properties: { a: { items: [{}, 'x'] } } },
    14,
    "$jsonSchema keyword 'items' requires that each element of the array is an object, but found a string",
  ],
  [
    { properties: { a: { additionalItems: 'no' } } },
    14,
    "$jsonSchema keyword 'additionalItems' must be either an object or a boolean, but got a string",
  ],
  [{ properties: { a: { items: { minimum: 'x' } } } }, 14, "$jsonSchema keyword 'minimum' must be a number"],
  // translateEncryptionKeywords (ENCRYPT_IDL); MongoDB's messages end with a space.
  [{ properties: { a: { encrypt: 'x' } } }, 14, "$jsonSchema keyword 'encrypt' must be an object "],
  [{ encryptMetadata: {} }, 9, "$jsonSchema keyword 'encryptMetadata' cannot be an empty object "],
  [
    { encrypt: {}, encryptMetadata: { algorithm: RANDOM } },
    9,
    "Cannot specify both $jsonSchema keywords 'encrypt' and 'encryptMetadata'",
  ],
  [{ properties: { a: { encrypt: { foo: 1 } } } }, 40415, "BSON field 'encrypt.foo' is an unknown field."],
  [
    { encryptMetadata: { algorithm: 'rot13' } },
    2,
    "Enumeration value 'rot13' for field 'encryptMetadata.algorithm' is not a valid value.",
  ],
  // translateObjectKeywords: parseRequired (before properties), parseProperties, parseAllowedProperties
  // (ALLOWED_PROPERTIES), parseNumProperties, parseDependencies.
  [
    { required: 'a' },
    14,
    "$jsonSchema keyword 'required' must be an array, but found an element of type string",
  ],
  [
    { required: ['a', 1] },
    14,
    "$jsonSchema keyword 'required' must be an array of strings, but found an element of type: int",
  ],
  [{ required: ['a', 'a'] }, 9, "$jsonSchema keyword 'required' array cannot contain duplicate values"],
  [{ required: [] }, 9, "$jsonSchema keyword 'required' cannot be an empty array"],
  [
    { properties: { a: { minimum: 'x' } }, required: 5 },
    14,
    "$jsonSchema keyword 'required' must be an array, but found an element of type int",
  ],
  [{ properties: 1 }, 14, "$jsonSchema keyword 'properties' must be an object"],
  [{ properties: { a: 1 } }, 14, "Nested schema for $jsonSchema property 'a' must be an object"],
  [
    { patternProperties: { '^a': true } },
    14,
    "$jsonSchema keyword 'patternProperties' has property '^a' which is not an object",
  ],
  [{ patternProperties: { '(': {} } }, 2, 'Invalid regular expression…'],
  [
    { additionalProperties: 'no' },
    14,
    "$jsonSchema keyword 'additionalProperties' must be an object or a boolean",
  ],
  [{ additionalProperties: { minimum: 'x' } }, 14, "$jsonSchema keyword 'minimum' must be a number"],
  [{ minProperties: -2 }, 9, 'Expected a non-negative number in: minProperties: -2'],
  [{ dependencies: [] }, 14, "$jsonSchema keyword 'dependencies' must be an object"],
  [
    { dependencies: { a: 1 } },
    14,
    "property 'a' in $jsonSchema keyword 'dependencies' must be either an object or an array",
  ],
  [
    { dependencies: { a: [] } },
    9,
    "property 'a' in $jsonSchema keyword 'dependencies' cannot be an empty array",
  ],
  [
    { dependencies: { a: ['b', 2] } },
    14,
    "array 'a' in $jsonSchema keyword 'dependencies' can only contain strings, but found element of type: int",
  ],
  [
    { dependencies: { a: ['b', 'b'] } },
    9,
    "array 'a' in $jsonSchema keyword 'dependencies' contains duplicate element: b",
  ],
  [{ dependencies: { a: { foo: 1 } } }, 9, 'Unknown $jsonSchema keyword: foo'],
  // translateLogicalKeywords: parseLogicalKeyword, not, parseEnum (after every other keyword).
  [{ allOf: {} }, 14, "$jsonSchema keyword 'allOf' must be an array"],
  [{ anyOf: [] }, 2, "$jsonSchema keyword 'anyOf' must be a non-empty array"],
  [
    { oneOf: [{}, 1] },
    14,
    "$jsonSchema keyword 'oneOf' must be an array of objects, but found an element of type int",
  ],
  [{ not: [] }, 14, "$jsonSchema keyword 'not' must be an object, but found an element of type array"],
  [{ not: { bsonType: 'nope' } }, 2, 'Unknown type name alias: nope'],
  [{ enum: 'a' }, 14, "$jsonSchema keyword 'enum' must be an array, but found an element of type string"],
  [{ enum: [] }, 9, "$jsonSchema keyword 'enum' cannot be an empty array"],
  [{ enum: [], minimum: 'x' }, 14, "$jsonSchema keyword 'minimum' must be a number"],
  [
    {
      properties: {
        a: {
          enum: [
            { x: 1, y: 2 },
            { y: 2, x: 1 },
          ],
        },
      },
    },
    9,
    "$jsonSchema keyword 'enum' array cannot contain duplicate values.",
  ],
];

/** Checks a refusal against its expected code and message ('…' at the end: a prefix). */
function expectRefusal(error: Record<string, any>, code: number, message: string): void {
  expect(error['code']).toBe(code);
  if (message.endsWith('…')) expect(error['message']).toMatch(new RegExp(`^${escape(message.slice(0, -1))}`));
  else expect(error['message']).toBe(message);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe.each(drivers)('jsonSchema keyword parsing ($name)', (driver) => {
  const t = connect(driver, 'json_schema_keywords');

  it.each(refusals)('refuses %j in find and createCollection', async (schema, code, message) => {
    const filter = { $jsonSchema: schema };
    // A filter is parsed before any document is read, so a missing collection still fails.
    expectRefusal(await failure(() => t.db.collection('missing').find(filter).toArray()), code, message);
    expectRefusal(
      await failure(() => t.db.createCollection('refused', { validator: filter })),
      code,
      message,
    );
  });

  it('refuses a malformed schema in aggregate $match, count and collMod too', async () => {
    const filter = { $jsonSchema: { properties: { a: { minLength: 'x' } } } };
    const message = 'Expected a number in: minLength: "x"';
    const missing = t.db.collection('missing');
    expectRefusal(await failure(() => missing.aggregate([{ $match: filter }]).toArray()), 9, message);
    await t.db.createCollection('plain');
    expectRefusal(await failure(() => t.db.command({ count: 'plain', query: filter })), 9, message);
    expectRefusal(await failure(() => t.db.command({ collMod: 'plain', validator: filter })), 9, message);
    // A refused create makes no collection.
    expect(await t.db.listCollections({ name: 'refused' }).toArray()).toEqual([]);
    await t.db.collection('plain').drop();
  });

  it('accepts well-formed uses of the keywords the parser checks', async () => {
    // JSON_SCHEMA_PARSER lets these through: a string annotation among dependencies, exclusive flags
    // with their bound, a count as an integral double or a long, an encrypt document with a known
    // algorithm (ENCRYPT_IDL), patterns that compile, additionalItems without items.
    const { Long } = driver.bson;
    const accepted = [
      { dependencies: { a: ['b'], b: { required: ['c'] }, title: 'note' } },
      { properties: { a: { maximum: 5, exclusiveMaximum: false, minimum: 1, exclusiveMinimum: true } } },
      { minProperties: 1.0, maxProperties: Long.fromNumber(4), properties: { s: { minLength: 0 } } },
      { properties: { s: { encrypt: { algorithm: RANDOM } } } },
      { encryptMetadata: { algorithm: RANDOM } },
      { patternProperties: { '^[a-z]+$': { bsonType: ['string', 'null'] } }, additionalProperties: false },
      { properties: { a: { additionalItems: false, type: ['array', 'null'] } } },
      { title: 't', description: 'd', not: { required: ['x'] }, enum: [{ a: 1 }, { a: 2 }] },
    ];
    for (const schema of accepted) {
      expect(await t.db.collection('missing').find({ $jsonSchema: schema }).toArray()).toEqual([]);
      await t.db.createCollection('accepted', { validator: { $jsonSchema: schema } });
      await t.db.collection('accepted').drop();
    }
  });

  it('accepts well-formed schemas of every keyword group and matches with them', async () => {
    const schema = {
      title: 'person',
      description: 'a person with optional tags',
      bsonType: ['object'],
      required: ['name'],
      minProperties: 2,
      maxProperties: 6,
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 10, pattern: '^[A-Z]' },
        age: { bsonType: 'number', minimum: 0, exclusiveMinimum: true, maximum: 150, multipleOf: 1 },
        tags: {
          bsonType: 'array',
          minItems: 1,
          maxItems: 3,
          uniqueItems: true,
          items: [{ bsonType: 'string' }],
        },
        kind: { enum: ['a', 'b', { c: 1 }] },
      },
      patternProperties: { '^_': {} },
      additionalProperties: { not: { bsonType: 'null' } },
      allOf: [{ not: { required: ['banned'] } }],
      anyOf: [{ required: ['age'] }, { required: ['tags'] }],
      oneOf: [{ required: ['age'] }, { properties: { age: { bsonType: 'string' } } }],
    };
    const coll = t.db.collection<any>('people');
    await coll.insertMany([
      { _id: 1, name: 'Ann', age: 30 },
      { _id: 2, name: 'Bob', tags: ['t', 'x'], kind: 'a' },
      { _id: 3, name: 'cat', age: 3 },
      { _id: 4, name: 'Dan', age: 0 },
      { _id: 5, name: 'Eve', tags: ['t', 't'] },
      { _id: 6, name: 'Fay', kind: 'c' },
      { _id: 7, name: 'Gus', age: 40, banned: true },
      { _id: 8, name: 'Hal', age: 20, extra: null },
    ]);
    const found = await coll.find({ $jsonSchema: schema }).toArray();
    expect(found.map((d) => d._id)).toEqual([1, 2]);
    expect(await coll.countDocuments({ $jsonSchema: schema })).toBe(2);
    await t.db.createCollection('validated', { validator: { $jsonSchema: schema } });
    const validated = t.db.collection<any>('validated');
    await validated.insertOne({ _id: 1, name: 'Ann', age: 30 });
    expect((await failure(() => validated.insertOne({ _id: 3, name: 'cat', age: 3 })))['code']).toBe(121);
    await coll.drop();
    await validated.drop();
  });
});
