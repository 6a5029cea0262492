/**
 * Data files written by an earlier plume, whose index keys followed other rules than MongoDB's key
 * generator (index-keys.ts): an index may now refuse documents it held. Start-up keeps every document,
 * drops that index with a warning, and keeps the indexes the documents still fit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BSON } from 'bson';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { MAGIC, frameRecord } from '../../src/embedded/engine/data-file.js';
import { tempDir } from '../support/temp-dir.js';

/** A snapshot file as an earlier plume wrote it: a header, then each collection and its documents. */
function writeSnapshot(dir: string, collections: { ns: string; indexes: object[]; docs: object[] }[]): void {
  const records = [{ format: 'plume-snapshot', version: 2, gen: 0, createdAt: new Date() }];
  for (const { ns, indexes, docs } of collections) {
    records.push({ type: 'collection', ns, options: {}, indexes } as never);
    for (const doc of docs) records.push({ type: 'doc', ns, doc } as never);
  }
  const frames = records.map((record) => frameRecord(BSON.serialize(record)));
  fs.writeFileSync(path.join(dir, 'snapshot.bson'), Buffer.concat([MAGIC, ...frames]));
}

let server: EmbeddedServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('loading indexes an earlier plume built', () => {
  it('keeps every document, drops the index that refuses them, keeps the others', async () => {
    const dir = tempDir('plume-old-indexes-');
    writeSnapshot(dir, [
      {
        ns: 'app.pairs',
        // Two arrays under one compound index: MongoDB refuses to index them (171, "cannot index
        // parallel arrays", btree_key_generator.cpp); the earlier key rules accepted them.
        indexes: [
          { v: 2, key: { a: 1, b: 1 }, name: 'a_1_b_1' },
          { v: 2, key: { c: 1 }, name: 'c_1', unique: true },
        ],
        docs: [
          { _id: 1, a: [1, 2], b: [3, 4], c: 1 },
          { _id: 2, a: 5, b: 6, c: 2 },
        ],
      },
      {
        ns: 'app.positions',
        // An array element holding the field that names a position: 16746 in MongoDB's key generator.
        indexes: [{ v: 2, key: { 'a.0': 1 }, name: 'a.0_1', unique: true }],
        docs: [
          { _id: 1, a: [{ 0: 5 }] },
          { _id: 2, a: [7] },
        ],
      },
    ]);
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      server = await startEmbeddedServer({ dbPath: dir });
    } finally {
      process.off('warning', onWarning);
    }
    const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const db = client.db('app');
      expect(await db.collection('pairs').find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, a: [1, 2], b: [3, 4], c: 1 },
        { _id: 2, a: 5, b: 6, c: 2 },
      ]);
      expect(await db.collection('positions').countDocuments()).toBe(2);
      const pairIndexes = (await db.collection('pairs').listIndexes().toArray()).map((i) => i.name);
      expect(pairIndexes).toEqual(['_id_', 'c_1']);
      expect((await db.collection('positions').listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
      // The index kept still holds its documents and its constraint.
      await expect(
        db.collection<{ _id: number; c: number }>('pairs').insertOne({ _id: 3, c: 2 }),
      ).rejects.toMatchObject({ code: 11000 });
      expect(await db.collection('pairs').find({ c: 2 }).hint('c_1').toArray()).toHaveLength(1);
    } finally {
      await client.close();
    }
    expect(warnings.some((w) => w.includes("index 'a_1_b_1' of app.pairs was dropped"))).toBe(true);
    expect(warnings.some((w) => w.includes("index 'a.0_1' of app.positions was dropped"))).toBe(true);
    // The dropped indexes stay dropped after a restart, and nothing more is warned about.
    await server.stop();
    server = await startEmbeddedServer({ dbPath: dir });
    const again = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      expect(await again.db('app').collection('pairs').countDocuments()).toBe(2);
      const names = (await again.db('app').collection('pairs').listIndexes().toArray()).map((i) => i.name);
      expect(names).toEqual(['_id_', 'c_1']);
    } finally {
      await again.close();
    }
  });
  it('leaves out an index build the journal holds when the documents before it refuse it', async () => {
    const dir = tempDir('plume-old-indexes-');
    writeSnapshot(dir, [{ ns: 'app.pairs', indexes: [], docs: [{ _id: 1, a: [1, 2], b: [3, 4] }] }]);
    const spec = { v: 2, key: { a: 1, b: 1 }, name: 'a_1_b_1' };
    const record = { changes: [{ op: 'createIndex', ns: 'app.pairs', spec }] };
    fs.writeFileSync(
      path.join(dir, 'journal.0.bson'),
      Buffer.concat([MAGIC, frameRecord(BSON.serialize(record))]),
    );
    server = await startEmbeddedServer({ dbPath: dir });
    const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const pairs = client.db('app').collection('pairs');
      expect(await pairs.countDocuments()).toBe(1);
      expect((await pairs.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
    } finally {
      await client.close();
    }
  });
});
