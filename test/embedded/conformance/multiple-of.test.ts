/**
 * The `$jsonSchema` keyword `multipleOf`, in collection validators and in query filters, as MongoDB 7.0
 * implements it (mongodb/mongo): parsed by `parseMultipleOf` in
 * src/mongo/db/matcher/schema/json_schema_parser.cpp (JSON_SCHEMA_PARSER), matched by
 * InternalSchemaFmodMatchExpression (src/mongo/db/matcher/schema/expression_internal_schema_fmod.cpp,
 * FMOD: the Decimal128 remainder of the value by the divisor must be zero, each side taken by
 * `BSONElement::numberDecimal()`, which rounds a double to 15 significant digits), and explained in a 121
 * error's errInfo as src/mongo/db/matcher/doc_validation_error_json_schema_test.cpp (ERROR_TEST) expects.
 * Messages built from the source are checked with toContain.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const NOT_MULTIPLE = 'considered value is not a multiple of the specified value';

describe.each(drivers)('jsonSchema multipleOf ($name)', (driver) => {
  const t = connect(driver, 'multiple_of');
  const { Decimal128, Long } = driver.bson;

  /** Creates `name` with `validator`, inserts `doc` and returns the errInfo of the 121 it fails with. */
  async function rejected(name: string, validator: object, doc: object): Promise<Record<string, any>> {
    await t.db.createCollection(name, { validator });
    const error = await failure(() => t.db.collection<any>(name).insertOne(doc));
    expect(error['code']).toBe(121);
    return error['errInfo'];
  }

  it('refuses a number that is not a multiple, with the errInfo MongoDB gives', async () => {
    // ERROR_TEST BasicMultipleOf: { type: 'number', multipleOf: 2.1 } and { a: 1.1 }.
    const validator = { $jsonSchema: { properties: { a: { type: 'number', multipleOf: 2.1 } } } };
    expect(await rejected('basic', validator, { _id: 1, a: 1.1 })).toEqual({
      failingDocumentId: 1,
      details: {
        operatorName: '$jsonSchema',
        schemaRulesNotSatisfied: [
          {
            operatorName: 'properties',
            propertiesNotSatisfied: [
              {
                propertyName: 'a',
                details: [
                  {
                    operatorName: 'multipleOf',
                    specifiedAs: { multipleOf: 2.1 },
                    reason: NOT_MULTIPLE,
                    consideredValue: 1.1,
                  },
                ],
              },
            ],
          },
        ],
      },
    });
    // FMOD on 15-digit decimals: 4.2 and 6.3 are multiples of 2.1 (6.3 % 2.1 is not 0 in binary doubles).
    const coll = t.db.collection<any>('basic');
    await coll.insertMany([
      { _id: 2, a: 4.2 },
      { _id: 3, a: 6.3 },
      { _id: 4, a: -2.1 },
      { _id: 5, a: 0 },
    ]);
    // JSON_SCHEMA_PARSER makeRestriction: without a stated type, multipleOf leaves non-numbers and missing
    // fields alone.
    await t.db.createCollection('untyped', {
      validator: { $jsonSchema: { properties: { a: { multipleOf: 2 } } } },
    });
    await t.db.collection<any>('untyped').insertMany([{ a: 'x' }, {}, { a: [3] }, { a: 4 }]);
    expect(await t.db.collection('untyped').countDocuments()).toBe(4);
  });

  it('explains untyped, non-numeric and nested failures as MongoDB does', async () => {
    // ERROR_TEST MultipleOfNoExplicitType: the same entry without a stated type.
    const untyped = await rejected(
      'no_type',
      { $jsonSchema: { properties: { a: { multipleOf: 2.1 } } } },
      {
        _id: 1,
        a: 1.1,
      },
    );
    expect(untyped['details']['schemaRulesNotSatisfied'][0]['propertiesNotSatisfied'][0]['details']).toEqual([
      {
        operatorName: 'multipleOf',
        specifiedAs: { multipleOf: 2.1 },
        reason: NOT_MULTIPLE,
        consideredValue: 1.1,
      },
    ]);
    // ERROR_TEST MultipleOfNonNumeric: under type 'number' a string fails multipleOf too, before the type.
    const nonNumeric = await rejected(
      'non_numeric',
      { $jsonSchema: { properties: { a: { type: 'number', multipleOf: 2.1 } } } },
      { _id: 1, a: 'foo' },
    );
    expect(
      nonNumeric['details']['schemaRulesNotSatisfied'][0]['propertiesNotSatisfied'][0]['details'],
    ).toEqual([
      {
        operatorName: 'multipleOf',
        specifiedAs: { multipleOf: 2.1 },
        reason: 'type did not match',
        consideredType: 'string',
        expectedTypes: ['decimal', 'double', 'int', 'long'],
        consideredValue: 'foo',
      },
      {
        operatorName: 'type',
        specifiedAs: { type: 'number' },
        reason: 'type did not match',
        consideredValue: 'foo',
        consideredType: 'string',
      },
    ]);
    // ERROR_TEST MultipleOfNested: properties within properties.
    const nested = await rejected(
      'nested',
      { $jsonSchema: { properties: { a: { properties: { b: { multipleOf: 2.1 } } } } } },
      { _id: 1, a: { b: 1 } },
    );
    expect(nested['details']).toEqual({
      operatorName: '$jsonSchema',
      schemaRulesNotSatisfied: [
        {
          operatorName: 'properties',
          propertiesNotSatisfied: [
            {
              propertyName: 'a',
              details: [
                {
                  operatorName: 'properties',
                  propertiesNotSatisfied: [
                    {
                      propertyName: 'b',
                      details: [
                        {
                          operatorName: 'multipleOf',
                          specifiedAs: { multipleOf: 2.1 },
                          reason: NOT_MULTIPLE,
                          consideredValue: 1,
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

  it('compares ints, longs and decimals exactly', async () => {
    // FMOD: every number type is taken as a Decimal128, so longs and decimals are exact.
    const validator = {
      $jsonSchema: {
        properties: { n: { multipleOf: new Long(3) }, d: { multipleOf: new Decimal128('0.1') } },
      },
    };
    await t.db.createCollection('exact', { validator });
    const coll = t.db.collection<any>('exact');
    await coll.insertMany([
      { n: new Long('9007199254740993') },
      { n: 9 },
      { d: new Decimal128('0.3') },
      { d: new Decimal128('12345678901234567890.1') },
    ]);
    expect((await failure(() => coll.insertOne({ n: new Long('9007199254740994') })))['code']).toBe(121);
    expect((await failure(() => coll.insertOne({ d: new Decimal128('0.35') })))['code']).toBe(121);
    expect(await coll.countDocuments()).toBe(4);
  });

  it('filters documents with $jsonSchema in find and $match', async () => {
    const coll = t.db.collection<{ _id: number; n?: unknown }>('filter');
    await coll.insertMany([
      { _id: 1, n: 10 },
      { _id: 2, n: 12 },
      { _id: 3, n: 'x' },
      { _id: 4 },
      { _id: 5, n: 2.5 },
    ]);
    const filter = { $jsonSchema: { properties: { n: { multipleOf: 5 } } } };
    // FMOD on numbers only; JSON_SCHEMA_PARSER makeRestriction lets other types and missing fields pass.
    const found = await coll.find(filter).sort({ _id: 1 }).toArray();
    expect(found.map((d) => d._id)).toEqual([1, 3, 4]);
    const matched = await coll.aggregate([{ $match: filter }, { $sort: { _id: 1 } }]).toArray();
    expect(matched.map((d) => d['_id'])).toEqual([1, 3, 4]);
    // The same under a stated numeric type: only multiples of 2.5 that are numbers.
    const typed = {
      $jsonSchema: { required: ['n'], properties: { n: { bsonType: 'number', multipleOf: 2.5 } } },
    };
    expect((await coll.find(typed).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([1, 5]);
  });

  it('refuses a multipleOf that is not a positive number when it parses the schema', async () => {
    const refusals: [unknown, number, string][] = [
      // JSON_SCHEMA_PARSER parseMultipleOf: FailedToParse for zero or a negative number (decimal too) …
      [0, 9, "$jsonSchema keyword 'multipleOf' must have a positive value"],
      [-2, 9, "$jsonSchema keyword 'multipleOf' must have a positive value"],
      [new Decimal128('-0.5'), 9, "$jsonSchema keyword 'multipleOf' must have a positive value"],
      [-Infinity, 9, "$jsonSchema keyword 'multipleOf' must have a positive value"],
      // … TypeMismatch for a non-number …
      ['2', 14, "$jsonSchema keyword 'multipleOf' must be a number"],
      // … and FMOD's constructor refuses a NaN or infinite divisor with BadValue.
      [NaN, 2, 'divisor cannot be NaN'],
      [Infinity, 2, 'divisor cannot be infinite'],
    ];
    for (const [divisor, code, message] of refusals) {
      const schema = { $jsonSchema: { properties: { a: { multipleOf: divisor } } } };
      // A validator is parsed by create; a filter before any document is read, even with no collection.
      const created = await failure(() => t.db.createCollection('refused', { validator: schema }));
      expect(created['code']).toBe(code);
      expect(created['message']).toContain(message);
      const found = await failure(() => t.db.collection('missing').find(schema).toArray());
      expect(found['code']).toBe(code);
      expect(found['message']).toContain(message);
    }
    // JSON_SCHEMA_PARSER: the checks come before "no effect at the top level"; a nested $match parses too.
    const top = await failure(() =>
      t.db
        .collection('missing')
        .find({ $jsonSchema: { multipleOf: 0 } })
        .toArray(),
    );
    expect(top['code']).toBe(9);
    const inAllOf = { $jsonSchema: { allOf: [{ properties: { a: { items: { multipleOf: -1 } } } }] } };
    const matched = await failure(() =>
      t.db
        .collection('missing')
        .aggregate([{ $match: inAllOf }])
        .toArray(),
    );
    expect(matched['code']).toBe(9);
    expect((await t.db.listCollections({ name: 'refused' }).toArray()).length).toBe(0);
  });
});
