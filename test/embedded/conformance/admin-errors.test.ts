/**
 * Malformed collection and index administration commands (`createIndexes`, `dropIndexes`, `create`,
 * `dbStats`) fail as MongoDB 7.0 fails them: with its code and exact message, checked before anything
 * is read or built. The answers are MongoDB's as recorded by FerretDB's integration suite (files named
 * per case); `collStats` of a missing collection answers empty statistics, as MongoDB does.
 */
import { describe, expect, it } from 'vitest';
import type { Db, Document } from 'mongodb';
import { connect, drivers, failure } from '../helpers.js';

/** [case, command on collection `c` of database `db`, code, message, preparation] */
type Case = [
  string,
  (c: string) => Document,
  number,
  string | ((db: string) => string),
  ((db: Db, c: string) => Promise<unknown>)?,
];

/** One document, so the collection exists (FerretDB's suite seeds one too). */
const seeded = (db: Db, c: string): Promise<unknown> => db.collection(c).insertOne({ v: 1 });

const spec = (indexes: unknown) => (c: string) => ({ createIndexes: c, indexes });

// MongoDB 7.0's answers recorded in FerretDB's integration/indexes_command_test.go,
// TestCreateIndexesCommandInvalidSpec.
const createIndexesSpecs: Case[] = [
  ['no indexes', spec([]), 2, 'Must specify at least one index to create', seeded],
  [
    'a missing indexes field',
    (c) => ({ createIndexes: c }),
    40414,
    "BSON field 'createIndexes.indexes' is missing but a required field",
    seeded,
  ],
  ['null indexes', spec(null), 10065, 'invalid parameter: expected an object (indexes)', seeded],
  [
    'indexes that is a document',
    spec({}),
    14,
    "BSON field 'createIndexes.indexes' is the wrong type 'object', expected type 'array'",
    seeded,
  ],
  [
    'indexes that is a number',
    spec(42),
    14,
    "BSON field 'createIndexes.indexes' is the wrong type 'int', expected type 'array'",
    seeded,
  ],
  [
    'an index that is a string',
    spec(['invalid']),
    14,
    "BSON field 'createIndexes.indexes.0' is the wrong type 'string', expected type 'object'",
    seeded,
  ],
  [
    'a unique _id index',
    spec([{ key: { _id: 1 }, name: '_id_', unique: true }]),
    197,
    "The field 'unique' is not valid for an _id index specification. " +
      'Specification: { key: { _id: 1 }, name: "_id_", unique: true, v: 2 }',
    seeded,
  ],
  [
    'an index without a name',
    spec([{ key: { v: 1 } }]),
    9,
    "Error in specification { key: { v: 1 } } :: caused by :: The 'name' field is a required property of an index specification",
    seeded,
  ],
  [
    'an index with an empty name',
    spec([{ key: { v: -1 }, name: '' }]),
    67,
    'Error in specification { key: { v: -1 }, name: "", v: 2 } :: caused by :: index name cannot be empty',
    seeded,
  ],
  [
    'an index without a key',
    spec([{}]),
    9,
    "Error in specification {} :: caused by :: The 'key' field is a required property of an index specification",
    seeded,
  ],
  [
    'the same index twice in one request',
    spec([
      { key: { v: 1 }, name: 'v_1' },
      { key: { v: 1 }, name: 'v_1' },
    ]),
    68,
    'Identical index already exists: v_1',
  ],
  [
    'two keys under one name in one request',
    spec([
      { key: { foo: -1 }, name: 'index-name' },
      { key: { bar: -1 }, name: 'index-name' },
    ]),
    86,
    'An existing index has the same name as the requested index. When index names are not specified, they ' +
      'are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ' +
      '{ v: 2, key: { bar: -1 }, name: "index-name" }, existing index: { v: 2, key: { foo: -1 }, name: "index-name" }',
  ],
  [
    'one key under two names in one request',
    spec([
      { key: { v: -1 }, name: 'foo' },
      { key: { v: -1 }, name: 'bar' },
    ]),
    85,
    'Index already exists with a different name: foo',
  ],
  [
    'a unique option that is a document',
    spec([{ key: { v: 1 }, name: 'unique_index', unique: {} }]),
    14,
    'Error in specification { key: { v: 1 }, name: "unique_index", unique: {} } :: caused by :: ' +
      "The field 'unique has value unique: {}, which is not convertible to bool",
    seeded,
  ],
];

const v1 = [{ key: { v: 1 }, name: 'v_1' }];

// MongoDB 7.0's answers recorded in FerretDB's integration/indexes_command_test.go,
// TestCreateIndexesCommandInvalidCollection and TestDropIndexesCommandInvalidCollection.
const invalidCollections: Case[] = [
  [
    'createIndexes on a number',
    () => ({ createIndexes: 42, indexes: v1 }),
    2,
    'collection name has invalid type int',
  ],
  [
    'createIndexes on null',
    () => ({ createIndexes: null, indexes: v1 }),
    2,
    'collection name has invalid type null',
  ],
  [
    'createIndexes on an empty name',
    () => ({ createIndexes: '', indexes: v1 }),
    73,
    (db) => `Invalid namespace specified '${db}.'`,
  ],
  [
    'dropIndexes on a number',
    () => ({ dropIndexes: 42, index: 'index' }),
    2,
    'collection name has invalid type int',
  ],
  [
    'dropIndexes on null',
    () => ({ dropIndexes: null, index: 'index' }),
    2,
    'collection name has invalid type null',
  ],
  [
    'dropIndexes on an empty name',
    () => ({ dropIndexes: '', index: 'index' }),
    73,
    (db) => `Invalid namespace specified '${db}.'`,
  ],
  [
    'dropIndexes on a missing collection',
    () => ({ dropIndexes: 'non-existent', index: 'index' }),
    26,
    (db) => `ns not found ${db}.non-existent`,
  ],
];

/**
 * A collection name of another type is refused with its type name, never with a JavaScript rendering
 * of the value: commands MongoDB 7.0 parses with its IDL answer BadValue (2)
 * (IDLParserContext::checkAndAssertCollectionName, idl_parser.cpp), validate and collStats
 * InvalidNamespace (73) (CommandHelpers::parseNsCollectionRequired). Found by the wire fuzzer
 * (test/fuzz), when the answer was "Invalid collection name: [object Object]".
 */
const collectionTypes: Case[] = [
  ['drop of a document', () => ({ drop: {} }), 2, 'collection name has invalid type object'],
  ['create of an array', () => ({ create: ['a'] }), 2, 'collection name has invalid type array'],
  ['collMod of a boolean', () => ({ collMod: true }), 2, 'collection name has invalid type bool'],
  ['listIndexes of a document', () => ({ listIndexes: {} }), 2, 'collection name has invalid type object'],
  [
    'aggregate of a document',
    () => ({ aggregate: { a: 1 }, pipeline: [], cursor: {} }),
    2,
    'collection name has invalid type object',
  ],
  [
    'findAndModify of a document',
    () => ({ findAndModify: {}, query: {}, remove: true }),
    2,
    'collection name has invalid type object',
  ],
  ['validate of a document', () => ({ validate: {} }), 73, 'collection name has invalid type object'],
  ['collStats of a document', () => ({ collStats: {} }), 73, 'collection name has invalid type object'],
];

const drop = (index: unknown) => (c: string) => ({ dropIndexes: c, index });
const withIndexes = (db: Db, c: string) =>
  db.command({
    createIndexes: c,
    indexes: [
      { key: { v: -1 }, name: 'v_-1' },
      { key: { 'v.foo': -1 }, name: 'v.foo_-1' },
    ],
  });

// MongoDB 7.0's answers recorded in FerretDB's integration/indexes_command_test.go,
// TestDropIndexesCommandErrors.
const dropIndexesErrors: Case[] = [
  [
    'an index that is a boolean',
    drop(true),
    14,
    "BSON field 'dropIndexes.index' is the wrong type 'bool', expected types '[string, object']",
    seeded,
  ],
  [
    'an array of key patterns',
    drop([{ v: -1 }, { 'v.foo': -1 }]),
    14,
    "BSON field 'dropIndexes.index' is the wrong type 'array', expected types '[string']",
    withIndexes,
  ],
  [
    'an array of numbers',
    drop([1]),
    14,
    "BSON field 'dropIndexes.index' is the wrong type 'array', expected types '[string']",
    seeded,
  ],
  [
    'a key pattern with a string',
    drop({ invalid: 'invalid' }),
    27,
    'can\'t find index with key: { invalid: "invalid" }',
    seeded,
  ],
  [
    'a missing key pattern',
    drop({ 'non-existent': 1 }),
    27,
    "can't find index with key: { non-existent: 1 }",
    seeded,
  ],
  [
    'a missing index field',
    (c) => ({ dropIndexes: c }),
    40414,
    "BSON field 'dropIndexes.index' is missing but a required field",
    seeded,
  ],
  ['a descending _id key pattern', drop({ _id: -1 }), 27, "can't find index with key: { _id: -1 }", seeded],
  [
    'a missing compound key pattern',
    drop({ 'non-existent1': -1, 'non-existent2': -1 }),
    27,
    "can't find index with key: { non-existent1: -1, non-existent2: -1 }",
    seeded,
  ],
];

const capped = (capped: unknown, size: unknown, max: unknown) => (c: string) => ({
  create: c,
  capped,
  size,
  max,
});

// MongoDB 7.0's answers recorded in FerretDB's integration/create_test.go,
// TestCreateCappedCommandInvalidSpec (a null option counts as absent).
const cappedErrors: Case[] = [
  [
    'a capped collection without size',
    capped(true, null, null),
    72,
    "the 'size' field is required when 'capped' is true",
  ],
  [
    'a capped collection with max and no size',
    capped(true, null, 500),
    72,
    "the 'size' field is required when 'capped' is true",
  ],
  [
    'a size that is a string',
    capped(true, 'foo', null),
    14,
    "BSON field 'create.size' is the wrong type 'string', expected types '[long, int, decimal, double']",
  ],
  [
    'a max that is a string',
    capped(true, 500, 'foo'),
    14,
    "BSON field 'create.max' is the wrong type 'string', expected types '[long, int, decimal, double']",
  ],
  [
    'a capped option that is a string',
    capped('foo', null, null),
    14,
    "BSON field 'create.capped' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
  ],
  [
    'a negative size',
    capped(true, -500, null),
    51024,
    "BSON field 'size' value must be >= 1, actual value '-500'",
  ],
];

const scaled = (scale: unknown) => () => ({ dbStats: 1, scale });

// MongoDB 7.0's answers recorded in FerretDB's integration/dbstats_scale_test.go, TestDBStatsScale.
const scaleErrors: Case[] = [
  ['a zero scale', scaled(0), 2, 'Scale factor must be greater than zero'],
  ['a negative scale', scaled(-100), 2, 'Scale factor must be greater than zero'],
  ['the most negative double scale', scaled(-Number.MAX_VALUE), 2, 'Scale factor must be greater than zero'],
  [
    'a string scale',
    scaled('1'),
    14,
    "BSON field 'dbStats.scale' is the wrong type 'string', expected types '[long, int, decimal, double']",
  ],
  [
    'a document scale',
    scaled({ a: 1 }),
    14,
    "BSON field 'dbStats.scale' is the wrong type 'object', expected types '[long, int, decimal, double']",
  ],
];

describe.each(drivers)('administration command errors ($name)', (driver) => {
  const t = connect(driver, 'admin_errors');
  let n = 0;

  it.each([
    ...createIndexesSpecs,
    ...invalidCollections,
    ...collectionTypes,
    ...dropIndexesErrors,
    ...cappedErrors,
    ...scaleErrors,
  ])('refuses %s', async (_name, command, code, message, prepare) => {
    const c = `c${++n}`;
    if (prepare) await prepare(t.db, c);
    const error = await failure(() => t.db.command(command(c)));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(typeof message === 'string' ? message : message(t.db.databaseName));
  });

  // FerretDB's integration/indexes_command_test.go: IndexAlreadyExists has its own code name.
  it('names IndexAlreadyExists', async () => {
    const error = await failure(() => t.db.command(spec([...v1, ...v1])('twice')));
    expect(error['codeName']).toBe('IndexAlreadyExists');
    expect(await t.db.listCollections({ name: 'twice' }).toArray()).toHaveLength(0);
  });

  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationCollStatsEmpty:
  // a collection that does not exist has empty statistics.
  it('answers collStats of a missing collection with empty statistics', async () => {
    const stats = await t.db.command({ collStats: 'never_created' });
    expect(stats).toMatchObject({
      ns: `${t.db.databaseName}.never_created`,
      size: 0,
      count: 0,
      storageSize: 0,
      totalSize: 0,
      nindexes: 0,
      totalIndexSize: 0,
      indexSizes: {},
      scaleFactor: 1,
      ok: 1,
    });
  });

  // Manual, "db.collection.createIndex()" options: unique is a boolean, and MongoDB reads a boolean
  // option the way BSONElement::trueValue() does, so a non-zero number turns it on.
  it('enforces an index created with unique: 1', async () => {
    const coll = t.db.collection<any>('numeric_unique');
    await t.db.command({
      createIndexes: 'numeric_unique',
      indexes: [{ key: { email: 1 }, name: 'email_1', unique: 1 }],
    });
    await coll.insertOne({ email: 'a@x.io' });
    const error = await failure(() => coll.insertOne({ email: 'a@x.io' }));
    expect(error['code']).toBe(11000);
    const [, index] = await coll.listIndexes().toArray();
    expect(index).toMatchObject({ name: 'email_1', unique: true });
  });
});
