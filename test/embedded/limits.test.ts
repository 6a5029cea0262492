/**
 * Documents MongoDB would not store are refused on every write path, and nothing acknowledged is lost
 * across a restart. Limits from https://www.mongodb.com/docs/manual/reference/limits/ ("The maximum BSON
 * document size is 16 mebibytes"; "no more than 100 levels of nesting for BSON documents. Each object or
 * array adds a level"). Codes from MongoDB's error_codes.yml: BSONObjectTooLarge 10334 (a BSON object
 * over 16 MiB + 16 KiB, "BSONObj size: … is invalid"), BadValue 2 ("object to insert too large" for an
 * insert between 16 MiB and that), DocumentTooLarge 17419 (an update's result over 16 MiB), Overflow 15
 * (nesting).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BSON } from 'bson';
import { MongoClient, MongoServerError } from 'mongodb';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';

const MiB = 1024 * 1024;

/** A document nested `levels` deep counting itself: `{ a: { a: … { leaf: 1 } } }`. */
function nested(levels: number): Record<string, unknown> {
  let doc: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) doc = { a: doc };
  return doc;
}

type Named = { _id: string; [field: string]: unknown };

/**
 * Sends `insert` with one document in an OP_MSG document sequence over a raw socket and returns the
 * reply (the driver itself cannot serialize documents this large).
 */
async function rawInsert(port: number, coll: string, doc: Record<string, unknown>) {
  BSON.setInternalBufferSize(BSON.calculateObjectSize(doc));
  const body = Buffer.from(BSON.serialize({ insert: coll, $db: 'limits' }));
  const payload = Buffer.concat([Buffer.from('documents\0'), Buffer.from(BSON.serialize(doc))]);
  const head = Buffer.alloc(21);
  head.writeInt32LE(head.length + body.length + 5 + payload.length, 0);
  head.writeInt32LE(2013, 12);
  const size = Buffer.alloc(4);
  size.writeInt32LE(payload.length + 4);
  const message = Buffer.concat([head, body, Buffer.from([1]), size, payload]);
  const socket = net.connect(port, '127.0.0.1', () => socket.write(message));
  let reply = Buffer.alloc(0);
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      reply = Buffer.concat([reply, chunk]);
      if (reply.length >= 4 && reply.length >= reply.readInt32LE(0)) resolve();
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error('connection closed without a reply')));
  });
  socket.destroy();
  return BSON.deserialize(reply.subarray(21));
}

async function refused(promise: Promise<unknown>, code: number, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MongoServerError);
  expect((error as MongoServerError).code).toBe(code);
  expect((error as MongoServerError).message).toMatch(message);
}

describe('document size and nesting limits, across a restart (embedded only)', () => {
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'plume-limits-'));
  let server: EmbeddedServer;
  let client: MongoClient;
  let db: Db;

  async function start(): Promise<void> {
    server = await startEmbeddedServer({ dbPath });
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    db = client.db('limits');
  }
  async function stop(): Promise<void> {
    await client.close();
    await server.stop();
  }
  beforeAll(start);
  afterAll(async () => {
    await stop();
    fs.rmSync(dbPath, { recursive: true, force: true });
  });

  it('refuses inserts over 16 MiB (17 MB and 47 MB: BSONObjectTooLarge) and keeps one just under', async () => {
    const docs = db.collection<Named>('big');
    await refused(
      docs.insertOne({ _id: '17MB', s: 'x'.repeat(17_000_000) }),
      10334,
      /^BSONObj size: 170000\d\d \(0x[0-9A-F]+\) is invalid\. Size must be between 0 and 16793600\(16MB\) First element: _id: "17MB"$/,
    );
    const reply = await rawInsert(server.port, 'big', { _id: '47MB', s: 'x'.repeat(47_000_000) });
    expect(reply['n']).toBe(0);
    expect(reply['writeErrors'][0].code).toBe(10334);
    await refused(
      docs.insertOne({ _id: 'just over', s: 'x'.repeat(16 * MiB) }),
      2,
      /^object to insert too large\. size in bytes: 167772\d\d, max size: 16777216$/,
    );
    await docs.insertOne({ _id: 'fits', s: 'y'.repeat(16 * MiB - 100) });
    await docs.insertOne({ _id: 'small', s: 'z'.repeat(9 * MiB) });
  });

  it('refuses updates, upserts, findAndModify and bulk writes whose result would pass 16 MiB', async () => {
    const docs = db.collection<Named>('big');
    const tooLarge = /^Resulting document after update is larger than 16777216$/;
    await refused(docs.updateOne({ _id: 'small' }, { $set: { t: 'w'.repeat(8 * MiB) } }), 17419, tooLarge);
    await refused(
      docs.findOneAndUpdate({ _id: 'small' }, { $set: { t: 'w'.repeat(8 * MiB) } }),
      17419,
      tooLarge,
    );
    await refused(docs.updateOne({ _id: 'small' }, [{ $set: { t: '$s' } }]), 17419, tooLarge);
    // A string of 16 MiB or more cannot even be built (RCString::create, intrusive_counter.cpp).
    await refused(
      docs.updateOne({ _id: 'small' }, [{ $set: { t: { $concat: ['$s', '$s'] } } }]),
      16493,
      /^Tried to create string longer than 16MB$/,
    );
    await refused(
      docs.updateOne({ _id: 'upserted' }, { $set: { s: 'v'.repeat(17_000_000) } }, { upsert: true }),
      10334,
      /is invalid/,
    );
    const bulk = await docs
      .bulkWrite([
        { insertOne: { document: { _id: 'bulk ok', n: 1 } } },
        { updateOne: { filter: { _id: 'small' }, update: { $set: { t: 'w'.repeat(8 * MiB) } } } },
      ])
      .then(
        () => undefined,
        (e: unknown) => e as { code?: number; result?: { insertedCount: number } },
      );
    expect(bulk?.code).toBe(17419);
    expect(bulk?.result?.insertedCount).toBe(1);
  });

  it('refuses $out and $merge results over 16 MiB and leaves the $out target as it was', async () => {
    await db.collection<Named>('out').insertOne({ _id: 'kept' });
    const doubled = [{ $match: { _id: 'small' } }, { $project: { a: '$s', b: '$s' } }];
    await refused(
      db
        .collection('big')
        .aggregate([...doubled, { $out: 'out' }])
        .toArray(),
      10334,
      /is invalid/,
    );
    await refused(
      db
        .collection('big')
        .aggregate([...doubled, { $merge: { into: 'merged', whenNotMatched: 'insert' } }])
        .toArray(),
      10334,
      /is invalid/,
    );
    expect(await db.collection('out').find().toArray()).toEqual([{ _id: 'kept' }]);
    expect(await db.collection('merged').countDocuments()).toBe(0);
  });

  it('measures -0 as the double it is written as: $bsonSize tells a document just past 16 MiB', async () => {
    // 5,000 values of -0.0 take 8 bytes each, as js-bson writes them (bsonspec.org: an int32 has no
    // negative zero); counted as int32s they took 20,000 bytes less, and a document 1,000 bytes past
    // the 16 MiB a collection holds looked 19,000 bytes under it.
    const zeros = Array.from({ length: 5000 }, () => -0);
    const over = 16 * MiB + 1000;
    const length = over - BSON.calculateObjectSize({ s: '', z: zeros });
    const built = { s: { $substrCP: ['$s', 0, length] }, z: { $literal: zeros } };
    const rows = await db
      .collection('big')
      .aggregate([
        { $match: { _id: 'fits' } },
        {
          $project: { _id: 0, size: { $bsonSize: built }, fits: { $lte: [{ $bsonSize: built }, 16 * MiB] } },
        },
      ])
      .toArray();
    expect(rows).toEqual([{ size: over, fits: false }]);
  });

  it('refuses nesting deeper than 100 levels on insert and update, and keeps 100 levels', async () => {
    const docs = db.collection<Named>('deep');
    await docs.insertOne({ _id: 'hundred', ...nested(100) }); // the document itself is level 1
    await refused(
      docs.insertOne({ _id: 'deeper', ...nested(101) }),
      15,
      /^cannot insert document because it exceeds 100 levels of nesting$/,
    );
    await refused(
      docs.insertOne({ _id: 'five thousand', ...nested(5000) }),
      15,
      /nested object depth of 200/,
    );
    await refused(
      docs.insertOne({ _id: 'arrays', a: JSON.parse('['.repeat(120) + ']'.repeat(120)) as unknown[] }),
      15,
      /100 levels of nesting/,
    );
    await refused(
      docs.updateOne({ _id: 'hundred' }, { $set: { b: nested(100) } }),
      15,
      /^Document exceeds maximum nesting depth of 100$/,
    );
  });

  it('refuses a field name with a NUL byte that an expression computes, and keeps serving', async () => {
    // BSON cannot hold such a name. Sent in a reply, it used to throw from the encoder and end the
    // process; stored, it made the document unreadable and the journal and snapshot unwritable.
    // ($arrayToObject refuses such a key itself, as MongoDB does: array-to-object.test.ts.)
    const nul = { $setField: { field: 'k\u0000', input: {}, value: 1 } };
    const docs = db.collection<Named>('nul');
    await docs.insertOne({ _id: 'kept', a: 1 });
    const error = await docs
      .aggregate([{ $project: { x: nul } }])
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
    await refused(docs.updateOne({ _id: 'kept' }, [{ $set: { y: nul } }]), 2, /embedded null byte/);
    await refused(docs.updateOne({ _id: 'kept' }, [{ $replaceWith: nul }]), 2, /embedded null byte/);
    await refused(docs.aggregate([{ $project: { y: nul } }, { $out: 'nul-out' }]).toArray(), 2, /null byte/);
    expect(await docs.find().toArray()).toEqual([{ _id: 'kept', a: 1 }]);
    expect(await db.collection('nul-out').countDocuments()).toBe(0);
  });

  it('after a restart holds exactly what was acknowledged, at full length', async () => {
    await stop();
    await start();
    const big = db.collection<Named>('big');
    const ids = (await big.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id).sort();
    expect(ids).toEqual(['bulk ok', 'fits', 'small']);
    const fits = await big.findOne({ _id: 'fits' });
    expect((fits?.['s'] as string).length).toBe(16 * MiB - 100);
    const small = await big.findOne({ _id: 'small' });
    expect(small?.['t']).toBeUndefined();
    const deep = await db.collection<Named>('deep').find().toArray();
    expect(deep.map((d) => d._id)).toEqual(['hundred']);
    expect(deep[0]?.['b']).toBeUndefined();
    expect(await db.collection('out').find().toArray()).toEqual([{ _id: 'kept' }]);
    expect(await db.collection('nul').find().toArray()).toEqual([{ _id: 'kept', a: 1 }]);
  });
});
