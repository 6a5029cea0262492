/**
 * Change streams through the official drivers. Expected shapes and behaviour come from the MongoDB
 * manual: Change Events (https://www.mongodb.com/docs/manual/reference/change-events/), Change Streams
 * (https://www.mongodb.com/docs/manual/changeStreams/), $changeStream
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/changeStream/) and the driver
 * Change Streams specification (https://github.com/mongodb/specifications/blob/master/source/change-streams/change-streams.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChangeStream, Document } from 'mongodb';
import { startEmbeddedServer } from 'plume/embedded';
import { connect, drivers, external, failure } from '../helpers.js';

type Stream = ChangeStream<any, any>;
interface Watchable {
  watch(pipeline?: Document[], options?: Document): Stream;
}

/** Opens a stream and runs its first aggregate, so every later write is seen. */
async function open(target: Watchable, pipeline: Document[] = [], options: Document = {}): Promise<Stream> {
  const stream = target.watch(pipeline, { maxAwaitTimeMS: 50, ...options });
  expect(await stream.tryNext()).toBeNull();
  return stream;
}

async function take(stream: Stream, n: number): Promise<Document[]> {
  const out: Document[] = [];
  while (out.length < n) out.push(await stream.next());
  return out;
}

describe.each(drivers)('change stream conformance ($name)', (driver) => {
  const t = connect(driver, 'cs');

  it('reports insert, update, replace and delete events with the documented fields', async () => {
    const coll = t.db.collection<any>('crud');
    const stream = await open(coll);
    await coll.insertOne({ _id: 1, name: 'ada', phone: '1' });
    await coll.updateOne({ _id: 1 }, { $set: { name: 'grace' }, $unset: { phone: '' } });
    await coll.replaceOne({ _id: 1 }, { name: 'linus' });
    await coll.deleteOne({ _id: 1 });
    const [ins, upd, rep, del] = await take(stream, 4);
    await stream.close();
    expect(ins).toMatchObject({
      operationType: 'insert',
      fullDocument: { _id: 1, name: 'ada', phone: '1' },
      ns: { db: t.db.databaseName, coll: 'crud' },
      documentKey: { _id: 1 },
    });
    expect(Object.keys(ins!)).toEqual(
      expect.arrayContaining([
        '_id',
        'operationType',
        'clusterTime',
        'wallTime',
        'fullDocument',
        'ns',
        'documentKey',
      ]),
    );
    expect(ins!['_id']._data).toEqual(expect.any(String));
    expect(ins!['clusterTime']._bsontype).toBe('Timestamp');
    expect(ins!['wallTime']).toBeInstanceOf(Date);
    expect(upd).toMatchObject({
      operationType: 'update',
      documentKey: { _id: 1 },
      updateDescription: { updatedFields: { name: 'grace' }, removedFields: ['phone'], truncatedArrays: [] },
    });
    expect(upd).not.toHaveProperty('fullDocument');
    expect(rep).toMatchObject({ operationType: 'replace', fullDocument: { _id: 1, name: 'linus' } });
    expect(del).toMatchObject({ operationType: 'delete', documentKey: { _id: 1 } });
    expect(del).not.toHaveProperty('fullDocument');
  });

  it('describes updates by dotted path, appended elements and pipeline-changed arrays', async () => {
    const coll = t.db.collection<any>('desc');
    await coll.insertOne({ _id: 1, address: { city: 'Paris', zip: '1' }, tags: ['a', 'b'], list: [1, 2, 3] });
    const stream = await open(coll);
    await coll.updateOne({ _id: 1 }, { $set: { 'address.city': 'Lyon' }, $push: { tags: 'c' } } as Document);
    await coll.updateOne({ _id: 1 }, [{ $set: { list: { $slice: ['$list', 1] } } }]);
    const [a, b] = await take(stream, 2);
    await stream.close();
    expect(a!['updateDescription']).toEqual({
      updatedFields: { 'address.city': 'Lyon', 'tags.2': 'c' },
      removedFields: [],
      truncatedArrays: [],
    });
    // MongoDB 7.0 diffs a pipeline update's documents (document_diff_calculator.cpp) and logs a sub-diff
    // only when it is smaller than the value: `{a: true, l: 1}` is not smaller than `[1]`, so the array is
    // listed whole (update-description.test.ts has the truncation case).
    expect(b!['updateDescription']).toEqual({
      updatedFields: { list: [1] },
      removedFields: [],
      truncatedArrays: [],
    });
  });

  it('shows transaction writes at commit, in order, with lsid and txnNumber; never aborted ones', async () => {
    const coll = t.db.collection<any>('txn');
    const stream = await open(coll);
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await coll.insertOne({ _id: 'aborted' }, { session });
      await session.abortTransaction();
      session.startTransaction();
      await coll.insertOne({ _id: 'x', n: 1 }, { session });
      await coll.updateOne({ _id: 'x' }, { $inc: { n: 1 } }, { session });
      await coll.insertOne({ _id: 'y' }, { session });
      expect(await stream.tryNext()).toBeNull();
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    await coll.insertOne({ _id: 'after' });
    const events = await take(stream, 4);
    await stream.close();
    expect(events.map((e) => [e['operationType'], e['documentKey']._id])).toEqual([
      ['insert', 'x'],
      ['update', 'x'],
      ['insert', 'y'],
      ['insert', 'after'],
    ]);
    expect(events[0]!['fullDocument']).toEqual({ _id: 'x', n: 1 });
    for (const e of events.slice(0, 3)) {
      expect(e['lsid'].id._bsontype).toBe('Binary');
      expect(Number(e['txnNumber'])).toBeGreaterThan(0);
    }
    expect(events[3]).not.toHaveProperty('txnNumber');
  });

  it('db.watch() sees every collection of the database, client.watch() every database', async () => {
    const other = t.client.db(`${t.db.databaseName}_other`);
    const dbStream = await open(t.db);
    const clusterStream = await open(t.client);
    await t.db.collection<any>('one').insertOne({ _id: 1 });
    await other.collection<any>('elsewhere').insertOne({ _id: 2 });
    await t.db.collection<any>('two').insertOne({ _id: 3 });
    const fromDb = await take(dbStream, 2);
    const fromCluster = await take(clusterStream, 3);
    await dbStream.close();
    await clusterStream.close();
    await other.dropDatabase();
    expect(fromDb.map((e) => e['ns'].coll)).toEqual(['one', 'two']);
    expect(fromCluster.map((e) => e['ns'])).toEqual([
      { db: t.db.databaseName, coll: 'one' },
      { db: other.databaseName, coll: 'elsewhere' },
      { db: t.db.databaseName, coll: 'two' },
    ]);
  });

  it('applies the stages after $changeStream to the events', async () => {
    const coll = t.db.collection<any>('stages');
    const stream = await open(coll, [
      { $match: { operationType: 'insert', 'fullDocument.keep': true } },
      { $project: { operationType: 1, 'fullDocument.v': 1 } },
      { $addFields: { seen: true } },
    ]);
    await coll.insertMany([
      { _id: 1, keep: false, v: 1 },
      { _id: 2, keep: true, v: 2 },
    ]);
    await coll.deleteOne({ _id: 2 });
    await coll.insertOne({ _id: 3, keep: true, v: 3 });
    const events = await take(stream, 2);
    await stream.close();
    expect(events.map((e) => ({ ...e, _id: undefined }))).toEqual([
      { _id: undefined, operationType: 'insert', fullDocument: { v: 2 }, seen: true },
      { _id: undefined, operationType: 'insert', fullDocument: { v: 3 }, seen: true },
    ]);
  });

  it('fails with ChangeStreamFatalError (280) when the pipeline changes _id', async () => {
    const coll = t.db.collection<any>('badid');
    const stream = await open(coll, [{ $project: { _id: 0 } }]);
    await coll.insertOne({ _id: 1 });
    const error = await failure(() => stream.next());
    await stream.close();
    expect(error['code']).toBe(280);
  });

  it('resumes after a token, starts after one, and starts at an operation time', async () => {
    const coll = t.db.collection<any>('resume');
    const stream = await open(coll);
    await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    const [first, second] = await take(stream, 2);
    await stream.close();
    const ids = async (s: Stream, n: number): Promise<unknown[]> => {
      const out = (await take(s, n)).map((e) => e['documentKey']._id);
      await s.close();
      return out;
    };
    expect(await ids(coll.watch([], { resumeAfter: first!['_id'] }), 2)).toEqual([2, 3]);
    expect(await ids(coll.watch([], { startAfter: second!['_id'] }), 1)).toEqual([3]);
    expect(await ids(coll.watch([], { startAtOperationTime: second!['clusterTime'] }), 2)).toEqual([2, 3]);
  });

  it('getMore waits for maxAwaitTimeMS without busy polling and wakes on a new event', async () => {
    const coll = t.db.collection<any>('await');
    const status = async (): Promise<number> =>
      Number((await t.db.admin().command({ serverStatus: 1 }))['opcounters'].getmore);
    const before = await status();
    // The getMore may wait a minute, three times the test's timeout: only the insert can end it in
    // time, so the test passes only if the insert wakes it (no clock is read).
    const stream: Stream = coll.watch([], { maxAwaitTimeMS: 60_000 });
    const pending = stream.next(); // the aggregate, then a getMore that waits
    await new Promise((r) => setTimeout(r, 1500));
    await coll.insertOne({ _id: 'late' });
    expect((await pending)['documentKey']).toEqual({ _id: 'late' });
    await stream.close();
    if (!external) expect((await status()) - before).toBeLessThanOrEqual(4);
  });

  it('replies carry operationTime and $clusterTime that advance with writes', async () => {
    const raw1 = await t.db.command({ ping: 1 });
    await t.db.collection<any>('clock').insertOne({ _id: 1 });
    const raw2 = await t.db.command({ ping: 1 });
    expect(raw1['operationTime']._bsontype).toBe('Timestamp');
    expect(raw1['$clusterTime'].clusterTime._bsontype).toBe('Timestamp');
    expect(raw2['operationTime'].greaterThan(raw1['operationTime'])).toBe(true);
  });

  it('reports drop, rename and dropDatabase, then invalidates and closes the stream', async () => {
    const db = t.client.db(`${t.db.databaseName}_ddl`);
    await db.collection<any>('a').insertOne({ _id: 1 });
    await db.collection<any>('b').insertOne({ _id: 1 });
    const onA = await open(db.collection<any>('a'));
    const onB = await open(db.collection<any>('b'));
    const onDb = await open(db);
    await db.collection<any>('a').drop();
    await db.collection<any>('b').rename('c');
    await db.dropDatabase();
    const a = await take(onA, 2);
    const b = await take(onB, 2);
    const d = await take(onDb, 5);
    expect(a.map((e) => e['operationType'])).toEqual(['drop', 'invalidate']);
    expect(a[0]).toMatchObject({ ns: { db: db.databaseName, coll: 'a' } });
    expect(b.map((e) => e['operationType'])).toEqual(['rename', 'invalidate']);
    expect(b[0]).toMatchObject({ to: { db: db.databaseName, coll: 'c' } });
    expect(d.map((e) => e['operationType'])).toEqual([
      'drop',
      'rename',
      'drop',
      'dropDatabase',
      'invalidate',
    ]);
    expect(d[3]).toMatchObject({ ns: { db: db.databaseName } });
    expect(onA.closed && onB.closed && onDb.closed).toBe(true);
    // startAfter an invalidate token opens a new stream; resumeAfter it is refused (260).
    const again = db.collection<any>('a').watch([], { startAfter: a[1]!['_id'], maxAwaitTimeMS: 50 });
    expect(await again.tryNext()).toBeNull();
    await again.close();
    const refused = await failure(() =>
      db.collection<any>('a').watch([], { resumeAfter: a[1]!['_id'] }).next(),
    );
    expect(refused['code']).toBe(260);
  });

  it('fullDocument updateLookup, whenAvailable and required; fullDocumentBeforeChange with pre- and post-images', async () => {
    const plain = t.db.collection<any>('lookup');
    await plain.insertOne({ _id: 1, v: 0 });
    const lookup = await open(plain, [], { fullDocument: 'updateLookup' });
    const when = await open(plain, [], { fullDocument: 'whenAvailable' });
    await plain.updateOne({ _id: 1 }, { $set: { v: 1 } });
    expect((await lookup.next())['fullDocument']).toEqual({ _id: 1, v: 1 });
    expect((await when.next())['fullDocument']).toBeNull();
    const required = await open(plain, [], { fullDocument: 'required' });
    await plain.updateOne({ _id: 1 }, { $set: { v: 2 } });
    expect((await failure(() => required.next()))['code']).toBe(47);
    await Promise.all([lookup.close(), when.close(), required.close()]);

    const images = await t.db.createCollection<any>('images', {
      changeStreamPreAndPostImages: { enabled: true },
    });
    await images.insertOne({ _id: 1, v: 0 });
    const stream = await open(images, [], { fullDocument: 'required', fullDocumentBeforeChange: 'required' });
    await images.updateOne({ _id: 1 }, { $set: { v: 1 } });
    await images.deleteOne({ _id: 1 });
    const [upd, del] = await take(stream, 2);
    await stream.close();
    expect(upd).toMatchObject({ fullDocument: { _id: 1, v: 1 }, fullDocumentBeforeChange: { _id: 1, v: 0 } });
    expect(del).toMatchObject({ operationType: 'delete', fullDocumentBeforeChange: { _id: 1, v: 1 } });
  });

  it('refuses bad options and stages', async () => {
    const coll = t.db.collection<any>('bad');
    const unknown = await failure(() => coll.aggregate([{ $changeStream: { nope: 1 } }]).toArray());
    expect(unknown['code']).toBe(40415);
    const notFirst = await failure(() => coll.aggregate([{ $match: {} }, { $changeStream: {} }]).toArray());
    expect([40602, 40324]).toContain(notFirst['code']);
    const group = await failure(() => coll.watch([{ $group: { _id: null } }]).next());
    expect(group['code']).toBeGreaterThan(0);
    const badToken = await failure(() => coll.watch([], { resumeAfter: { _data: 'zz' } }).next());
    expect(badToken['code']).toBeGreaterThan(0);
  });
});

describe.skipIf(external)('change stream history bounds and topology', () => {
  it('a resume token older than the retained history fails with ChangeStreamHistoryLost (286)', async () => {
    const server = await startEmbeddedServer({ changeStreamHistory: 4 });
    const client = new drivers[0]!.MongoClient(server.uri);
    try {
      const coll = client.db('h').collection<any>('c');
      const stream = await open(coll);
      await coll.insertOne({ _id: 0 });
      const [first] = await take(stream, 1);
      await stream.close();
      for (let i = 1; i <= 40; i++) await coll.insertOne({ _id: i });
      const error = await failure(() => coll.watch([], { resumeAfter: first!['_id'] }).next());
      expect(error['code']).toBe(286);
      expect(error['codeName']).toBe('ChangeStreamHistoryLost');
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it('with dbPath, a stream resumes across a server restart from the token it had', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plume-cs-'));
    try {
      let server = await startEmbeddedServer({ dbPath: dir });
      let client = new drivers[0]!.MongoClient(server.uri);
      const stream = await open(client.db('p').collection<any>('c'));
      await client.db('p').collection<any>('c').insertOne({ _id: 1 });
      const [first] = await take(stream, 1);
      await stream.close();
      await client.db('p').collection<any>('c').insertOne({ _id: 2 });
      await client.close();
      await server.stop();

      server = await startEmbeddedServer({ dbPath: dir });
      client = new drivers[0]!.MongoClient(server.uri);
      try {
        const coll = client.db('p').collection<any>('c');
        const resumed = coll.watch([], { resumeAfter: first!['_id'] });
        await coll.insertOne({ _id: 3 });
        const events = await take(resumed, 2);
        await resumed.close();
        expect(events.map((e) => e['documentKey']._id)).toEqual([2, 3]);
      } finally {
        await client.close();
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with dbPath, history records larger than 17 MiB (both images of a 9 MiB document) survive a restart', async () => {
    // BSON.serialize silently cuts anything over its 17 MiB shared buffer; the history file must not.
    const dir = mkdtempSync(join(tmpdir(), 'plume-cs-'));
    const big = (fill: string) => fill.repeat(9 * 1024 * 1024);
    try {
      let server = await startEmbeddedServer({ dbPath: dir });
      let client = new drivers[0]!.MongoClient(server.uri);
      const db = client.db('p');
      await db.createCollection('big', { changeStreamPreAndPostImages: { enabled: true } });
      const stream = await open(db.collection<any>('big'));
      await db.collection<any>('big').insertOne({ _id: 1, s: 'x' });
      const [first] = await take(stream, 1);
      await stream.close();
      await db.collection<any>('big').replaceOne({ _id: 1 }, { s: big('a') });
      await db.collection<any>('big').replaceOne({ _id: 1 }, { s: big('b') });
      await db.collection<any>('big').insertOne({ _id: 2 });
      await client.close();
      await server.stop();

      server = await startEmbeddedServer({ dbPath: dir });
      client = new drivers[0]!.MongoClient(server.uri);
      try {
        const resumed = client.db('p').collection<any>('big').watch([], { resumeAfter: first!['_id'] });
        const events = await take(resumed, 3);
        await resumed.close();
        expect(events.map((e) => [e['operationType'], e['documentKey']._id])).toEqual([
          ['replace', 1],
          ['replace', 1],
          ['insert', 2],
        ]);
      } finally {
        await client.close();
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a standalone server refuses change streams with 40573, as mongod does', async () => {
    const server = await startEmbeddedServer({ replicaSet: false });
    const client = new drivers[0]!.MongoClient(server.uri);
    try {
      const error = await failure(() => client.db('s').collection<any>('c').watch().next());
      expect(error['code']).toBe(40573);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
