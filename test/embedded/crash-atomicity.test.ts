/**
 * An operation MongoDB applies atomically stays atomic across a crash: when the process dies while it
 * is being logged (its journal append torn), a restart finds all of it or none of it, never a part.
 */
import { MongoClient } from 'mongodb';
import type { Db } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { tempDir } from '../support/temp-dir.js';
import { crashImage, tearLastAppend } from './crash-image.js';

describe('operations cut short by a crash (embedded only)', () => {
  const servers: EmbeddedServer[] = [];
  const clients: MongoClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    for (const s of servers.splice(0)) await s.stop();
  });

  async function open(dbPath: string): Promise<Db> {
    const server = await startEmbeddedServer({ dbPath });
    servers.push(server);
    const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    clients.push(client);
    return client.db('app');
  }

  /** The collections of the restarted image, each with its `_id`s. */
  async function restarted(image: string): Promise<Record<string, unknown[]>> {
    const db = await open(image);
    const out: Record<string, unknown[]> = {};
    for (const { name } of await db.listCollections().toArray())
      out[name] = (await db.collection(name).find().toArray()).map((d) => d._id);
    return out;
  }

  it('a rename over an existing collection is all or nothing (the target is not lost)', async () => {
    // MongoDB logs a renameCollection that drops its target as one oplog entry, so that the drop cannot
    // survive without the rename (SERVER-28285, whose jstest checks for exactly one entry).
    const dbPath = tempDir('plume-crash-');
    const db = await open(dbPath);
    await db.collection('target').insertOne({ _id: 'kept' } as never);
    await db.collection('source').insertOne({ _id: 'moved' } as never);
    await db.collection('source').rename('target', { dropTarget: true });
    const image = crashImage(dbPath);
    tearLastAppend(image);
    expect(await restarted(image)).toEqual({ source: ['moved'], target: ['kept'] });
  });

  it('$out over an existing collection is all or nothing (the target is not lost nor half filled)', async () => {
    // MongoDB writes $out into a temporary collection and renames it over the target
    // (document_source_out.cpp), the rename being one oplog entry as above.
    const dbPath = tempDir('plume-crash-');
    const db = await open(dbPath);
    await db.collection('target').insertOne({ _id: 'kept' } as never);
    await db.collection('source').insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
    await db
      .collection('source')
      .aggregate([{ $out: 'target' }])
      .toArray();
    const image = crashImage(dbPath);
    tearLastAppend(image);
    expect(await restarted(image)).toEqual({ source: [1, 2], target: ['kept'] });
  });

  it('a transaction that creates a collection leaves no trace when its commit is cut short', async () => {
    // Since MongoDB 4.4 a collection can be created inside a transaction, and it is part of it: other
    // sessions see it only once the transaction commits (manual, Transactions > Create Collections
    // and Indexes in a Transaction).
    const dbPath = tempDir('plume-crash-');
    const db = await open(dbPath);
    await db.collection('orders').insertOne({ _id: 'before' } as never);
    const session = clients[0]!.startSession();
    await session.withTransaction(async () => {
      await db.collection('orders').insertOne({ _id: 'in-txn' } as never, { session });
      await db.collection('fresh').insertOne({ _id: 'in-txn' } as never, { session });
    });
    await session.endSession();
    const image = crashImage(dbPath);
    tearLastAppend(image);
    expect(await restarted(image)).toEqual({ orders: ['before'] });
  });
});
