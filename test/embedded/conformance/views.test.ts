/**
 * Read-only views answer as MongoDB 7.0's do: `create` with `viewOn`/`pipeline` (manual: "create",
 * "db.createView()"), reads that run the view's pipeline first (manual: "Views", "Supported Operations
 * for Views"), the listCollections entry (manual: "listCollections", Output), and writes and index
 * commands refused with CommandNotSupportedOnView (166, "Namespace <ns> is a view, not a collection",
 * MongoDB's AutoGetCollection). Each case names its source.
 */
import { describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import { startEmbeddedServer } from 'plume/embedded';
import { connect, drivers, external, failure } from '../helpers.js';
import { tempDir } from '../../support/temp-dir.js';

const people = [
  { _id: 1, name: 'ann', age: 31, team: 'red' },
  { _id: 2, name: 'bob', age: 17, team: 'blue' },
  { _id: 3, name: 'cyd', age: 45, team: 'red' },
  { _id: 4, name: 'dee', age: 22, team: 'blue' },
];

describe.each(drivers)('views ($name)', (driver) => {
  const t = connect(driver, 'views');
  /** A collection or view of the test database (documents with numeric `_id`s). */
  const coll = (name: string) => t.db.collection<{ _id: number; [field: string]: unknown }>(name);

  /** A fresh source collection `<prefix>_src` and an adults view `<prefix>_adults` on it. */
  async function seed(prefix: string): Promise<{ src: string; view: string }> {
    const src = `${prefix}_src`;
    const view = `${prefix}_adults`;
    await coll(src).insertMany(people.map((p) => ({ ...p })));
    // Manual, "db.createView()": db.createView(<view>, <source>, <pipeline>) is create with viewOn.
    await t.db.createCollection(view, {
      viewOn: src,
      pipeline: [{ $match: { age: { $gte: 18 } } }, { $project: { age: 0 } }],
    });
    return { src, view };
  }

  it('reads a view through find with filter, sort, skip, limit and projection', async () => {
    const { view } = await seed('find');
    const v = coll(view);
    // Manual, "Views": reads run the view's pipeline, then the find's own filter, sort and projection.
    expect(await v.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, name: 'ann', team: 'red' },
      { _id: 3, name: 'cyd', team: 'red' },
      { _id: 4, name: 'dee', team: 'blue' },
    ]);
    expect(
      await v
        .find({ team: 'red' }, { projection: { _id: 0, name: 1 } })
        .sort({ name: -1 })
        .toArray(),
    ).toEqual([{ name: 'cyd' }, { name: 'ann' }]);
    expect(await v.find({}, { sort: { _id: 1 }, skip: 1, limit: 1 }).toArray()).toEqual([
      { _id: 3, name: 'cyd', team: 'red' },
    ]);
    // Cursors on a view page through getMore like any other (manual, "Views": find is supported).
    const all = await v.find({}, { batchSize: 1 }).sort({ _id: 1 }).toArray();
    expect(all.map((d) => d['_id'])).toEqual([1, 3, 4]);
    expect(await v.findOne({ _id: 2 })).toBeNull();
  });

  it('aggregates on a view after its pipeline, and reads views on views', async () => {
    const { view } = await seed('agg');
    // Manual, "Views": aggregate on a view runs the view's pipeline first.
    const byTeam = await t.db
      .collection(view)
      .aggregate([{ $group: { _id: '$team', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(byTeam).toEqual([
      { _id: 'blue', n: 1 },
      { _id: 'red', n: 2 },
    ]);
    // Manual, "db.createView()": the source may be a collection or a view.
    await t.db.createCollection('agg_red', { viewOn: view, pipeline: [{ $match: { team: 'red' } }] });
    const red = await coll('agg_red').find().sort({ _id: 1 }).toArray();
    expect(red.map((d) => d['name'])).toEqual(['ann', 'cyd']);
  });

  it('counts and lists distinct values of a view', async () => {
    const { view } = await seed('count');
    const v = coll(view);
    // Manual, "Supported Operations for Views": count, distinct, countDocuments, estimatedDocumentCount.
    expect(await v.countDocuments()).toBe(3);
    expect(await v.countDocuments({ team: 'blue' })).toBe(1);
    expect(await v.estimatedDocumentCount()).toBe(3);
    expect((await v.distinct('team')).sort()).toEqual(['blue', 'red']);
    expect(await v.distinct('name', { team: 'red' })).toEqual(['ann', 'cyd']);
  });

  it('sees the source as it is at read time', async () => {
    const { src, view } = await seed('live');
    await coll(src).insertOne({ _id: 5, name: 'eve', age: 50, team: 'blue' });
    expect(await coll(view).countDocuments()).toBe(4);
    // Manual, "Views": dropping the source leaves the view, which then reads nothing.
    await coll(src).drop();
    expect(await coll(view).find().toArray()).toEqual([]);
    expect((await t.db.listCollections({ name: view }).toArray()).length).toBe(1);
  });

  it('lists a view with its definition', async () => {
    const { src, view } = await seed('list');
    // Manual, "listCollections", Output: type 'view', options { viewOn, pipeline }, info { readOnly: true }.
    expect(await t.db.listCollections({ name: view }).toArray()).toEqual([
      {
        name: view,
        type: 'view',
        options: { viewOn: src, pipeline: [{ $match: { age: { $gte: 18 } } }, { $project: { age: 0 } }] },
        info: { readOnly: true },
      },
    ]);
    expect(await t.db.listCollections({ name: view }, { nameOnly: true }).toArray()).toEqual([
      { name: view, type: 'view' },
    ]);
  });

  it('refuses writes and index commands on a view with CommandNotSupportedOnView', async () => {
    const { view } = await seed('write');
    const v = coll(view);
    const message = `Namespace ${t.db.databaseName}.${view} is a view, not a collection`;
    // Manual, "Views": views are read-only; write operations on views error.
    for (const op of [
      () => v.insertOne({ _id: 9 }),
      () => v.updateOne({ _id: 1 }, { $set: { x: 1 } }),
      () => v.deleteMany({}),
      () => v.findOneAndUpdate({ _id: 1 }, { $set: { x: 1 } }),
      () => v.createIndex({ name: 1 }),
    ]) {
      const error = await failure(op);
      expect({ code: error.code, message: error.message }).toEqual({ code: 166, message });
    }
    // Manual, "Views": index operations are on the source; listIndexes on a view fails the same way.
    expect((await failure(() => v.listIndexes().toArray())).code).toBe(166);
    expect(await coll(`${'write'}_src`).countDocuments()).toBe(4);
  });

  it('refuses a $out or $merge in a view definition, and a different collation on a read', async () => {
    // Manual, "db.createView()": a view definition pipeline cannot include $out or $merge.
    for (const stage of [{ $out: 'x' }, { $merge: { into: 'x' } }]) {
      const error = await failure(() =>
        t.db.createCollection('bad_view', { viewOn: 'src', pipeline: [stage] }),
      );
      expect(error.code).toBe(167);
    }
    // MongoDB's create command: viewOn must be a string (TypeMismatch).
    expect((await failure(() => t.db.command({ create: 'bad_view', viewOn: 1 }))).code).toBe(14);
    // Manual, "Create a View with Default Collation": a read may not override the view's collation.
    const { view } = await seed('coll');
    const error = await failure(() =>
      coll(view)
        .find({}, { collation: { locale: 'fr' } })
        .toArray(),
    );
    expect({ code: error.code, message: error.message }).toEqual({
      code: 167,
      message: "Cannot override a view's default collation",
    });
  });

  it('keeps the namespace rules of create, refuses cycles and counts views in dbStats', async () => {
    const { src, view } = await seed('ns');
    // Manual, "create": the same name with other options is NamespaceExists (48), as for collections.
    expect((await failure(() => t.db.command({ create: view, viewOn: src, pipeline: [] }))).code).toBe(48);
    expect((await failure(() => t.db.command({ create: src, viewOn: view }))).code).toBe(48);
    // MongoDB's view graph (view_graph.cpp): a definition that reaches itself is GraphContainsCycle,
    // code 5 in error_codes.yml.
    await t.db.createCollection('ns_top', { viewOn: view });
    expect(
      await failure(() => t.db.command({ collMod: view, viewOn: 'ns_top', pipeline: [] })),
    ).toMatchObject({ code: 5, codeName: 'GraphContainsCycle' });
    // Manual, "dbStats": `views` counts the database's views.
    expect((await t.db.stats())['views']).toBeGreaterThanOrEqual(2);
  });

  it('refuses views nested deeper than 20 with ViewDepthLimitExceeded (165)', async () => {
    // view_graph.cpp: kMaxViewDepth is 20; error_codes.yml: ViewDepthLimitExceeded is 165.
    const { src } = await seed('deep');
    let on = src;
    let refusal: unknown;
    for (let level = 1; level <= 25 && refusal === undefined; level++) {
      const name = `deep_v${level}`;
      try {
        await t.db.createCollection(name, { viewOn: on });
        await t.db.collection(name).find().toArray();
      } catch (error) {
        refusal = error;
      }
      on = name;
    }
    expect(refusal).toMatchObject({ code: 165, codeName: 'ViewDepthLimitExceeded' });
  });

  it('reads a view inside a transaction as the transaction sees its source', async () => {
    const { src, view } = await seed('txn');
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await coll(src).insertOne({ _id: 7, name: 'gus', age: 60, team: 'red' }, { session });
      // Manual, "Transactions": reads in a transaction see its own writes; the view reads its source so.
      expect(await coll(view).countDocuments({}, { session })).toBe(4);
      expect(await coll(view).countDocuments()).toBe(3);
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
  });

  it('drops a view without touching its source, and redefines it with collMod', async () => {
    const { src, view } = await seed('drop');
    // Manual, "collMod": { collMod: <view>, viewOn, pipeline } changes a view's definition.
    await t.db.command({ collMod: view, viewOn: src, pipeline: [{ $match: { team: 'blue' } }] });
    expect((await coll(view).find().toArray()).map((d) => d['name']).sort()).toEqual(['bob', 'dee']);
    // Manual, "Views": drop removes a view (db.collection.drop()).
    expect(await coll(view).drop()).toBe(true);
    expect(await t.db.listCollections({ name: view }).toArray()).toEqual([]);
    expect(await coll(src).countDocuments()).toBe(4);
  });
});

describe.skipIf(external)('views across a restart (embedded only)', () => {
  it('keeps a view definition in the data directory', async () => {
    const dbPath = tempDir('plume-views-');
    const run = async <T>(fn: (client: MongoClient) => Promise<T>): Promise<T> => {
      const server = await startEmbeddedServer({ dbPath });
      const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
      try {
        return await fn(client);
      } finally {
        await client.close();
        await server.stop();
      }
    };
    await run(async (client) => {
      const db = client.db('app');
      await db.collection('src').insertMany([{ a: 1 }, { a: 2 }]);
      await db.createCollection('v', { viewOn: 'src', pipeline: [{ $match: { a: 2 } }] });
    });
    const names = await run(async (client) => {
      const db = client.db('app');
      const info = await db.listCollections({ name: 'v' }).toArray();
      expect(info[0]).toMatchObject({ type: 'view', options: { viewOn: 'src' } });
      return await db
        .collection('v')
        .find({}, { projection: { _id: 0 } })
        .toArray();
    });
    expect(names).toEqual([{ a: 2 }]);
  });
});
