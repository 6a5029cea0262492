/**
 * A dotted name in `$jsonSchema`'s `required`, `properties` or `dependencies` is a path, as MongoDB 7.0
 * reads it: json_schema_parser.cpp (mongodb/mongo) builds `required` names into
 * `ExistsMatchExpression(propertyName)` (translateRequired), each `properties` name into the path of its
 * nested schema's expressions (`_parse(expCtx, property.fieldNameStringData(), …)` in parseProperties,
 * guarded by `ExistsMatchExpression` of the same name) and `dependencies` names into
 * `ExistsMatchExpression`s (makeDependencyExistsClause, translatePropertyDependency). A match
 * expression's path is split at its dots (FieldRef), so `a.b` reaches `b` inside `a`, including inside
 * the documents of an array `a` ($exists semantics), and does not name a top-level field called `a.b`.
 * `additionalProperties` compares field names literally (parseAllowedProperties' property name set).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

/** A schema, a document and whether MongoDB matches it. */
type Case = [schema: object, doc: Record<string, unknown>, matches: boolean];

const cases: [string, Case][] = [
  ['required a.b, a.b present', [{ required: ['a.b'] }, { a: { b: 1 } }, true]],
  ['required a.b, a without b', [{ required: ['a.b'] }, { a: { c: 1 } }, false]],
  ['required a.b, a field named a.b', [{ required: ['a.b'] }, { 'a.b': 1 }, false]],
  ['required a.b, b in an array of documents', [{ required: ['a.b'] }, { a: [{ c: 1 }, { b: 1 }] }, true]],
  [
    'properties a.b, a.b of the wrong type',
    [{ properties: { 'a.b': { bsonType: 'string' } } }, { a: { b: 1 } }, false],
  ],
  [
    'properties a.b, a.b of the right type',
    [{ properties: { 'a.b': { bsonType: 'string' } } }, { a: { b: 'x' } }, true],
  ],
  [
    'properties a.b, a field named a.b',
    [{ properties: { 'a.b': { bsonType: 'string' } } }, { 'a.b': 1 }, true],
  ],
  ['properties a.b, a.b missing', [{ properties: { 'a.b': { bsonType: 'string' } } }, { a: 1 }, true]],
  ['dependencies on a.b, list', [{ dependencies: { 'a.b': ['c'] } }, { a: { b: 1 } }, false]],
  ['dependencies on a.b, list satisfied', [{ dependencies: { 'a.b': ['c'] } }, { a: { b: 1 }, c: 1 }, true]],
  ['dependencies listing a.b', [{ dependencies: { c: ['a.b'] } }, { c: 1, a: { b: 1 } }, true]],
  [
    'dependencies listing a.b, a field named a.b',
    [{ dependencies: { c: ['a.b'] } }, { c: 1, 'a.b': 1 }, false],
  ],
  ['a nested required x.y', [{ properties: { o: { required: ['x.y'] } } }, { o: { x: { y: 1 } } }, true]],
  ['a nested required x.y, missing', [{ properties: { o: { required: ['x.y'] } } }, { o: { x: {} } }, false]],
  [
    'additionalProperties false does not take a for a.b',
    [{ properties: { _id: {}, 'a.b': {} }, additionalProperties: false }, { _id: 1, a: { b: 1 } }, false],
  ],
  // _parse gives each keyword of a property's schema the property's path, and ANDs one expression per
  // keyword (json_schema_parser.cpp); a path through an array of documents reaches every element's
  // value, and an expression on it holds when any of them satisfies it. A restriction keyword stands
  // as (OR (NOT (INTERNAL_SCHEMA_TYPE kind)) restriction) (makeRestriction), or alone when the schema
  // states that one type, or not at all when it states another; $gte and $lte look inside an array.
  [
    'properties a.b through an array, minimum and maximum met by different values',
    [{ properties: { 'a.b': { minimum: 5, maximum: 10 } } }, { a: [{ b: 1 }, { b: 20 }] }, true],
  ],
  [
    'properties a.b through an array, minimum met by no number',
    [{ properties: { 'a.b': { minimum: 5 } } }, { a: [{ b: 1 }, { b: 'x' }] }, false],
  ],
  [
    'properties a.b through an array, a stated int and a minimum met by a double',
    [
      { properties: { 'a.b': { bsonType: 'int', minimum: 5 } } },
      { a: [{ b: 1 }, { b: 'x' }, { b: 7.5 }] },
      true,
    ],
  ],
  [
    'properties a.b through an array, enum and bsonType met by different values',
    [{ properties: { 'a.b': { enum: [1], bsonType: 'string' } } }, { a: [{ b: 1 }, { b: 's' }] }, true],
  ],
  [
    'properties a.b through an array, minimum met inside an array value',
    [{ properties: { 'a.b': { minimum: 5 } } }, { a: [{ b: 1 }, { b: [10] }] }, true],
  ],
  [
    'properties a.b through an array, required and properties met by different documents',
    [
      { properties: { 'a.b': { required: ['x'], properties: { y: { bsonType: 'int' } } } } },
      { a: [{ b: { x: 1, y: 's' } }, { b: { y: 2 } }] },
      true,
    ],
  ],
  [
    'properties a.b through an array, required met by no document',
    [{ properties: { 'a.b': { required: ['x'] } } }, { a: [{ b: { y: 1 } }, { b: 3 }] }, false],
  ],
];

describe.each(drivers)('$jsonSchema dotted property names ($name)', (driver) => {
  const t = connect(driver, 'json_schema_paths');
  let serial = 0;

  it.each(cases)('%s', async (_case, [schema, doc, matches]) => {
    serial++;
    const plain = t.db.collection<any>(`plain${serial}`);
    await plain.insertOne({ _id: 1, ...doc });
    expect(await plain.countDocuments({ $jsonSchema: schema })).toBe(matches ? 1 : 0);
    await t.db.createCollection(`validated${serial}`, { validator: { $jsonSchema: schema } });
    const validated = t.db.collection<any>(`validated${serial}`);
    if (matches) await validated.insertOne({ _id: 1, ...doc });
    else expect((await failure(() => validated.insertOne({ _id: 1, ...doc })))['code']).toBe(121);
  });
});
