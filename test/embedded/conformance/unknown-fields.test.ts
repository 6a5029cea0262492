/**
 * Unknown fields, refused as MongoDB 7.0's strict IDL parsers refuse them: code 40415 and
 * "BSON field '<parser>.<field>' is an unknown field.", where <parser> is the command's IDL name
 * (`FindCommandRequest` for find). Generic arguments (src/mongo/idl/generic_argument.idl) and every
 * field the official driver puts on a command are still accepted, and commands MongoDB reads by hand
 * keep accepting any field. Each case names the IDL file (MongoDB's server source) defining the command's
 * fields, or the recorded MongoDB answer it comes from.
 */
import { describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('unknown fields ($name)', (driver) => {
  const t = connect(driver, 'unknown_fields');
  const { Long } = driver.bson;

  /** Runs `command` on the test database, or on `admin`, and returns its error. */
  async function refused(command: Document, admin = false): Promise<Record<string, any>> {
    const db = admin ? t.client.db('admin') : t.db;
    return failure(() => db.command(command));
  }

  // [command, command document, database is admin, expected message]. Each command is `strict: true` in
  // the IDL file named; its parser reports fields under the command name (FindCommandRequest for find).
  const cases: [string, () => Document, boolean, string][] = [
    // src/mongo/db/query/find_command.idl; MongoDB's query_request_test.cpp (NToReturnParamFailsToParse)
    // expects "BSON field 'FindCommandRequest.ntoreturn' is an unknown field." (ntoreturn is gone).
    ['find', () => ({ find: 'c', ntoreturn: 5 }), false, 'FindCommandRequest.ntoreturn'],
    // src/mongo/db/pipeline/aggregate_command.idl (a misspelt collation)
    [
      'aggregate',
      () => ({ aggregate: 'c', pipeline: [], cursor: {}, colation: {} }),
      false,
      'aggregate.colation',
    ],
    // src/mongo/db/query/count_command.idl (count's predicate is `query`)
    ['count', () => ({ count: 'c', filter: {} }), false, 'count.filter'],
    // src/mongo/db/query/distinct_command.idl: `hint` arrived in 7.1 (manual, "distinct": New in 7.1)
    ['distinct', () => ({ distinct: 'c', key: 'a', hint: { _id: 1 } }), false, 'distinct.hint'],
    // src/mongo/db/query/getmore_command.idl (parsed before the cursor is looked up)
    ['getMore', () => ({ getMore: Long.fromNumber(1), collection: 'c', limit: 1 }), false, 'getMore.limit'],
    // src/mongo/db/query/kill_cursors.idl
    ['killCursors', () => ({ killCursors: 'c', cursors: [], ids: [] }), false, 'killCursors.ids'],
    // src/mongo/db/create_indexes.idl (index options belong in each spec)
    [
      'createIndexes',
      () => ({ createIndexes: 'c', indexes: [{ key: { a: 1 }, name: 'a_1' }], unique: true }),
      false,
      'createIndexes.unique',
    ],
    // src/mongo/db/drop_indexes.idl
    ['dropIndexes', () => ({ dropIndexes: 'c', index: '*', name: 'a_1' }), false, 'dropIndexes.name'],
    // src/mongo/db/list_indexes.idl
    ['listIndexes', () => ({ listIndexes: 'c', nameOnly: true }), false, 'listIndexes.nameOnly'],
    // src/mongo/db/list_collections.idl
    ['listCollections', () => ({ listCollections: 1, name: 'c' }), false, 'listCollections.name'],
    // src/mongo/db/commands/list_databases.idl
    ['listDatabases', () => ({ listDatabases: 1, names: true }), true, 'listDatabases.names'],
    // src/mongo/db/commands/create.idl; jstests/core/create_collection.js expects 40415 for an unknown
    // option. recordPreImages was removed in 6.2 (SERVER-60919).
    ['create', () => ({ create: 'made', recordPreImages: true }), false, 'create.recordPreImages'],
    // src/mongo/db/drop.idl
    ['drop', () => ({ drop: 'c', force: true }), false, 'drop.force'],
    // src/mongo/db/drop_database.idl (no field of its own)
    ['dropDatabase', () => ({ dropDatabase: 1, force: true }), false, 'dropDatabase.force'],
    // src/mongo/db/coll_mod.idl (a misspelt validationLevel)
    ['collMod', () => ({ collMod: 'c', validationlevel: 'off' }), false, 'collMod.validationlevel'],
    // src/mongo/db/commands/rename_collection.idl
    [
      'renameCollection',
      () => ({ renameCollection: `${t.db.databaseName}.c`, to: `${t.db.databaseName}.d`, dropSource: true }),
      true,
      'renameCollection.dropSource',
    ],
    // src/mongo/db/ops/write_ops.idl: the top level of insert, update and delete (upsert and multi belong
    // in each statement)
    ['insert', () => ({ insert: 'c', documents: [{ _id: 9 }], upsert: true }), false, 'insert.upsert'],
    [
      'update',
      () => ({ update: 'c', updates: [{ q: { _id: 1 }, u: { $set: { n: 9 } } }], upsert: true }),
      false,
      'update.upsert',
    ],
    ['delete', () => ({ delete: 'c', deletes: [{ q: {}, limit: 0 }], multi: true }), false, 'delete.multi'],
    // src/mongo/db/ops/write_ops.idl: findAndModify and its alias findandmodify, reported as findAndModify
    // (returnDocument is the driver's option name; the command's is `new`)
    [
      'findAndModify',
      () => ({ findAndModify: 'c', query: { _id: 1 }, update: { $set: { n: 9 } }, returnDocument: 'after' }),
      false,
      'findAndModify.returnDocument',
    ],
    [
      'findandmodify',
      () => ({ findandmodify: 'c', query: { _id: 1 }, remove: true, projection: { n: 1 } }),
      false,
      'findAndModify.projection',
    ],
    // src/mongo/db/commands/query_cmd/explain.idl (verbosity is explain's only field)
    [
      'explain',
      () => ({ explain: { find: 'c' }, verbosity: 'queryPlanner', mode: 1 }),
      false,
      'explain.mode',
    ],
    // FerretDB integration/commands_diagnostic_test.go (TestCommandsDiagnosticExplain) records MongoDB's
    // answer for an explained find with a `query` field: "BSON field 'FindCommandRequest.query' is an
    // unknown field." (the explained command goes through its own parser).
    [
      'explain of find',
      () => ({ explain: { find: 'c', query: { a: 1 } }, verbosity: 'queryPlanner' }),
      false,
      'FindCommandRequest.query',
    ],
    // count_command.idl, through explain
    [
      'explain of count',
      () => ({ explain: { count: 'c', filter: {} }, verbosity: 'queryPlanner' }),
      false,
      'count.filter',
    ],
  ];

  it.each(cases)('refuses an unknown field on %s (40415)', async (_name, command, admin, path) => {
    const coll = t.db.collection<any>('c');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, n: 1 });
    const error = await refused(command(), admin);
    expect(error['code']).toBe(40415);
    expect(error['codeName']).toBe('Location40415');
    expect(error['message']).toBe(`BSON field '${path}' is an unknown field.`);
    // Refused before running: nothing written, renamed, dropped or created.
    expect(await coll.find().toArray()).toEqual([{ _id: 1, n: 1 }]);
    const names = (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toContain('c');
    expect(names).not.toContain('made');
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  // Source: src/mongo/db/commands/txn_cmds.idl (commitTransaction and abortTransaction are strict); the
  // transaction stays open, so it can still be aborted.
  it('refuses unknown fields on commitTransaction and abortTransaction', async () => {
    const coll = t.db.collection<any>('txn');
    await coll.insertOne({ _id: 0 });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await coll.insertOne({ _id: 1 }, { session: s });
      const admin = t.client.db('admin');
      for (const name of ['commitTransaction', 'abortTransaction']) {
        const error = await failure(() => admin.command({ [name]: 1, force: true }, { session: s }));
        expect(error['code']).toBe(40415);
        expect(error['message']).toBe(`BSON field '${name}.force' is an unknown field.`);
      }
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
    expect(await coll.find().toArray()).toEqual([{ _id: 0 }]);
  });

  // Source: src/mongo/idl/generic_argument.idl — every command accepts the generic arguments (comment,
  // maxTimeMS, readConcern, writeConcern …) besides its own fields.
  it('accepts generic arguments on every strict command', async () => {
    const coll = t.db.collection<any>('generic');
    await coll.insertOne({ _id: 1, a: 1 });
    const read = { comment: 'c', maxTimeMS: 1000, readConcern: { level: 'local' } };
    const write = { comment: 'c', maxTimeMS: 1000, writeConcern: { w: 1 } };
    const commands: Document[] = [
      { find: 'generic', filter: {}, ...read },
      { aggregate: 'generic', pipeline: [], cursor: {}, ...read },
      { count: 'generic', query: {}, ...read },
      { distinct: 'generic', key: 'a', ...read },
      { insert: 'generic', documents: [{ _id: 2 }], ...write },
      { update: 'generic', updates: [{ q: { _id: 2 }, u: { $set: { a: 2 } } }], ...write },
      { findAndModify: 'generic', query: { _id: 2 }, update: { $set: { a: 3 } }, ...write },
      { delete: 'generic', deletes: [{ q: { _id: 2 }, limit: 1 }], ...write },
      { createIndexes: 'generic', indexes: [{ key: { a: 1 }, name: 'a_1' }], ...write },
      { listIndexes: 'generic', comment: 'c', maxTimeMS: 1000 },
      { dropIndexes: 'generic', index: 'a_1', ...write },
      { listCollections: 1, filter: {}, comment: 'c', maxTimeMS: 1000 },
      { create: 'generic2', ...write },
      { collMod: 'generic2', validationLevel: 'off', ...write },
      { drop: 'generic2', ...write },
      {
        explain: { find: 'generic', comment: 'c' },
        verbosity: 'queryPlanner',
        comment: 'c',
        maxTimeMS: 1000,
      },
    ];
    for (const command of commands) expect((await t.db.command(command))['ok']).toBe(1);
    expect(await coll.find().toArray()).toEqual([{ _id: 1, a: 1 }]);
  });

  // Source: the fields node_modules/mongodb/lib/operations/*.js put on each command (find.js, aggregate.js,
  // count.js, distinct.js, find_and_modify.js, update.js, delete.js, indexes.js, list_collections.js,
  // create_collection.js, rename.js), all defined by the IDL files above.
  it('accepts every option the driver helpers send', async () => {
    const coll = t.db.collection<any>('helpers');
    await coll.insertMany([
      { _id: 1, a: 1, tags: [1, 2] },
      { _id: 2, a: 2, tags: [3] },
    ]);
    const common = { comment: 'c', maxTimeMS: 1000, collation: { locale: 'simple' } };
    const found = await coll
      .find(
        { $expr: { $gte: ['$a', '$$low'] } },
        {
          ...common,
          sort: { a: 1 },
          projection: { a: 1 },
          hint: { _id: 1 },
          skip: 0,
          limit: 5,
          batchSize: 1,
          allowDiskUse: true,
          let: { low: 1 },
          noCursorTimeout: true,
          allowPartialResults: true,
        },
      )
      .toArray();
    expect(found).toEqual([
      { _id: 1, a: 1 },
      { _id: 2, a: 2 },
    ]);
    const agg = { ...common, allowDiskUse: true, hint: { _id: 1 }, let: { x: 1 }, batchSize: 1 };
    expect(await coll.aggregate([{ $match: { a: 1 } }], agg).toArray()).toHaveLength(1);
    expect(await coll.countDocuments({}, { ...common, skip: 1, limit: 5, hint: { _id: 1 } })).toBe(1);
    expect(await coll.estimatedDocumentCount({ comment: 'c', maxTimeMS: 1000 })).toBe(2);
    expect(await coll.distinct('a', {}, common)).toEqual([1, 2]);
    const updated = await coll.findOneAndUpdate(
      { _id: 1 },
      { $set: { 'tags.$[t]': 9 } },
      {
        ...common,
        arrayFilters: [{ t: 2 }],
        sort: { _id: 1 },
        projection: { tags: 1 },
        upsert: false,
        returnDocument: 'after',
        hint: { _id: 1 },
        let: { x: 1 },
        bypassDocumentValidation: true,
      },
    );
    expect(updated).toEqual({ _id: 1, tags: [1, 9] });
    const writeOptions = { comment: 'c', let: { x: 1 }, hint: { _id: 1 }, collation: { locale: 'simple' } };
    await coll.updateMany(
      { _id: 2 },
      { $set: { b: 1 } },
      { ...writeOptions, bypassDocumentValidation: true },
    );
    await coll.bulkWrite([{ insertOne: { document: { _id: 3 } } }, { deleteOne: { filter: { _id: 3 } } }], {
      ordered: false,
      bypassDocumentValidation: true,
      comment: 'c',
    });
    expect((await coll.deleteMany({ _id: 2 }, writeOptions)).deletedCount).toBe(1);
    await coll.createIndex({ a: 1 }, { name: 'a_1', unique: true, sparse: true, comment: 'c' });
    expect((await coll.listIndexes({ comment: 'c', batchSize: 1 }).toArray()).length).toBe(2);
    await coll.dropIndex('a_1', { comment: 'c', maxTimeMS: 1000 });
    const listed = t.db.listCollections({}, { nameOnly: true, authorizedCollections: true, comment: 'c' });
    expect((await listed.toArray()).map((c) => c.name)).toContain('helpers');
    await t.db.createCollection('helpers2', {
      validator: { a: { $exists: true } },
      validationLevel: 'moderate',
      validationAction: 'error',
      collation: { locale: 'en' },
      comment: 'c',
    });
    await t.db.renameCollection('helpers2', 'helpers3', { dropTarget: true });
    expect(await t.db.dropCollection('helpers3', { comment: 'c' })).toBe(true);
  });

  // Source: the driver's handshake (node_modules/mongodb/lib/cmap/connect.js) sends `backpressure`, a
  // field no MongoDB 7.0 IDL defines, and drivers handshake with 7.0 servers: hello and isMaster take
  // extra fields. MongoDB manual, "db.serverStatus()": serverStatus takes any section name as a field
  // ({ repl: 0, metrics: 0, locks: 0 }).
  it('keeps accepting extra fields on the handshake and serverStatus', async () => {
    const admin = t.client.db('admin');
    for (const command of [
      { hello: 1, backpressure: '2', bogus: 1 },
      { isMaster: 1, bogus: 1 },
      { serverStatus: 1, repl: 0, metrics: 0, locks: 0, bogus: 0 },
    ])
      expect((await admin.command(command))['ok']).toBe(1);
  });

  // Source: src/mongo/idl/generic_argument.idl (apiVersion, apiStrict, apiDeprecationErrors are generic):
  // a client declaring the Stable API sends them on every command.
  it('accepts the Stable API arguments a serverApi client sends', async () => {
    const client = new driver.MongoClient(t.uri, { serverApi: { version: '1', deprecationErrors: true } });
    try {
      await client.connect();
      const coll = client.db(t.db.databaseName).collection<any>('stable');
      await coll.insertOne({ _id: 1, a: 1 });
      await coll.updateOne({ _id: 1 }, { $set: { a: 2 } });
      expect(await coll.find({}, { batchSize: 1 }).toArray()).toEqual([{ _id: 1, a: 2 }]);
      expect(await coll.aggregate([{ $count: 'n' }]).toArray()).toEqual([{ n: 1 }]);
      expect(await coll.countDocuments()).toBe(1);
      await coll.createIndex({ a: 1 });
      await coll.deleteOne({ _id: 1 });
      expect(await coll.drop()).toBe(true);
    } finally {
      await client.close();
    }
  });
});
