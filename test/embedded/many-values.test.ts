/**
 * A `$in` with very many values, and an update of very many fields, answer at once. MongoDB keeps a `$in`'s values in a sorted set and
 * looks each document's value up in it (InMatchExpression); a 200 000-value list is 2 MB, far below the
 * 16 MiB a command may hold. Run in a worker: a scan of the whole list per document (a minute for these
 * 1 000 documents) would block the worker, not this test's timeout.
 */
import { MongoClient } from 'mongodb';
import type { Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';

describe('many values in $in, many fields in $set (embedded only)', () => {
  let server: EmbeddedServer;
  let client: MongoClient;
  let items: Collection<{ _id: number; n: number | null; s?: string }>;
  const many = Array.from({ length: 200_000 }, (_, i) => i * 2); // the even numbers below 400 000

  beforeAll(async () => {
    server = await startEmbeddedServer({ worker: true });
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    items = client.db('large_in').collection('items');
    await items.insertMany(Array.from({ length: 1000 }, (_, i) => ({ _id: i, n: i })));
    await items.insertMany([
      { _id: 1000, n: null },
      { _id: 1001, n: null, s: 'xylophone' },
    ]);
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('matches on a field and on _id', async () => {
    expect(await items.countDocuments({ n: { $in: many } })).toBe(500);
    expect(await items.countDocuments({ _id: { $in: many } })).toBe(501); // 1000 is even
    expect(await items.countDocuments({ n: { $nin: many } })).toBe(502); // the odd ones and the nulls
  }, 20_000);

  it('updates 20 000 fields in one $set (a 300 KB update), and still refuses conflicting paths', async () => {
    // MongoDB parses an update's paths into a tree (UpdateNode), so conflicts cost nothing per path
    // pair; comparing every path with every earlier one (and logging the change the same way) took
    // minutes here.
    const fields = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`f${i}`, i]));
    expect((await items.updateOne({ _id: 1 }, { $set: fields })).modifiedCount).toBe(1);
    expect(Object.keys((await items.findOne({ _id: 1 }))!)).toHaveLength(20_002);
    const conflict = await items
      .updateOne({ _id: 1 }, { $set: { ...fields, 'f19999.x': 1 } })
      .catch((e: unknown) => e);
    expect(conflict).toMatchObject({
      code: 40,
      message: "Updating the path 'f19999.x' would create a conflict at 'f19999'",
    });
  }, 20_000);

  it('keeps null (a missing or null field) and regexes among the values', async () => {
    expect(await items.countDocuments({ n: { $in: [...many, null] } })).toBe(502);
    expect(await items.countDocuments({ s: { $in: [...many.map(String), /^xyl/] } })).toBe(1);
  }, 20_000);
});
