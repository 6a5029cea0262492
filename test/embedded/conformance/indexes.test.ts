import { describe, expect, it } from 'vitest';
import { connect, drivers, external, failure } from '../helpers.js';

/** Documents a find examined, from explain('executionStats') (works on MongoDB and the embedded server). */
async function examined(cursor: { explain(verbosity: string): Promise<any> }): Promise<number> {
  return Number((await cursor.explain('executionStats'))['executionStats']['totalDocsExamined']);
}

describe.each(drivers)('index conformance ($name)', (driver) => {
  const t = connect(driver, 'idx', { ttlIntervalMs: 100 });

  it('enforces a compound unique index on the combination', async () => {
    const coll = t.db.collection<any>('compound');
    await coll.createIndex({ a: 1, b: 1 }, { unique: true });
    await coll.insertMany([
      { a: 1, b: 1 },
      { a: 1, b: 2 },
      { a: 2, b: 1 },
    ]);
    const error = await failure(() => coll.insertOne({ a: 1, b: 2 }));
    expect(error).toMatchObject({ code: 11000, keyPattern: { a: 1, b: 1 }, keyValue: { a: 1, b: 2 } });
  });

  it('enforces a unique multikey index across array elements', async () => {
    const coll = t.db.collection<any>('multikey');
    await coll.createIndex({ tags: 1 }, { unique: true });
    await coll.insertOne({ tags: ['x', 'y'] });
    await coll.insertOne({ tags: ['z', 'z'] });
    const error = await failure(() => coll.insertOne({ tags: ['q', 'y'] }));
    expect(error).toMatchObject({ code: 11000, keyValue: { tags: 'y' } });
  });

  it('treats missing fields as null in a unique index', async () => {
    const coll = t.db.collection<any>('nulls');
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.insertOne({ name: 'a' });
    expect((await failure(() => coll.insertOne({ name: 'b' })))['code']).toBe(11000);
  });

  it('lets a sparse unique index skip documents without the field', async () => {
    const coll = t.db.collection<any>('sparse');
    await coll.createIndex({ email: 1 }, { unique: true, sparse: true });
    await coll.insertMany([{ name: 'a' }, { name: 'b' }, { email: 'x' }]);
    expect((await failure(() => coll.insertOne({ email: 'x' })))['code']).toBe(11000);
    expect(await coll.countDocuments()).toBe(3);
  });

  it('applies a unique index only to documents matching partialFilterExpression', async () => {
    const coll = t.db.collection<any>('partial');
    await coll.createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await coll.insertMany([
      { email: 'a', active: false },
      { email: 'a', active: false },
      { email: 'a', active: true },
    ]);
    expect((await failure(() => coll.insertOne({ email: 'a', active: true })))['code']).toBe(11000);
    expect((await failure(() => coll.updateOne({ active: false }, { $set: { active: true } })))['code']).toBe(
      11000,
    );
  });

  it('enforces a case-insensitive unique index through its collation', async () => {
    const coll = t.db.collection<any>('ci_unique');
    await coll.createIndex({ name: 1 }, { unique: true, collation: { locale: 'en', strength: 2 } });
    await coll.insertOne({ name: 'Bob' });
    expect((await failure(() => coll.insertOne({ name: 'bob' })))['code']).toBe(11000);
    await coll.insertOne({ name: 'Bobby' });
  });

  it('gives new indexes the collection default collation', async () => {
    await t.db.createCollection('ci_default', { collation: { locale: 'en', strength: 2 } });
    const coll = t.db.collection<any>('ci_default');
    await coll.createIndex({ name: 1 }, { unique: true });
    await coll.insertOne({ name: 'Ann' });
    expect((await failure(() => coll.insertOne({ name: 'ANN' })))['code']).toBe(11000);
    const index = (await coll.listIndexes().toArray()).find((i) => i['name'] === 'name_1');
    expect(index!['collation']).toMatchObject({ locale: 'en', strength: 2 });
  });

  it('refuses to build a unique index over existing duplicates and leaves no index behind', async () => {
    const coll = t.db.collection<any>('dups_exist');
    await coll.insertMany([{ k: 1 }, { k: 1 }]);
    expect((await failure(() => coll.createIndex({ k: 1 }, { unique: true })))['code']).toBe(11000);
    expect((await coll.listIndexes().toArray()).map((i) => i['name'])).toEqual(['_id_']);
  });

  it('lists index options', async () => {
    const coll = t.db.collection<any>('opts');
    await coll.createIndex({ a: 1 }, { unique: true, sparse: true, name: 'a_u' });
    await coll.createIndex({ b: -1 }, { partialFilterExpression: { b: { $gt: 0 } } });
    await coll.createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
    await coll.createIndex({ n: 1 }, { collation: { locale: 'fr', strength: 1 } });
    const byName = Object.fromEntries((await coll.listIndexes().toArray()).map((i) => [i['name'], i]));
    expect(byName['a_u']).toMatchObject({ key: { a: 1 }, unique: true, sparse: true });
    expect(byName['b_-1']).toMatchObject({ partialFilterExpression: { b: { $gt: 0 } } });
    expect(byName['at_1']).toMatchObject({ expireAfterSeconds: 3600 });
    expect(byName['n_1']['collation']).toMatchObject({ locale: 'fr', strength: 1 });
  });

  it('keeps unique enforcement atomic: a failed insertMany batch leaves earlier documents', async () => {
    const coll = t.db.collection<any>('atomic');
    await coll.createIndex({ k: 1 }, { unique: true });
    await coll.insertMany([{ k: 1 }, { k: 2 }, { k: 1 }], { ordered: false }).catch(() => undefined);
    expect((await coll.find({}).sort({ k: 1 }).toArray()).map((d) => d['k'])).toEqual([1, 2]);
  });

  it('answers equality lookups on an indexed field without scanning the collection', async () => {
    const coll = t.db.collection<any>('lookup');
    await coll.insertMany(Array.from({ length: 3000 }, (_, i) => ({ code: `c${i}`, group: i % 10 })));
    await coll.createIndex({ code: 1 });
    expect(await coll.findOne({ code: 'c1234' }, { projection: { _id: 0 } })).toEqual({
      code: 'c1234',
      group: 4,
    });
    expect(await coll.countDocuments({ code: { $in: ['c1', 'c2'] } })).toBe(2);
    expect(await coll.countDocuments({ code: 'c7', group: 7 })).toBe(1);
    expect(await examined(coll.find({ code: 'c1234' }))).toBe(1);
    expect(await examined(coll.find({ code: { $in: ['c1', 'c2'] } }))).toBe(2);
    expect(await examined(coll.find({ code: 'c7', group: 7 }))).toBe(1);
    expect(await examined(coll.find({ group: 7 }))).toBe(3000);
  });

  it('finds a document by _id or an index inside a top-level $and without scanning', async () => {
    // MongoDB manual, "$and": a query with $and is the same conjunction as listing the fields in one
    // filter, and the query planner uses indexes for it (explain shows an index scan, not COLLSCAN).
    const coll = t.db.collection<any>('and');
    await coll.insertMany(Array.from({ length: 3000 }, (_, i) => ({ code: `c${i}`, group: i % 10 })));
    await coll.createIndex({ code: 1 });
    const doc = await coll.findOne({ code: 'c1234' });
    const byId = { $and: [{ _id: doc._id }] };
    expect(await coll.findOne(byId)).toEqual(doc);
    expect(await coll.findOne({ $and: [{ group: 4 }, { _id: doc._id }] })).toEqual(doc);
    expect(await coll.findOne({ $and: [{ group: 5 }, { _id: doc._id }] })).toBeNull();
    expect(await coll.countDocuments({ $and: [{ group: { $gte: 0 } }, { $and: [{ code: 'c7' }] }] })).toBe(1);
    expect(await examined(coll.find(byId))).toBe(1);
    expect(await examined(coll.find({ $and: [{ group: 5 }, { _id: doc._id }] }))).toBe(1);
    expect(await examined(coll.find({ $and: [{ group: { $gte: 0 } }, { $and: [{ code: 'c7' }] }] }))).toBe(1);
    expect(await examined(coll.find({ $and: [{ group: 7 }, { group: { $gt: 1 } }] }))).toBe(3000);
    expect((await coll.find(byId).explain())['queryPlanner']['winningPlan']['stage']).not.toBe('COLLSCAN');
  });

  it('serves equality on the first field of a compound index without scanning', async () => {
    const coll = t.db.collection<any>('prefix');
    await coll.createIndex({ owner: 1, at: -1 });
    await coll.insertMany(
      Array.from({ length: 2000 }, (_, i) => ({ owner: `u${i % 500}`, at: i, tags: [i % 3, 9] })),
    );
    await coll.updateMany({ owner: 'u1' }, { $set: { seen: true } });
    await coll.deleteOne({ owner: 'u1', at: 1 });
    const docs = await coll.find({ owner: 'u1' }).sort({ at: 1 }).toArray();
    expect(docs.map((d) => d['at'])).toEqual([501, 1001, 1501]);
    expect(docs.every((d) => d['seen'] === true)).toBe(true);
    expect(await examined(coll.find({ owner: 'u1' }).sort({ at: 1 }))).toBe(3);
  });

  it('treats the _id index as always there: asking for it again is a no-op, unique or sparse is 197', async () => {
    const coll = t.db.collection<any>('idindex');
    await coll.insertOne({ a: 1 });
    await coll.createIndex({ _id: 1 });
    const unique = await failure(() => coll.createIndex({ _id: 1 }, { unique: true }));
    expect(unique['code']).toBe(197);
    expect((await coll.listIndexes().toArray()).map((i) => i['name'])).toEqual(['_id_']);
  });

  it('accepts a hint', async () => {
    const coll = t.db.collection<any>('hinted');
    await coll.createIndex({ a: 1 });
    await coll.insertOne({ a: 1 });
    expect(await coll.find({ a: 1 }).hint({ a: 1 }).toArray()).toHaveLength(1);
    expect(await coll.find({ a: 1 }).hint('a_1').toArray()).toHaveLength(1);
  });

  it('rejects a hint that names no index with BadValue (2)', async () => {
    const coll = t.db.collection<any>('badhint');
    await coll.insertOne({ a: 1 });
    expect((await failure(() => coll.find({ a: 1 }).hint({ zzz: 1 }).toArray()))['code']).toBe(2);
  });

  it.skipIf(external)('expires documents through a TTL index', async () => {
    const coll = t.db.collection<any>('ttl');
    await coll.createIndex({ at: 1 }, { expireAfterSeconds: 1 });
    await coll.insertMany([
      { at: new Date(Date.now() - 60_000), old: true },
      { at: new Date(Date.now() + 60_000), old: false },
      { at: 'not a date', old: false },
    ]);
    await expect.poll(() => coll.countDocuments({ old: true }), { timeout: 3000, interval: 50 }).toBe(0);
    expect(await coll.countDocuments()).toBe(2);
  });

  it.skipIf(external)(
    'expires a document by its index keys: the earliest date the key generator reaches',
    async () => {
      // The TTL monitor scans the index for date keys up to the cutoff (src/mongo/db/ttl.cpp), and the
      // keys are btree_key_generator.cpp's: no field is read in an array nested in an array, and
      // 'c.0' keeps an array it picks whole. A hashed index is skipped ("special index can't be used as
      // a TTL index").
      const past = new Date(Date.now() - 60_000);
      const future = new Date(Date.now() + 60_000);
      const paths = t.db.collection<any>('ttl_keys');
      await paths.createIndex({ 'a.b': 1 }, { expireAfterSeconds: 1 });
      await paths.insertMany([
        { _id: 'array with one past date', a: { b: [future, 'x', past] }, old: true },
        { _id: 'documents in an array', a: [{ b: future }, { b: past }], old: true },
        { _id: 'nested array', a: [[{ b: past }]], old: false },
        { _id: 'no dates', a: { b: [1, 'x', { d: past }] }, old: false },
        { _id: 'future', a: { b: [future] }, old: false },
      ]);
      const positions = t.db.collection<any>('ttl_positions');
      await positions.createIndex({ 'c.0': 1 }, { expireAfterSeconds: 1 });
      await positions.insertMany([
        { _id: 'first element past', c: [past, future], old: true },
        { _id: 'first element an array', c: [[past], future], old: false },
      ]);
      const hashed = t.db.collection<any>('ttl_hashed');
      await hashed.createIndex({ at: 'hashed' }, { expireAfterSeconds: 1 });
      await hashed.insertOne({ _id: 'hashed', at: past });
      const poll = { timeout: 3000, interval: 50 };
      await expect.poll(() => paths.countDocuments({ old: true }), poll).toBe(0);
      await expect.poll(() => positions.countDocuments({ old: true }), poll).toBe(0);
      // Each sweep reads every index, so the sweep that deleted those kept these.
      expect((await paths.find().toArray()).map((d) => d._id)).toEqual([
        'nested array',
        'no dates',
        'future',
      ]);
      expect((await positions.find().toArray()).map((d) => d._id)).toEqual(['first element an array']);
      expect(await hashed.countDocuments()).toBe(1);
    },
  );
});
