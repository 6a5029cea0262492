/**
 * Administration and diagnostic commands (`renameCollection`, `listCollections`, `listDatabases`,
 * `create`/`collMod` validation options, `dropDatabase`, `validate`, `dataSize`, `getParameter`,
 * `collStats`, `buildInfo`, `connectionStatus`) answer as MongoDB 7.0 answers: the same codes and
 * exact messages for malformed commands, and the same reply shapes. Each case names its source.
 */
import { describe, expect, it } from 'vitest';
import type { Db, Document } from 'mongodb';
import { connect, drivers, failure } from '../helpers.js';

/** [case, database to run on ('admin' or the test's), command on namespace `db.c`, code, message] */
type Case = [
  string,
  'admin' | 'test',
  (db: string, c: string) => Document,
  number,
  string | ((db: string) => string),
];

const rename = (to: unknown) => (db: string, c: string) => ({ renameCollection: `${db}.${c}`, to });

const errors: Case[] = [
  // FerretDB's integration/administration/renamecollection_test.go (MongoDB's answers, BadParamTo and
  // BadParamTypeTo).
  [
    'renameCollection without to',
    'admin',
    (db, c) => ({ renameCollection: `${db}.${c}` }),
    40414,
    "BSON field 'renameCollection.to' is missing but a required field",
  ],
  [
    'renameCollection to a boolean',
    'admin',
    rename(true),
    14,
    "BSON field 'renameCollection.to' is the wrong type 'bool', expected type 'string'",
  ],
  // MongoDB's rename_collection_cmd.cpp: "Invalid target namespace: " << toNss.
  [
    'renameCollection to a database only',
    'admin',
    (db, c) => rename(`${db}.`)(db, c),
    73,
    (db) => `Invalid target namespace: ${db}.`,
  ],
  // MongoDB's CommandHelpers::parseNsFullyQualified: "Invalid namespace specified '<ns>'".
  [
    'renameCollection of a name without a database',
    'admin',
    () => ({ renameCollection: 'nodot', to: 'x.y' }),
    73,
    "Invalid namespace specified 'nodot'",
  ],
  // MongoDB's list_collections.idl: nameOnly and authorizedCollections are safeBool, filter an object.
  [
    'listCollections with a string nameOnly',
    'test',
    () => ({ listCollections: 1, nameOnly: 'yes' }),
    14,
    "BSON field 'listCollections.nameOnly' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
  ],
  [
    'listCollections with a string authorizedCollections',
    'test',
    () => ({ listCollections: 1, authorizedCollections: 'yes' }),
    14,
    "BSON field 'listCollections.authorizedCollections' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
  ],
  [
    'listCollections with a string filter',
    'test',
    () => ({ listCollections: 1, filter: 'x' }),
    14,
    "BSON field 'listCollections.filter' is the wrong type 'string', expected type 'object'",
  ],
  // MongoDB's list_databases.idl: filter is an object.
  [
    'listDatabases with a string filter',
    'admin',
    () => ({ listDatabases: 1, filter: 'x' }),
    14,
    "BSON field 'listDatabases.filter' is the wrong type 'string', expected type 'object'",
  ],
  // MongoDB's create.idl / coll_mod.idl: validator is an object; validationLevel and validationAction
  // are enumerations (IDLParserContext::throwBadEnumValue: BadValue).
  [
    'create with a string validator',
    'test',
    (_db, c) => ({ create: c, validator: 'x' }),
    14,
    "BSON field 'create.validator' is the wrong type 'string', expected type 'object'",
  ],
  [
    'create with an unknown validationLevel',
    'test',
    (_db, c) => ({ create: c, validationLevel: 'bad' }),
    2,
    "Enumeration value 'bad' for field 'create.validationLevel' is not a valid value.",
  ],
  [
    'create with an unknown validationAction',
    'test',
    (_db, c) => ({ create: c, validationAction: 'bad' }),
    2,
    "Enumeration value 'bad' for field 'create.validationAction' is not a valid value.",
  ],
  [
    'create with a numeric validationLevel',
    'test',
    (_db, c) => ({ create: c, validationLevel: 1 }),
    14,
    "BSON field 'create.validationLevel' is the wrong type 'int', expected type 'string'",
  ],
  [
    'collMod with an unknown validationLevel',
    'test',
    () => ({ collMod: 'seeded', validationLevel: 'bad' }),
    2,
    "Enumeration value 'bad' for field 'collMod.validationLevel' is not a valid value.",
  ],
  [
    'collMod with a string validator',
    'test',
    () => ({ collMod: 'seeded', validator: 'x' }),
    14,
    "BSON field 'collMod.validator' is the wrong type 'string', expected type 'object'",
  ],
  // MongoDB's ValidateState: "Collection '<ns>' does not exist to validate."
  [
    'validate of a missing collection',
    'test',
    () => ({ validate: 'never_created' }),
    26,
    (db) => `Collection '${db}.never_created' does not exist to validate.`,
  ],
  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationDataSizeErrors.
  [
    'dataSize of a bare name',
    'test',
    () => ({ dataSize: 'invalid' }),
    73,
    "Invalid namespace specified 'invalid'",
  ],
  ['dataSize of a document', 'test', () => ({ dataSize: {} }), 2, 'collection name has invalid type object'],
  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationGetParameter
  // (EmptyParameters, OnlyNonexistentParameters, ShowDetails_NoParameter_1, ShowDetails_String); the code
  // is get_parameter's uassert(ErrorCodes::InvalidOptions, "no option found to get").
  [
    'getParameter of nothing',
    'admin',
    () => ({ getParameter: 1, comment: 'c' }),
    72,
    'no option found to get',
  ],
  [
    'getParameter of unknown parameters only',
    'admin',
    () => ({ getParameter: 1, quiet_other: 1 }),
    72,
    'no option found to get',
  ],
  [
    'getParameter with showDetails and nothing named',
    'admin',
    () => ({ getParameter: { showDetails: true } }),
    72,
    'no option found to get',
  ],
  [
    'getParameter with a string showDetails',
    'admin',
    () => ({ getParameter: { showDetails: '1' }, quiet: true }),
    14,
    "BSON field 'getParameter.showDetails' is the wrong type 'string', expected types '[bool, long, int, decimal, double']",
  ],
];

describe.each(drivers)('administration commands ($name)', (driver) => {
  const t = connect(driver, 'admin_commands');
  let n = 0;
  const on = (which: 'admin' | 'test'): Db => (which === 'admin' ? t.client.db('admin') : t.db);

  it.each(errors)('refuses %s', async (_name, where, command, code, message) => {
    await t.db.collection('seeded').insertOne({ v: 1 });
    const c = `c${++n}`;
    await t.db.collection(c).insertOne({ v: 1 });
    const db = t.db.databaseName;
    const error = await failure(() => on(where).command(command(db, c)));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(typeof message === 'string' ? message : message(db));
  });

  // MongoDB's list_collections.idl: nameOnly is a safeBool, so 1 asks for names and types only.
  it('lists names only for nameOnly: 1', async () => {
    await t.db.collection('listed').insertOne({ v: 1 });
    const reply = await t.db.command({ listCollections: 1, nameOnly: 1, filter: { name: 'listed' } });
    expect(reply['cursor'].firstBatch).toEqual([{ name: 'listed', type: 'collection' }]);
  });

  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationListDatabases
  // (filter on name), and list_databases.idl (nameOnly is a safeBool: no sizes, no totalSize).
  it('filters listDatabases and honours nameOnly: 1', async () => {
    await t.db.collection('listed').insertOne({ v: 1 });
    const name = t.db.databaseName;
    const admin = t.client.db('admin');
    const full = await admin.command({ listDatabases: 1, filter: { name } });
    expect(full['databases']).toHaveLength(1);
    expect(full['databases'][0]).toMatchObject({ name, empty: false });
    const names = await admin.command({ listDatabases: 1, nameOnly: 1, filter: { name } });
    expect(names['databases']).toEqual([{ name }]);
    expect(names['totalSize']).toBeUndefined();
  });

  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationCreateDropListDatabases:
  // dropping a database that does not exist answers { ok: 1 } and nothing else.
  it('answers a bare ok when dropping a missing database', async () => {
    const reply = await t.client.db(`${t.db.databaseName}_none`).command({ dropDatabase: 1 });
    expect(reply['ok']).toBe(1);
    expect(reply['dropped']).toBeUndefined();
  });

  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationDataSize.
  it('measures a collection with dataSize', async () => {
    await t.db.collection('sized').insertMany([{ v: 1 }, { v: 2 }]);
    const reply = await t.db.command({ dataSize: `${t.db.databaseName}.sized` });
    expect(reply).toMatchObject({ numObjects: 2, ok: 1 });
    expect(reply['size']).toBeGreaterThan(0);
    const none = await t.db.command({ dataSize: `${t.db.databaseName}.never_created` });
    expect(none).toMatchObject({ size: 0, numObjects: 0, ok: 1 });
  });

  // MongoDB's validate command reply (ValidateResults::appendToResultObj) for a sound collection.
  it('validates a collection', async () => {
    await t.db.collection('checked').insertMany([{ v: 1 }, { v: 2 }]);
    await t.db.collection('checked').createIndex({ v: 1 });
    const reply = await t.db.command({ validate: 'checked' });
    expect(reply).toMatchObject({
      ns: `${t.db.databaseName}.checked`,
      nInvalidDocuments: 0,
      nrecords: 2,
      nIndexes: 2,
      keysPerIndex: { _id_: 2, v_1: 2 },
      valid: true,
      warnings: [],
      errors: [],
      ok: 1,
    });
  });

  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationGetParameter
  // (ShowDetailsTrue, FeatureCompatibilityVersionShowDetails, NonexistentParameters).
  it('answers getParameter with and without details', async () => {
    const admin = t.client.db('admin');
    const plain = await admin.command({ getParameter: 1, quiet: 1, quiet_other: 1 });
    expect(plain['quiet']).toBe(false);
    expect(plain['quiet_other']).toBeUndefined();
    expect(plain['featureCompatibilityVersion']).toBeUndefined();
    const detailed = await admin.command({ getParameter: { showDetails: true }, quiet: true });
    expect(detailed['quiet']).toEqual({ value: false, settableAtRuntime: true, settableAtStartup: true });
    const fcv = await admin.command({ getParameter: { showDetails: 1 }, featureCompatibilityVersion: 1 });
    expect(fcv['featureCompatibilityVersion']).toMatchObject({
      settableAtRuntime: false,
      settableAtStartup: false,
    });
  });

  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationCollStatsWithScale:
  // sizes are divided by the scale in whole numbers; the average object size is not scaled.
  it('scales collStats sizes in whole numbers', async () => {
    await t.db.collection('scaled').insertOne({ s: 'x'.repeat(100) });
    const plain = await t.db.command({ collStats: 'scaled' });
    const scaled = await t.db.command({ collStats: 'scaled', scale: 1000 });
    expect(scaled['size']).toBe(Math.trunc(plain['size'] / 1000));
    expect(scaled['avgObjSize']).toBe(plain['avgObjSize']);
    expect(scaled['scaleFactor']).toBe(1000);
  });

  // FerretDB's integration/commands_administration_test.go, TestCommandsAdministrationBuildInfo.
  it('reports sysInfo and buildEnvironment in buildInfo', async () => {
    const reply = await t.db.command({ buildInfo: 1 });
    expect(reply['sysInfo']).toBe('deprecated');
    expect(reply['buildEnvironment']).toEqual({});
  });
});
