/**
 * `$jsonSchema` keywords that used to be accepted without effect now match as MongoDB 7.0 matches them,
 * both in a filter and in a collection validator (which refuses a failing insert with 121
 * DocumentValidationFailure). Sources (mongodb/mongo), cited by name:
 * - JSON_SCHEMA_PARSER: src/mongo/db/matcher/schema/json_schema_parser.cpp (`parseNumProperties`,
 *   `parseDependencies` with `translateSchemaDependency`/`translatePropertyDependency`, `parseItems` and
 *   `parseAdditionalItems`, `translateEncryptionKeywords`, and `_parse`, whose top level is always false
 *   for a type other than object);
 * - EXPRESSION_TYPE: src/mongo/db/matcher/expression_type.h (`InternalSchemaBinDataSubTypeExpression`,
 *   `InternalSchemaBinDataEncryptedTypeExpression` and its 18-byte `FleBlobHeader`);
 * - MIN_MAX_PROPERTIES_JS, DEPENDENCIES_JS, ADDITIONAL_ITEMS_JS, ENCRYPT_JS:
 *   jstests/core/json_schema/{min_max_properties,dependencies,additional_items,encrypt}.js, whose
 *   `assertSchemaMatch` cases are repeated here (same schema, document and expected answer);
 * - DOC_VALIDATION_ERROR: src/mongo/db/matcher/doc_validation_error.cpp (`generateNumPropertiesError`,
 *   `generateSingleDependencyError`, `generateJSONSchemaAdditionalItemsFalseError`,
 *   `generateJSONSchemaArraySingleSchemaError`, `generateJSONSchemaItemsSchemaArrayError`, the visitors
 *   of `InternalSchemaBinDataSubTypeExpression` and `InternalSchemaBinDataEncryptedTypeExpression`, and
 *   the AndMatchExpression details names `failingDependencies`/`details`) for `errInfo.details`.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

/** A schema, a document and whether MongoDB says the document matches. */
type Case = [schema: object, doc: Record<string, unknown>, matches: boolean];

describe.each(drivers)('$jsonSchema keyword matching ($name)', (driver) => {
  const t = connect(driver, 'jsm');
  let serial = 0;

  /**
   * `assertSchemaMatch` of jstests/libs/assert_schema_match.js: the document is found by
   * `find({ $jsonSchema })` exactly when it matches, and a collection validated by the schema takes it
   * exactly when it matches (121 otherwise).
   */
  async function assertSchemaMatch([schema, doc, matches]: Case): Promise<void> {
    serial++;
    const label = JSON.stringify({ schema, doc });
    const plain = t.db.collection<any>(`plain${serial}`);
    await plain.insertOne({ ...doc });
    const found = await plain.find({ $jsonSchema: schema }).toArray();
    expect(found.length, `find ${label}`).toBe(matches ? 1 : 0);
    await t.db.createCollection(`validated${serial}`, { validator: { $jsonSchema: schema } });
    const validated = t.db.collection<any>(`validated${serial}`);
    if (matches) await validated.insertOne({ ...doc });
    else expect((await failure(() => validated.insertOne({ ...doc })))['code'], `insert ${label}`).toBe(121);
    await plain.drop();
    await validated.drop();
  }

  async function checkAll(cases: Case[]): Promise<void> {
    for (const c of cases) await assertSchemaMatch(c);
  }

  it('applies minProperties and maxProperties to objects only, counting _id at the top', async () => {
    // MIN_MAX_PROPERTIES_JS; a non-object below the top passes (JSON_SCHEMA_PARSER: makeRestriction).
    await checkAll([
      [{ minProperties: 0 }, {}, true],
      [{ minProperties: 0 }, { a: 1, b: 2 }, true],
      // Every stored document has an _id, so maxProperties 0 matches nothing.
      [{ maxProperties: 0 }, {}, false],
      [{ maxProperties: 0 }, { a: 1 }, false],
      [{ minProperties: 2 }, { _id: 0 }, false],
      [{ minProperties: 2 }, { _id: 0, a: 1 }, true],
      [{ maxProperties: 2 }, { _id: 0, a: 1 }, true],
      [{ maxProperties: 2 }, { _id: 0, a: 1, b: 2 }, false],
      [{ properties: { a: { maxProperties: 1 } } }, { a: 1 }, true],
      [{ properties: { a: { maxProperties: 1 } } }, { a: {} }, true],
      [{ properties: { a: { maxProperties: 1 } } }, { a: { b: 1, c: 1 } }, false],
      [{ properties: { a: { maxProperties: 0 } } }, { a: { b: 1 } }, false],
      [{ properties: { a: { minProperties: 1 } } }, { a: 1 }, true],
      [{ properties: { a: { minProperties: 1 } } }, { a: {} }, false],
      [{ properties: { a: { minProperties: 1 } } }, { a: { b: 1 } }, true],
      // An array is not an object: the count does not apply to it.
      [{ properties: { a: { minProperties: 1 } } }, { a: [] }, true],
    ]);
  });

  it('takes limits of any number type: a long or decimal limit binds as a double does', async () => {
    // JSON_SCHEMA_PARSER: parseLength and parseMaximum/parseMinimum accept every numeric BSON type.
    const { Decimal128, Long } = driver.bson;
    await checkAll([
      [{ properties: { s: { minLength: new Long(3) } } }, { s: 'ab' }, false],
      [{ properties: { s: { minLength: new Long(3) } } }, { s: 'abc' }, true],
      [{ properties: { s: { maxLength: new Decimal128('2') } } }, { s: 'abc' }, false],
      [{ properties: { a: { maxItems: new Long(1) } } }, { a: [1, 2] }, false],
      [{ properties: { a: { minItems: new Decimal128('2') } } }, { a: [1] }, false],
      [{ properties: { n: { minimum: new Decimal128('10') } } }, { n: 5 }, false],
      [{ properties: { n: { maximum: new Long(10) } } }, { n: 11 }, false],
      [{ properties: { n: { maximum: new Long(10) } } }, { n: 10 }, true],
    ]);
  });

  it('applies dependencies: property lists and schemas, at the top and nested', async () => {
    // DEPENDENCIES_JS.
    const schemaDep = {
      dependencies: { foo: { required: ['bar'], properties: { baz: { type: 'string' } } } },
    };
    const propertyDep = { dependencies: { foo: ['bar', 'baz'] } };
    const nested = { properties: { obj: { dependencies: { a: ['b'], c: { required: ['d'] } } } } };
    await checkAll([
      [{ dependencies: { foo: { required: ['bar'] } } }, {}, true],
      [{ dependencies: { foo: { required: ['bar'] } } }, { bar: 1 }, true],
      [{ dependencies: { foo: { required: ['bar'] } } }, { foo: 1 }, false],
      [schemaDep, { foo: 1, bar: 1 }, true],
      [schemaDep, { foo: 1, bar: 1, baz: 1 }, false],
      [schemaDep, { foo: 1, bar: 1, baz: 'str' }, true],
      [propertyDep, { bar: 1 }, true],
      [propertyDep, { foo: 1 }, false],
      [propertyDep, { foo: 1, bar: 1 }, false],
      [propertyDep, { foo: 1, baz: 1 }, false],
      [propertyDep, { foo: 1, bar: 1, baz: 1 }, true],
      // Presence is what counts: a null value is present.
      [propertyDep, { foo: null, bar: null, baz: null }, true],
      [nested, {}, true],
      [nested, { obj: 1 }, true],
      [nested, { obj: {} }, true],
      [nested, { obj: { b: 1, d: 1 } }, true],
      [nested, { obj: { a: 1, b: 1, c: 1 } }, false],
      [nested, { obj: { a: 1, c: 0, d: 1 } }, false],
      [nested, { obj: { a: 1, b: 1, c: 1, d: 1 } }, true],
      [{ dependencies: {} }, {}, true],
      // A string entry named title or description is an annotation (JSON_SCHEMA_PARSER).
      [{ dependencies: { title: 'note', foo: ['bar'] } }, { title: 1, foo: 1 }, false],
      [{ dependencies: { title: 'note', foo: ['bar'] } }, { title: 1 }, true],
    ]);
  });

  it('applies additionalItems after a list of items, and only then', async () => {
    // ADDITIONAL_ITEMS_JS.
    const banned = {
      properties: { a: { items: [{ type: 'number' }, { type: 'string' }], additionalItems: false } },
    };
    const typed = {
      properties: {
        a: { items: [{ type: 'number' }, { type: 'string' }], additionalItems: { type: 'object' } },
      },
    };
    await checkAll([
      // No effect at the top level, without items, or with a single items schema.
      [{ items: [{ type: 'number' }], additionalItems: false }, {}, true],
      [{ properties: { a: { additionalItems: false } } }, { a: [1, 2, 3] }, true],
      [{ properties: { a: { items: {}, additionalItems: false } } }, { a: [1, 2, 3] }, true],
      [{ properties: { a: { items: {}, additionalItems: { type: 'object' } } } }, { a: [1, 2, 3] }, true],
      [banned, { a: [] }, true],
      [banned, { a: [229] }, true],
      [banned, { a: [229, 'West 43rd'] }, true],
      [banned, { a: [229, 'West 43rd', 'Street'] }, false],
      [banned, { a: 'not an array' }, true],
      [
        { properties: { a: { items: [{ type: 'number' }, { type: 'string' }], additionalItems: true } } },
        { a: [229, 'West 43rd', 'Street'] },
        true,
      ],
      [typed, { a: [229, 'West 43rd'] }, true],
      [typed, { a: [229, 'West 43rd', 'Street'] }, false],
      [typed, { a: [229, 'West 43rd', {}] }, true],
      [{ properties: { a: { items: [{ not: {} }], additionalItems: false } } }, { a: [] }, true],
      [{ properties: { a: { items: [{ not: {} }], additionalItems: { not: {} } } } }, { a: [] }, true],
    ]);
  });

  it('applies encrypt: BinData subtype 6 only, of the encrypted type encrypt.bsonType names', async () => {
    // ENCRYPT_JS for the subtype; EXPRESSION_TYPE for encrypt.bsonType: a deterministic (1) or random (2)
    // blob whose byte 17 (after the subtype byte and the 16-byte key id) is the original BSON type.
    const { Binary } = driver.bson;
    const encrypted = new Binary(Buffer.alloc(21), 6);
    const plainBin = new Binary(Buffer.alloc(21), 0);
    const blob = (kind: number, type: number): InstanceType<typeof Binary> =>
      new Binary(Buffer.from([kind, ...new Array<number>(16).fill(7), type, 1, 2, 3]), 6);
    const bin = { properties: { bin: { encrypt: {} } } };
    const inObject = { properties: { obj: { type: 'object', properties: { a: { encrypt: {} } } } } };
    const inArray = { properties: { arr: { type: 'array', items: { encrypt: {} } } } };
    const typedString = { properties: { s: { encrypt: { bsonType: 'string' } } } };
    await checkAll([
      [bin, { bin: encrypted }, true],
      [bin, { bin: {} }, false],
      [bin, { bin: plainBin }, false],
      [bin, {}, true],
      [inObject, { obj: { a: encrypted } }, true],
      [inObject, { obj: { a: plainBin } }, false],
      [inArray, { arr: [encrypted, encrypted] }, true],
      [inArray, { arr: [encrypted, plainBin] }, false],
      // Arrays are not traversed.
      [bin, { bin: [encrypted, encrypted] }, false],
      // The top level is an object, never BinData.
      [{ encrypt: {} }, {}, false],
      [typedString, { s: blob(1, 2) }, true],
      [typedString, { s: blob(2, 2) }, true],
      [typedString, { s: blob(1, 16) }, false],
      [typedString, { s: blob(6, 2) }, false],
      [typedString, { s: new Binary(Buffer.from([1, 2]), 6) }, false],
      [{ properties: { n: { encrypt: { bsonType: ['number', 'bool'] } } } }, { n: blob(2, 18) }, true],
      [{ properties: { n: { encrypt: { bsonType: 'number' } } } }, { n: blob(2, 8) }, false],
    ]);
  });

  describe('errInfo.details', () => {
    async function rejected(validator: object, doc: object): Promise<Record<string, any>> {
      serial++;
      await t.db.createCollection(`details${serial}`, { validator: { $jsonSchema: validator } });
      const error = await failure(() => t.db.collection<any>(`details${serial}`).insertOne(doc));
      expect(error['code']).toBe(121);
      return error['errInfo']['details'];
    }

    it('reports minProperties and maxProperties with numberOfProperties', async () => {
      // DOC_VALIDATION_ERROR generateNumPropertiesError; the rules come in translateObjectKeywords' order.
      const details = await rejected(
        { required: ['x'], maxProperties: 2, properties: { a: { minProperties: 2 } } },
        { _id: 1, a: { b: 1 }, c: 2 },
      );
      expect(details).toEqual({
        operatorName: '$jsonSchema',
        schemaRulesNotSatisfied: [
          {
            operatorName: 'properties',
            propertiesNotSatisfied: [
              {
                propertyName: 'a',
                details: [
                  {
                    operatorName: 'minProperties',
                    specifiedAs: { minProperties: 2 },
                    reason: 'specified number of properties was not satisfied',
                    numberOfProperties: 1,
                  },
                ],
              },
            ],
          },
          { operatorName: 'required', specifiedAs: { required: ['x'] }, missingProperties: ['x'] },
          {
            operatorName: 'maxProperties',
            specifiedAs: { maxProperties: 2 },
            reason: 'specified number of properties was not satisfied',
            numberOfProperties: 3,
          },
        ],
      });
    });

    it('reports each failing dependency with its conditionalProperty', async () => {
      // DOC_VALIDATION_ERROR generateSingleDependencyError: missingProperties for a list, the
      // subschema's details for a schema; dependencies that hold are left out.
      const details = await rejected(
        { dependencies: { a: ['b', 'c'], d: { properties: { e: { bsonType: 'string' } } }, f: ['a'] } },
        { _id: 1, a: 1, c: 1, d: 1, e: 2 },
      );
      expect(details).toEqual({
        operatorName: '$jsonSchema',
        schemaRulesNotSatisfied: [
          {
            operatorName: 'dependencies',
            failingDependencies: [
              { conditionalProperty: 'a', missingProperties: ['b'] },
              {
                conditionalProperty: 'd',
                details: [
                  {
                    operatorName: 'properties',
                    propertiesNotSatisfied: [
                      {
                        propertyName: 'e',
                        details: [
                          {
                            operatorName: 'bsonType',
                            specifiedAs: { bsonType: 'string' },
                            reason: 'type did not match',
                            consideredValue: 2,
                            consideredType: 'int',
                          },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      });
    });

    it('reports a list of items and additionalItems', async () => {
      // DOC_VALIDATION_ERROR generateJSONSchemaItemsSchemaArrayError (one { itemIndex, details } per
      // failing position), generateJSONSchemaAdditionalItemsFalseError and, for a schema,
      // generateJSONSchemaArraySingleSchemaError.
      const falseDetails = await rejected(
        { properties: { a: { items: [{ bsonType: 'int' }, {}], additionalItems: false } } },
        { _id: 1, a: ['x', 2, 3, 4] },
      );
      expect(falseDetails).toEqual({
        operatorName: '$jsonSchema',
        schemaRulesNotSatisfied: [
          {
            operatorName: 'properties',
            propertiesNotSatisfied: [
              {
                propertyName: 'a',
                details: [
                  {
                    operatorName: 'items',
                    details: [
                      {
                        itemIndex: 0,
                        details: [
                          {
                            operatorName: 'bsonType',
                            specifiedAs: { bsonType: 'int' },
                            reason: 'type did not match',
                            consideredValue: 'x',
                            consideredType: 'string',
                          },
                        ],
                      },
                    ],
                  },
                  {
                    operatorName: 'additionalItems',
                    specifiedAs: { additionalItems: false },
                    reason: 'found additional items',
                    additionalItems: [3, 4],
                  },
                ],
              },
            ],
          },
        ],
      });
      const schemaDetails = await rejected(
        { properties: { a: { items: [{}], additionalItems: { description: 'd', bsonType: 'int' } } } },
        { _id: 1, a: ['x', 2, 'y'] },
      );
      expect(schemaDetails['schemaRulesNotSatisfied'][0]['propertiesNotSatisfied'][0]['details']).toEqual([
        {
          operatorName: 'additionalItems',
          description: 'd',
          reason: 'At least one additional item did not match the sub-schema',
          itemIndex: 2,
          details: [
            {
              operatorName: 'bsonType',
              specifiedAs: { bsonType: 'int' },
              reason: 'type did not match',
              consideredValue: 'y',
              consideredType: 'string',
            },
          ],
        },
      ]);
    });

    it('reports encrypt', async () => {
      // DOC_VALIDATION_ERROR: "value was not encrypted" (subtype), "encrypted value has wrong type".
      const { Binary } = driver.bson;
      const details = await rejected(
        { properties: { a: { encrypt: {} }, b: { encrypt: { bsonType: 'string' } } } },
        { _id: 1, a: 'clear', b: new Binary(Buffer.from([1, ...new Array<number>(16).fill(0), 16]), 6) },
      );
      expect(details).toEqual({
        operatorName: '$jsonSchema',
        schemaRulesNotSatisfied: [
          {
            operatorName: 'properties',
            propertiesNotSatisfied: [
              {
                propertyName: 'a',
                details: [{ operatorName: 'encrypt', reason: 'value was not encrypted' }],
              },
              {
                propertyName: 'b',
                details: [{ operatorName: 'encrypt', reason: 'encrypted value has wrong type' }],
              },
            ],
          },
        ],
      });
    });
  });
});
