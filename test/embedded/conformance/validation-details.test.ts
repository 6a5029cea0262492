/**
 * The `errInfo` of a 121 DocumentValidationFailure. Expected shapes come from MongoDB's own tests and
 * source (mongodb/mongo): jstests/core/doc_validation/doc_validation_error.js (DOC_ERROR_JS),
 * jstests/core/doc_validation/doc_validation_options.js (DOC_OPTIONS_JS) and
 * src/mongo/db/matcher/doc_validation_error.cpp (DOC_ERROR_CPP, for reason texts), and from the manual's
 * "Schema Validation" pages.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, external, failure } from '../helpers.js';

describe.each(drivers)('document validation errInfo ($name)', (driver) => {
  const t = connect(driver, 'vald');

  async function rejected(name: string, validator: object, doc: object): Promise<Record<string, any>> {
    await t.db.createCollection(name, { validator });
    const error = await failure(() => t.db.collection<any>(name).insertOne(doc));
    expect(error['code']).toBe(121);
    return error['errInfo'];
  }

  it('explains a $jsonSchema failure: nested properties, enum, bsonType and required', async () => {
    // DOC_ERROR_JS "Students collection" (schema from the manual's schema validation page).
    const validator = {
      $jsonSchema: {
        bsonType: 'object',
        required: ['name', 'year', 'major', 'address'],
        properties: {
          name: { bsonType: 'string', description: 'must be a string and is required' },
          year: { bsonType: 'int', minimum: 2017, maximum: 3017, description: 'must be an integer' },
          major: {
            enum: ['Math', 'English', 'Computer Science', 'History', null],
            description: 'can only be one of the enum values and is required',
          },
          gpa: { bsonType: ['double'], description: 'must be a double if the field exists' },
          address: {
            bsonType: 'object',
            required: ['city'],
            properties: {
              street: { bsonType: 'string', description: 'must be a string if the field exists' },
              city: { bsonType: 'string', description: 'must be a string and is required' },
            },
          },
        },
      },
    };
    const { Int32 } = driver.bson;
    const doc = {
      _id: 1,
      year: new Int32(2020),
      major: 'Software Engineering',
      gpa: 5.5,
      address: { city: 'NYC', street: new Int32(5) },
    };
    expect(await rejected('students', validator, doc)).toEqual({
      failingDocumentId: 1,
      details: {
        operatorName: '$jsonSchema',
        schemaRulesNotSatisfied: [
          {
            operatorName: 'properties',
            propertiesNotSatisfied: [
              {
                propertyName: 'major',
                description: 'can only be one of the enum values and is required',
                details: [
                  {
                    operatorName: 'enum',
                    specifiedAs: { enum: ['Math', 'English', 'Computer Science', 'History', null] },
                    reason: 'value was not found in enum',
                    consideredValue: 'Software Engineering',
                  },
                ],
              },
              {
                propertyName: 'address',
                details: [
                  {
                    operatorName: 'properties',
                    propertiesNotSatisfied: [
                      {
                        propertyName: 'street',
                        description: 'must be a string if the field exists',
                        details: [
                          {
                            operatorName: 'bsonType',
                            specifiedAs: { bsonType: 'string' },
                            reason: 'type did not match',
                            consideredValue: 5,
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
          {
            operatorName: 'required',
            specifiedAs: { required: ['name', 'year', 'major', 'address'] },
            missingProperties: ['name'],
          },
        ],
      },
    });
  });

  it('explains minimum, maximum, minLength, maxLength, pattern and a JSON type', async () => {
    // Reasons: DOC_ERROR_CPP generateComparisonError, generateStringLengthError, RegexMatchExpression and
    // generateTypeError; the `type` and `pattern` shapes: DOC_ERROR_JS "component.json".
    const validator = {
      $jsonSchema: {
        properties: {
          lo: { minimum: 10 },
          hi: { maximum: 10 },
          short: { minLength: 3 },
          long: { maxLength: 2 },
          email: { pattern: '@' },
          flag: { type: 'boolean' },
        },
      },
    };
    const doc = { _id: 2, lo: 1, hi: 20, short: 'ab', long: 'abc', email: 'nope', flag: 0 };
    const detail = (propertyName: string, d: object): object => ({ propertyName, details: [d] });
    const { details } = await rejected('scalars', validator, doc);
    expect(details).toEqual({
      operatorName: '$jsonSchema',
      schemaRulesNotSatisfied: [
        {
          operatorName: 'properties',
          propertiesNotSatisfied: [
            detail('lo', {
              operatorName: 'minimum',
              specifiedAs: { minimum: 10 },
              reason: 'comparison failed',
              consideredValue: 1,
            }),
            detail('hi', {
              operatorName: 'maximum',
              specifiedAs: { maximum: 10 },
              reason: 'comparison failed',
              consideredValue: 20,
            }),
            detail('short', {
              operatorName: 'minLength',
              specifiedAs: { minLength: 3 },
              reason: 'specified string length was not satisfied',
              consideredValue: 'ab',
            }),
            detail('long', {
              operatorName: 'maxLength',
              specifiedAs: { maxLength: 2 },
              reason: 'specified string length was not satisfied',
              consideredValue: 'abc',
            }),
            detail('email', {
              operatorName: 'pattern',
              specifiedAs: { pattern: '@' },
              reason: 'regular expression did not match',
              consideredValue: 'nope',
            }),
            detail('flag', {
              operatorName: 'type',
              specifiedAs: { type: 'boolean' },
              reason: 'type did not match',
              consideredValue: 0,
              consideredType: 'int',
            }),
          ],
        },
      ],
    });
  });

  it('explains additionalProperties false and a failing update', async () => {
    // DOC_ERROR_JS "adonisrc.schema.json" (additionalProperties) and "Node structure validation".
    const validator = {
      $jsonSchema: {
        additionalProperties: false,
        properties: { _id: {}, children: { bsonType: ['array'], maxItems: 2 } },
      },
    };
    const errInfo = await rejected('extra', validator, { _id: 3, children: [], dir: true });
    expect(errInfo['details']).toEqual({
      operatorName: '$jsonSchema',
      schemaRulesNotSatisfied: [
        {
          operatorName: 'additionalProperties',
          specifiedAs: { additionalProperties: false },
          additionalProperties: ['dir'],
        },
      ],
    });
    const coll = t.db.collection<any>('extra');
    await coll.insertOne({ _id: 4, children: [] });
    const error = await failure(() => coll.updateOne({ _id: 4 }, { $set: { children: 2 } }));
    expect(error['errInfo']).toEqual({
      failingDocumentId: 4,
      details: {
        operatorName: '$jsonSchema',
        schemaRulesNotSatisfied: [
          {
            operatorName: 'properties',
            propertiesNotSatisfied: [
              {
                propertyName: 'children',
                details: [
                  {
                    operatorName: 'bsonType',
                    specifiedAs: { bsonType: ['array'] },
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
    });
  });

  it('reports a single query clause without an $and wrapper', async () => {
    // DOC_OPTIONS_JS: validator {a: 1}, document {a: 2}.
    expect(await rejected('eq', { a: 1 }, { _id: 5, a: 2 })).toEqual({
      failingDocumentId: 5,
      details: {
        operatorName: '$eq',
        specifiedAs: { a: 1 },
        reason: 'comparison failed',
        consideredValue: 2,
      },
    });
  });

  it('lists the failed clauses of an implicit $and', async () => {
    // Clause shape {index, details}: DOC_ERROR_JS "Contacts" ($or); reasons: DOC_ERROR_CPP (comparison
    // failed, field was missing, path does not exist, no matching value found in array, type did not match).
    const validator = {
      age: { $gte: 0, $lt: 150 },
      name: { $type: 'string' },
      email: { $exists: true },
      status: { $in: ['A', 'B'] },
      score: { $gt: 5 },
    };
    const { details } = await rejected('and', validator, { _id: 6, age: -1, name: 5, score: [1, 2] });
    expect(details).toEqual({
      operatorName: '$and',
      clausesNotSatisfied: [
        {
          index: 0,
          details: {
            operatorName: '$gte',
            specifiedAs: { age: { $gte: 0 } },
            reason: 'comparison failed',
            consideredValue: -1,
          },
        },
        {
          index: 2,
          details: {
            operatorName: '$type',
            specifiedAs: { name: { $type: 'string' } },
            reason: 'type did not match',
            consideredValue: 5,
            consideredType: 'int',
          },
        },
        {
          index: 3,
          details: {
            operatorName: '$exists',
            specifiedAs: { email: { $exists: true } },
            reason: 'path does not exist',
          },
        },
        {
          index: 4,
          details: {
            operatorName: '$in',
            specifiedAs: { status: { $in: ['A', 'B'] } },
            reason: 'field was missing',
          },
        },
        {
          index: 5,
          details: {
            operatorName: '$gt',
            specifiedAs: { score: { $gt: 5 } },
            reason: 'comparison failed',
            consideredValues: [1, 2],
          },
        },
      ],
    });
  });

  it.skipIf(external)('gives a minimal details object for validators it does not explain', async () => {
    // Not MongoDB's output: plume's documented fallback (operator name and an empty list).
    expect((await rejected('mod', { a: { $mod: [2, 0] } }, { _id: 7, a: 3 }))['details']).toEqual({
      operatorName: '$mod',
      clausesNotSatisfied: [],
    });
    const schema = { $jsonSchema: { patternProperties: { '^x': { bsonType: 'string' } } } };
    expect((await rejected('pattern', schema, { _id: 8, xa: 3 }))['details']).toEqual({
      operatorName: '$jsonSchema',
      schemaRulesNotSatisfied: [],
    });
  });
});
