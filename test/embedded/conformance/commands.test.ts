import { describe, expect, it } from 'vitest';
import { connect, drivers, external, failure } from '../helpers.js';

describe.each(drivers)('command conformance ($name)', (driver) => {
  const t = connect(driver, 'cmd');

  it('hello advertises a replica-set primary without topologyVersion or compression', async () => {
    const hello = await t.db.admin().command({ hello: 1 });
    expect(hello).toMatchObject({ ok: 1, isWritablePrimary: true });
    expect(hello['compression']).toBeUndefined();
    if (!external) {
      expect(hello['topologyVersion']).toBeUndefined();
      expect(hello['setName']).toBe('plume');
      expect(hello['hosts']).toEqual([hello['me']]);
      expect(hello['primary']).toBe(hello['me']);
    }
  });

  it('isMaster answers with ismaster: true', async () => {
    expect(await t.db.admin().command({ isMaster: 1 })).toMatchObject({ ok: 1, ismaster: true });
  });

  it('getParameter returns requested parameters', async () => {
    const reply = await t.db.admin().command({ getParameter: 1, featureCompatibilityVersion: 1 });
    expect(reply['featureCompatibilityVersion']).toHaveProperty('version');
  });

  it('serverStatus, hostInfo and connectionStatus answer ok', async () => {
    const status = await t.db.admin().command({ serverStatus: 1 });
    expect(status['ok']).toBe(1);
    expect(status['connections']['current']).toBeGreaterThan(0);
    expect(typeof status['version']).toBe('string');
    expect((await t.db.admin().command({ hostInfo: 1 }))['system']).toHaveProperty('hostname');
    expect((await t.db.admin().command({ connectionStatus: 1 }))['authInfo']).toBeDefined();
  });

  it('create makes a collection; a second create is ok with the same options and NamespaceExists (48) with others', async () => {
    await t.db.createCollection('made');
    expect((await t.db.listCollections({ name: 'made' }).toArray()).length).toBe(1);
    // MongoDB 7.0+: identical options are a no-op success.
    await t.db.createCollection('made');
    const error = await failure(() => t.db.createCollection('made', { validator: { a: { $exists: true } } }));
    expect(error).toMatchObject({ code: 48, codeName: 'NamespaceExists' });
    const [info] = await t.db.listCollections({ name: 'made' }).toArray();
    expect(info).not.toHaveProperty('options.validator');
  });

  it('listCollections filters by name and type and supports nameOnly', async () => {
    await t.db.collection<any>('lc_a').insertOne({});
    await t.db.collection<any>('lc_b').insertOne({});
    const all = await t.db.listCollections({ name: { $regex: '^lc_' } }).toArray();
    expect(all.map((c) => c.name).sort()).toEqual(['lc_a', 'lc_b']);
    expect(all[0]).toMatchObject({ type: 'collection' });
    const names = await t.db.listCollections({ name: 'lc_a' }, { nameOnly: true }).toArray();
    expect(names).toEqual([{ name: 'lc_a', type: 'collection' }]);
  });

  it('drop of a missing collection does not throw', async () => {
    await expect(t.db.collection<any>('never_created').drop()).resolves.toBeTypeOf('boolean');
  });

  it('renameCollection moves documents and indexes', async () => {
    const from = t.db.collection<any>('ren_from');
    await from.insertOne({ k: 1 });
    await from.createIndex({ k: 1 }, { unique: true });
    await from.rename('ren_to');
    const to = t.db.collection<any>('ren_to');
    expect(await to.countDocuments()).toBe(1);
    expect((await to.listIndexes().toArray()).map((i) => i['name'])).toContain('k_1');
    expect((await t.db.listCollections({ name: 'ren_from' }).toArray()).length).toBe(0);
  });

  it('renameCollection onto an existing name is NamespaceExists (48) unless dropTarget', async () => {
    await t.db.collection<any>('r1').insertOne({ a: 1 });
    await t.db.collection<any>('r2').insertOne({ b: 1 });
    const error = await failure(() => t.db.renameCollection('r1', 'r2'));
    expect(error['code']).toBe(48);
    await t.db.renameCollection('r1', 'r2', { dropTarget: true });
    expect(await t.db.collection<any>('r2').findOne({}, { projection: { _id: 0 } })).toEqual({ a: 1 });
  });

  it('renameCollection of a missing collection is NamespaceNotFound (26)', async () => {
    const error = await failure(() => t.db.renameCollection('missing_src', 'whatever'));
    expect(error['code']).toBe(26);
  });

  it('listIndexes of a missing collection is NamespaceNotFound (26)', async () => {
    const error = await failure(() => t.db.collection<any>('no_such_coll').listIndexes().toArray());
    expect(error['code']).toBe(26);
  });

  it('dropIndexes by name, by key and all', async () => {
    const coll = t.db.collection<any>('di');
    await coll.createIndexes([{ key: { a: 1 } }, { key: { b: -1 } }, { key: { c: 1 }, name: 'cee' }]);
    await coll.dropIndex('a_1');
    await coll.dropIndex({ b: -1 } as never);
    expect((await coll.listIndexes().toArray()).map((i) => i['name'])).toEqual(['_id_', 'cee']);
    await coll.dropIndexes();
    expect((await coll.listIndexes().toArray()).map((i) => i['name'])).toEqual(['_id_']);
  });

  it('dropIndex of an unknown index is IndexNotFound (27) and of _id_ is InvalidOptions (72)', async () => {
    const coll = t.db.collection<any>('di2');
    await coll.insertOne({});
    expect((await failure(() => coll.dropIndex('nope_1')))['code']).toBe(27);
    expect((await failure(() => coll.dropIndex('_id_')))['code']).toBe(72);
  });

  it('createIndex with a conflicting spec under the same name fails', async () => {
    const coll = t.db.collection<any>('ci_conflict');
    await coll.createIndex({ a: 1 }, { name: 'idx' });
    const error = await failure(() => coll.createIndex({ b: 1 }, { name: 'idx' }));
    expect([85, 86]).toContain(error['code']);
  });

  it('distinct with a query', async () => {
    const coll = t.db.collection<any>('dist');
    await coll.insertMany([
      { c: 'x', n: 1 },
      { c: 'y', n: 2 },
      { c: 'x', n: 3 },
    ]);
    expect((await coll.distinct('c')).sort()).toEqual(['x', 'y']);
    expect(await coll.distinct('c', { n: { $gt: 2 } })).toEqual(['x']);
  });

  it('dbStats and collStats report counts', async () => {
    const coll = t.db.collection<any>('stats');
    await coll.insertMany([{ a: 1 }, { a: 2 }]);
    const db = await t.db.command({ dbStats: 1 });
    expect(db['ok']).toBe(1);
    expect(db['objects']).toBeGreaterThanOrEqual(2);
    const cs = await t.db.command({ collStats: 'stats' });
    expect(cs['count']).toBe(2);
    expect(cs['nindexes']).toBe(1);
    expect(cs['size']).toBeGreaterThan(0);
  });

  it('listDatabases includes this database', async () => {
    await t.db.collection<any>('ld').insertOne({});
    const { databases } = await t.db.admin().listDatabases();
    expect(databases.map((d) => d.name)).toContain(t.db.databaseName);
    const names = await t.db.admin().command({ listDatabases: 1, nameOnly: true });
    expect(names['databases'].some((d: { name: string }) => d.name === t.db.databaseName)).toBe(true);
  });

  it('dropDatabase removes every collection', async () => {
    const other = t.client.db(`${t.db.databaseName}_x`);
    await other.collection('a').insertOne({});
    expect(await other.dropDatabase()).toBe(true);
    expect(await other.listCollections().toArray()).toEqual([]);
  });

  it('explain answers for find', async () => {
    const coll = t.db.collection<any>('expl');
    await coll.insertOne({ _id: 1 });
    const plan = await coll.find({ _id: 1 }).explain();
    expect(plan).toHaveProperty('queryPlanner');
  });

  it('an unknown command is CommandNotFound (59)', async () => {
    const error = await failure(() => t.db.command({ definitelyNotACommand: 1 }));
    expect(error).toMatchObject({ code: 59, codeName: 'CommandNotFound' });
  });

  it('getMore on an unknown cursor is CursorNotFound (43)', async () => {
    const { Long } = driver.bson;
    const error = await failure(() => t.db.command({ getMore: Long.fromNumber(123456789), collection: 'x' }));
    expect(error['code']).toBe(43);
  });

  it('getMore and killCursors take only int64 cursor ids: TypeMismatch (14) otherwise', async () => {
    const getMore = await failure(() => t.db.command({ getMore: 123456789, collection: 'x' }));
    expect(getMore).toMatchObject({ code: 14, codeName: 'TypeMismatch' });
    const kill = await failure(() => t.db.command({ killCursors: 'x', cursors: [123456789] }));
    expect(kill).toMatchObject({ code: 14, codeName: 'TypeMismatch' });
  });

  it('an invalid collection name is InvalidNamespace (73)', async () => {
    const error = await failure(() => t.db.command({ insert: 'bad$name', documents: [{}] }));
    expect(error['code']).toBe(73);
    const system = await failure(() => t.db.command({ create: 'system.mine' }));
    expect([system['code'], system['errmsg']]).toEqual([
      73,
      `Invalid system namespace: ${t.db.databaseName}.system.mine`,
    ]);
  });
});
