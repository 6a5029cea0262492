import net from 'node:net';
import { BSON } from 'bson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, MongoClient } from 'mongodb';
import { dbName, drivers, external, startTarget } from './helpers.js';

describe.each(drivers)('embedded server through the real $name', ({ MongoClient: Client, bson }) => {
  const { Binary, Decimal128, Long, ObjectId } = bson;
  let target: { uri: string; stop(): Promise<void> };
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    target = await startTarget();
    client = new Client(target.uri, { serverSelectionTimeoutMS: 3000 });
    await client.connect();
    db = client.db(dbName('driver'));
  });

  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
    await target.stop();
  });

  it('answers ping, hello and buildInfo', async () => {
    expect(await db.command({ ping: 1 })).toMatchObject({ ok: 1 });
    const hello = await db.admin().command({ hello: 1 });
    expect(hello['isWritablePrimary']).toBe(true);
    expect(hello['logicalSessionTimeoutMinutes']).toBeGreaterThan(0);
    expect(hello['maxWireVersion']).toBeGreaterThanOrEqual(9);
    expect(hello['topologyVersion']).toBeUndefined();
    const info = await db.admin().command({ buildInfo: 1 });
    expect(typeof info['version']).toBe('string');
  });

  it('answers an unknown command with CommandNotFound (59)', async () => {
    await expect(db.command({ noSuchCommandEver: 1 })).rejects.toMatchObject({
      code: 59,
      codeName: 'CommandNotFound',
    });
  });

  it.skipIf(external)('refuses capped and time-series collections instead of faking them', async () => {
    for (const options of [{ capped: true, size: 4096 }, { timeseries: { timeField: 't' } }]) {
      await expect(db.createCollection('unsupported', options)).rejects.toMatchObject({ code: 238 });
    }
    expect(await db.listCollections({ name: 'unsupported' }).toArray()).toEqual([]);
  });

  it.skipIf(external)('refuses server-side JavaScript in filters with a clear message', async () => {
    const coll = db.collection('javascript');
    for (const filter of [
      { $where: 'this.a > 1' },
      { $expr: { $function: { body: 'function () { return true; }', args: [], lang: 'js' } } },
    ]) {
      await expect(coll.find(filter).toArray()).rejects.toMatchObject({
        code: 238,
        message: expect.stringContaining('server-side JavaScript'),
      });
    }
  });

  it.skipIf(external)('refuses geospatial queries with a clear message (238)', async () => {
    const coll = db.collection('places');
    await coll.insertOne({ loc: [0, 0] });
    for (const filter of [
      { loc: { $near: [0, 0] } },
      { loc: { $geoWithin: { $centerSphere: [[0, 0], 1] } } },
    ]) {
      await expect(coll.find(filter).toArray()).rejects.toMatchObject({
        code: 238,
        message: expect.stringContaining('geospatial'),
      });
    }
  });

  it('generates _id, moves it first and keeps BSON types on round trip', async () => {
    const coll = db.collection<any>('types');
    const doc = {
      name: 'x',
      date: new Date('2024-01-02T03:04:05.678Z'),
      oid: new ObjectId(),
      dec: Decimal128.fromString('12.345'),
      bin: new Binary(Buffer.from([1, 2, 3])),
      big: Long.fromString('9007199254740993'),
      nested: { arr: [1, 'two', { three: 3 }] },
    };
    const { insertedId } = await coll.insertOne({ ...doc });
    expect(insertedId).toBeInstanceOf(Object);
    const found = await coll.findOne({ _id: insertedId });
    expect(Object.keys(found)[0]).toBe('_id');
    expect(found!['_id'].toHexString()).toBe(insertedId.toHexString());
    expect(found!['date']).toBeInstanceOf(Date);
    expect(found!['date'].toISOString()).toBe('2024-01-02T03:04:05.678Z');
    expect(found!['oid'].toHexString()).toBe(doc.oid.toHexString());
    expect(found!['dec'].toString()).toBe('12.345');
    expect(Buffer.from(found!['bin'].buffer)).toEqual(Buffer.from([1, 2, 3]));
    expect(found!['big'].toString()).toBe('9007199254740993');
    expect(found!['nested']).toEqual({ arr: [1, 'two', { three: 3 }] });
    const withId = await coll.insertOne({ a: 1, _id: 'custom' });
    expect(withId.insertedId).toBe('custom');
    const raw = await coll.findOne({ _id: 'custom' } as never);
    expect(Object.keys(raw)).toEqual(['_id', 'a']);
  });

  it('finds with filter, sort, skip, limit and projection', async () => {
    const coll = db.collection<any>('people');
    await coll.insertMany([
      { name: 'Ann', age: 31, tags: ['a', 'b'], address: { city: 'Oslo' } },
      { name: 'bob', age: 25, tags: ['b'], address: { city: 'Rome' } },
      {
        name: 'Cid',
        age: 40,
        tags: [],
        items: [
          { k: 'x', v: 1 },
          { k: 'y', v: 5 },
        ],
      },
      { name: 'dan', age: 25 },
    ]);
    const names = (
      await coll
        .find({ age: { $gte: 25 } })
        .sort({ age: 1, name: 1 })
        .skip(1)
        .limit(2)
        .toArray()
    ).map((d) => d['name']);
    expect(names).toEqual(['dan', 'Ann']);
    const projected = await coll
      .find({ name: 'Ann' }, { projection: { _id: 0, name: 1, 'address.city': 1 } })
      .toArray();
    expect(projected).toEqual([{ name: 'Ann', address: { city: 'Oslo' } }]);
    expect(await coll.countDocuments({ name: { $regex: '^[ab]', $options: 'i' } })).toBe(2);
    expect(await coll.countDocuments({ name: /^B/i })).toBe(1);
    expect(await coll.countDocuments({ address: { $exists: true } })).toBe(2);
    expect(await coll.countDocuments({ address: { $exists: false } })).toBe(2);
    expect(await coll.countDocuments({ items: { $elemMatch: { k: 'y', v: { $gt: 3 } } } })).toBe(1);
    expect(await coll.countDocuments({ tags: { $all: ['a', 'b'] } })).toBe(1);
    expect(await coll.countDocuments({ tags: 'b' })).toBe(2);
    expect(await coll.estimatedDocumentCount()).toBe(4);
    expect(await coll.countDocuments({ age: 25 }, { skip: 1 })).toBe(1);
  });

  it('reads by _id without scanning the collection', async () => {
    const coll = db.collection<any>('big');
    const docs = Array.from({ length: 2000 }, (_, i) => ({ _id: i, v: i }));
    await coll.insertMany(docs);
    const examined = async (filter: object): Promise<number> => {
      const plan = await coll.find(filter).explain('executionStats');
      return Number(plan['executionStats']['totalDocsExamined']);
    };
    expect(await coll.findOne({ _id: 1234 })).toEqual({ _id: 1234, v: 1234 });
    expect(await coll.findOne({ _id: { $in: [5, 6] } })).toEqual({ _id: 5, v: 5 });
    expect(await examined({ _id: 1234 })).toBe(1);
    expect(await examined({ _id: { $in: [5, 6] } })).toBe(2);
    expect(await examined({ v: 1234 })).toBe(2000);
  });

  it('streams a large result through getMore and closes cursors early', async () => {
    const coll = db.collection<any>('cursor');
    await coll.insertMany(Array.from({ length: 250 }, (_, i) => ({ i })));
    const all = await coll.find({}).batchSize(100).toArray();
    expect(all.map((d) => d['i'])).toEqual(Array.from({ length: 250 }, (_, i) => i));
    const cursor = coll.find({}).batchSize(10);
    const first = await cursor.next();
    expect(first?.['i']).toBe(0);
    await cursor.close();
    const agg = await coll.aggregate([{ $match: { i: { $gte: 100 } } }], { batchSize: 20 }).toArray();
    expect(agg).toHaveLength(150);
  });

  it('aggregates with $lookup, $unwind, $addFields, $replaceRoot, $project, $group and $count', async () => {
    const users = db.collection<any>('agg_users');
    const posts = db.collection<any>('agg_posts');
    const u1 = new ObjectId();
    const u2 = new ObjectId();
    await users.insertMany([
      { _id: u1, name: 'ann' },
      { _id: u2, name: 'bob' },
    ]);
    await posts.insertMany([
      { author: u1, title: 'one', tags: ['x', 'y'] },
      { author: u1, title: 'two', tags: [] },
      { author: u2, title: 'three' },
    ]);
    const joined = await posts
      .aggregate([
        { $lookup: { from: 'agg_users', localField: 'author', foreignField: '_id', as: 'user' } },
        { $unwind: '$user' },
        { $addFields: { userName: '$user.name' } },
        { $project: { _id: 0, title: 1, userName: 1 } },
        { $sort: { title: 1 } },
      ])
      .toArray();
    expect(joined).toEqual([
      { title: 'one', userName: 'ann' },
      { title: 'three', userName: 'bob' },
      { title: 'two', userName: 'ann' },
    ]);
    const unwound = await posts
      .aggregate([{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true } }, { $count: 'n' }])
      .toArray();
    expect(unwound).toEqual([{ n: 4 }]);
    // preserveNullAndEmptyArrays must not have mutated the stored documents
    expect((await posts.findOne({ title: 'two' }))!['tags']).toEqual([]);
    const roots = await posts
      .aggregate([{ $match: { title: 'one' } }, { $replaceRoot: { newRoot: { t: '$title' } } }])
      .toArray();
    expect(roots).toEqual([{ t: 'one' }]);
    const grouped = await posts
      .aggregate([{ $group: { _id: '$author', n: { $sum: 1 } } }, { $sort: { n: -1 } }])
      .toArray();
    expect(grouped[0]).toMatchObject({ n: 2 });
    expect(grouped[0]!['_id'].toHexString()).toBe(u1.toHexString());
  });

  it('updates with operators, replacement and upsert', async () => {
    const coll = db.collection<any>('updates');
    await coll.insertMany([
      { k: 1, n: 1, list: [1] },
      { k: 2, n: 2, list: [] },
    ]);
    const one = await coll.updateOne(
      { k: 1 },
      { $inc: { n: 5 }, $push: { list: 2 } as any, $set: { 'sub.x': true } },
    );
    expect(one).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await coll.findOne({ k: 1 }, { projection: { _id: 0 } })).toEqual({
      k: 1,
      n: 6,
      list: [1, 2],
      sub: { x: true },
    });
    const many = await coll.updateMany({}, { $set: { flag: true } });
    expect(many).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    const noop = await coll.updateOne({ k: 2 }, { $set: { flag: true } });
    expect(noop).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    const replaced = await coll.replaceOne({ k: 2 }, { k: 2, replaced: true });
    expect(replaced.modifiedCount).toBe(1);
    expect(await coll.findOne({ k: 2 }, { projection: { _id: 0 } })).toEqual({ k: 2, replaced: true });
    const up = await coll.updateOne(
      { k: 3, tag: 'seed' },
      { $set: { n: 1 }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    expect(up.upsertedCount).toBe(1);
    expect(up.upsertedId).toBeTruthy();
    expect(await coll.findOne({ k: 3 }, { projection: { _id: 0 } })).toEqual({
      k: 3,
      tag: 'seed',
      n: 1,
      created: true,
    });
    const again = await coll.updateOne(
      { k: 3 },
      { $set: { n: 2 }, $setOnInsert: { created: false } },
      { upsert: true },
    );
    expect(again).toMatchObject({ matchedCount: 1, upsertedCount: 0 });
    expect((await coll.findOne({ k: 3 }))!['created']).toBe(true);
    const del = await coll.deleteMany({ flag: true });
    expect(del.deletedCount).toBe(1);
    expect((await coll.deleteOne({ k: 3 })).deletedCount).toBe(1);
  });

  it('runs findOneAndUpdate, findOneAndReplace and findOneAndDelete', async () => {
    const coll = db.collection<any>('fam');
    await coll.insertMany([
      { k: 'a', n: 1 },
      { k: 'b', n: 2 },
    ]);
    const before = await coll.findOneAndUpdate({ k: 'a' }, { $inc: { n: 1 } });
    expect(before).toMatchObject({ k: 'a', n: 1 });
    const after = await coll.findOneAndUpdate(
      { k: 'a' },
      { $inc: { n: 1 } },
      { returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(after).toEqual({ k: 'a', n: 3 });
    const replaced = await coll.findOneAndReplace({ k: 'b' }, { k: 'b', n: 20 }, { returnDocument: 'after' });
    expect(replaced).toMatchObject({ k: 'b', n: 20 });
    const sorted = await coll.findOneAndUpdate(
      {},
      { $set: { top: true } },
      { sort: { n: -1 }, returnDocument: 'after' },
    );
    expect(sorted).toMatchObject({ k: 'b', top: true });
    const upserted = await coll.findOneAndUpdate(
      { k: 'c' },
      { $set: { n: 9 } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    expect(upserted.value).toMatchObject({ k: 'c', n: 9 });
    expect(upserted.lastErrorObject).toMatchObject({ updatedExisting: false, n: 1 });
    const deleted = await coll.findOneAndDelete({ k: 'a' });
    expect(deleted).toMatchObject({ k: 'a', n: 3 });
    expect(await coll.findOneAndDelete({ k: 'zzz' })).toBeNull();
  });

  it('enforces unique indexes with DuplicateKey errors in the driver shapes', async () => {
    const coll = db.collection<any>('unique');
    expect(await coll.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    await coll.insertOne({ email: 'a@x' });
    await expect(coll.insertOne({ email: 'a@x' })).rejects.toMatchObject({
      code: 11000,
      keyValue: { email: 'a@x' },
      keyPattern: { email: 1 },
    });
    const ordered = await coll
      .insertMany([{ email: 'b@x' }, { email: 'a@x' }, { email: 'c@x' }])
      .catch((e: unknown) => e);
    expect(ordered).toMatchObject({ code: 11000, name: 'MongoBulkWriteError' });
    expect((ordered as { result: { insertedCount: number } }).result.insertedCount).toBe(1);
    const unordered = await coll
      .insertMany([{ email: 'd@x' }, { email: 'a@x' }, { email: 'e@x' }], { ordered: false })
      .catch((e: unknown) => e);
    expect((unordered as { result: { insertedCount: number } }).result.insertedCount).toBe(2);
    expect(await coll.countDocuments()).toBe(4);
    await expect(coll.updateOne({ email: 'b@x' }, { $set: { email: 'a@x' } })).rejects.toMatchObject({
      code: 11000,
    });
    await expect(coll.findOneAndUpdate({ email: 'b@x' }, { $set: { email: 'a@x' } })).rejects.toMatchObject({
      code: 11000,
      codeName: 'DuplicateKey',
    });
    const id = (await coll.findOne({ email: 'a@x' }))!['_id'];
    await expect(coll.insertOne({ _id: id, email: 'z@x' })).rejects.toMatchObject({ code: 11000 });
    const indexes = await coll.listIndexes().toArray();
    expect(indexes.map((i) => i['name'])).toEqual(['_id_', 'email_1']);
    expect(indexes[1]).toMatchObject({ key: { email: 1 }, unique: true });
    await expect(coll.createIndex({ email: 1 }, { unique: true })).resolves.toBe('email_1');
  });

  it('lists and drops collections', async () => {
    await db.collection<any>('listed').insertOne({ a: 1 });
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toContain('listed');
    const filtered = await db.listCollections({ name: 'listed' }).toArray();
    expect(filtered).toHaveLength(1);
    expect(await db.collection<any>('listed').drop()).toBe(true);
    expect((await db.listCollections({ name: 'listed' }).toArray()).length).toBe(0);
  });

  it('applies collation to matching, counting, sorting, updating and deleting', async () => {
    const coll = db.collection<any>('collation');
    await coll.insertMany([
      { name: 'Bob' },
      { name: 'bob' },
      { name: 'BÖB' },
      { name: 'alice' },
      { name: 'Carl' },
    ]);
    const ci = { locale: 'en', strength: 2 };
    const ai = { locale: 'en', strength: 1 };
    expect(await coll.countDocuments({ name: 'BOB' }, { collation: ci })).toBe(2);
    expect(await coll.countDocuments({ name: 'bob' }, { collation: ai })).toBe(3);
    expect(await coll.countDocuments({ name: 'bob' })).toBe(1);
    expect(await coll.find({ name: { $in: ['ALICE'] } }, { collation: ci }).toArray()).toHaveLength(1);
    const sorted = (await coll.find({}, { collation: ci }).sort({ name: 1 }).toArray()).map((d) => d['name']);
    expect(sorted[0]).toBe('alice');
    expect(sorted[sorted.length - 1]).toBe('Carl');
    const agg = await coll.aggregate([{ $match: { name: 'CARL' } }], { collation: ci }).toArray();
    expect(agg).toHaveLength(1);
    expect(
      (await coll.updateMany({ name: 'BOB' }, { $set: { hit: true } }, { collation: ci })).modifiedCount,
    ).toBe(2);
    expect((await coll.deleteMany({ name: 'BOB' }, { collation: ai })).deletedCount).toBe(3);
  });

  it('commits and aborts transactions through sessions', async () => {
    const coll = db.collection<any>('txn');
    await coll.insertOne({ k: 'base' });
    const session = client.startSession();
    try {
      await session.withTransaction(async () => {
        await coll.insertOne({ k: 'in-txn' }, { session });
        expect(await coll.countDocuments({}, { session })).toBe(2);
        expect(await coll.countDocuments({})).toBe(1);
      });
      expect(await coll.countDocuments({})).toBe(2);
      session.startTransaction();
      await coll.deleteMany({}, { session });
      await session.abortTransaction();
      expect(await coll.countDocuments({})).toBe(2);
    } finally {
      await session.endSession();
    }
  });

  it('sends w:0 writes with moreToCome and keeps serving the connection', async () => {
    const coll = db.collection<any>('w0');
    await coll.insertOne({ fast: true }, { writeConcern: { w: 0 } });
    await expect.poll(() => coll.countDocuments({ fast: true }), { timeout: 2000 }).toBe(1);
  });
});

describe.skipIf(external)('wire protocol details', () => {
  it('answers a legacy OP_QUERY isMaster with an OP_REPLY', async () => {
    const target = await startTarget();
    try {
      const port = Number(new URL(target.uri).port);
      const body = BSON.serialize({ isMaster: 1, helloOk: true });
      const ns = Buffer.from('admin.$cmd\0');
      const head = Buffer.alloc(16);
      const fields = Buffer.alloc(4);
      const skipReturn = Buffer.alloc(8);
      skipReturn.writeInt32LE(-1, 4);
      const length = 16 + 4 + ns.length + 8 + body.length;
      head.writeInt32LE(length, 0);
      head.writeInt32LE(7, 4);
      head.writeInt32LE(2004, 12);
      const reply = await new Promise<Buffer>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () =>
          socket.write(Buffer.concat([head, fields, ns, skipReturn, body])),
        );
        let got = Buffer.alloc(0);
        socket.on('data', (chunk) => {
          got = Buffer.concat([got, chunk]);
          if (got.length >= 4 && got.length >= got.readInt32LE(0)) {
            socket.end();
            resolve(got);
          }
        });
        socket.on('error', reject);
      });
      expect(reply.readInt32LE(8)).toBe(7); // responseTo
      expect(reply.readInt32LE(12)).toBe(1); // OP_REPLY
      expect(reply.readInt32LE(32)).toBe(1); // numberReturned
      const doc = BSON.deserialize(reply.subarray(36));
      expect(doc).toMatchObject({ ok: 1, ismaster: true });
      expect(doc['minWireVersion']).toBeTypeOf('number');
    } finally {
      await target.stop();
    }
  });
});
