/**
 * A whole-partition `$setWindowFields` output is one value that every document of the partition holds
 * (WindowFunctionExecNonRemovable, window_function_exec_non_removable.h, answers the same value for each
 * document); MongoDB 7.0 keeps it once (Value is reference-counted) and turns results into BSON one batch
 * of at most 16 MiB at a time. So the whole result of a whole-partition `$push` over n documents is read
 * with memory linear in n, though its BSON is n². The embedded database used to copy each result
 * document whole before opening the cursor (and each `$facet` input, and each document of a view read by
 * `$lookup`/`$unionWith`): n copies of an n-element array, and 50,000 documents exhausted a 4 GB heap and
 * took the server down with every client's database. What is stored (`$out`, `$merge`) is still one
 * document per stored document, and results past 16 MiB still fail as MongoDB fails to build them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BSON, MongoClient } from 'mongodb';
import type { Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerProcess } from '../fuzz/server-process.js';
import { connect, drivers, external, failure } from './helpers.js';

const wholePartition = { documents: ['unbounded', 'unbounded'] };

/** `$setWindowFields` setting `all` to the whole partition's `$push` of `value`, in `_id` order. */
function pushAll(value: string): Record<string, unknown> {
  return {
    $setWindowFields: { sortBy: { _id: 1 }, output: { all: { $push: value, window: wholePartition } } },
  };
}

/** Fills `name` of `db` with `n` documents `{ _id: i, x: i, d: Date(i) }` (once). */
async function filled(db: Db, name: string, n: number) {
  const coll = db.collection<{ _id: number; x: number; d: Date }>(name);
  if ((await coll.estimatedDocumentCount()) === 0) {
    await coll.insertMany(Array.from({ length: n }, (_, i) => ({ _id: i, x: i, d: new Date(i) })));
  }
  return coll;
}

describe.skipIf(external)('a whole result read in full by a server with a small heap', () => {
  /**
   * 2,000 documents: 4·10⁶ pushed Dates in BSON (56 MB sent). Copying each result document took one
   * Date object per value, about 420 MB, more than six times the server's 64 MB heap; the value the
   * documents share is 2,000 Dates.
   */
  const N = 2_000;
  const dbPath = mkdtempSync(join(tmpdir(), 'plume-shared-results-'));
  let server: ServerProcess;
  let client: MongoClient;

  beforeAll(async () => {
    server = await ServerProcess.start(dbPath, ['--max-old-space-size=64']);
    client = await MongoClient.connect(`mongodb://127.0.0.1:${server.port}/`);
  });
  afterAll(async () => {
    await client?.close();
    await server?.stop();
    rmSync(dbPath, { recursive: true, force: true });
  });

  it('answers every document of a whole-partition $push with default batches', async () => {
    const coll = await filled(client.db('shared_results'), 'dates', N);
    // Raw documents: the test process need not decode 4·10⁶ Dates to see that each holds them all.
    const docs = coll.aggregate<Buffer>([pushAll('$d')], { raw: true });
    const sizes = new Set<number>();
    let first: Buffer | undefined;
    let last: Buffer | undefined;
    for await (const raw of docs) {
      first ??= raw;
      last = raw;
      sizes.add(raw.length);
    }
    // Every output has the same shape (int32 _id and x, a date, N dates): one BSON size.
    expect([...sizes]).toEqual([first!.length]);
    const all = Array.from({ length: N }, (_, i) => new Date(i));
    expect(BSON.deserialize(first!)).toEqual({ _id: 0, x: 0, d: new Date(0), all });
    expect(BSON.deserialize(last!)).toEqual({ _id: N - 1, x: N - 1, d: new Date(N - 1), all });
    expect(server.exited).toBeUndefined();
  }, 60_000);
});

describe('results that share a whole-partition value, read by later stages', () => {
  // The driver plays no part in what the server copies: one is enough.
  const t = connect(drivers[0]!, 'shared_results');
  /** 30,000 documents: a copy per holder of the shared value would be 9·10⁸ values (7 GB and more). */
  const LARGE = 30_000;

  it('feeds a $facet and a view read by $unionWith and $lookup without copying the value per document', async () => {
    const coll = await filled(t.db, 'large', LARGE);
    const facet = await coll
      .aggregate([pushAll('$x'), { $facet: { n: [{ $count: 'n' }], last: [{ $skip: LARGE - 1 }] } }])
      .project({ n: 1, size: { $size: { $first: '$last.all' } } })
      .toArray();
    expect(facet).toEqual([{ n: [{ n: LARGE }], size: LARGE }]);
    await t.db.dropCollection('pushed').catch(() => undefined);
    await t.db.createCollection('pushed', { viewOn: 'large', pipeline: [pushAll('$x')] });
    const unioned = await t.db
      .collection('empty')
      .aggregate([{ $unionWith: 'pushed' }, { $count: 'n' }])
      .toArray();
    expect(unioned).toEqual([{ n: LARGE }]);
    const joined = await coll
      .aggregate([
        { $match: { _id: 7 } },
        { $lookup: { from: 'pushed', localField: '_id', foreignField: '_id', as: 'j' } },
        { $project: { size: { $size: { $first: '$j.all' } }, last: { $last: { $first: '$j.all' } } } },
      ])
      .toArray();
    expect(joined).toEqual([{ _id: 7, size: LARGE, last: LARGE - 1 }]);
  }, 60_000);
});

describe.each(drivers)('results that share a whole-partition value ($name)', (driver) => {
  const t = connect(driver, 'shared_results');

  it('stores each document of a $out or $merge on its own: an update of one leaves the others', async () => {
    const source = t.db.collection<{ _id: number; x: number }>('three');
    await source.deleteMany({});
    await source.insertMany([1, 2, 3].map((i) => ({ _id: i, x: i })));
    await source.aggregate([pushAll('$x'), { $out: 'out' }]).toArray();
    await source.aggregate([pushAll('$x'), { $merge: { into: 'merged', whenMatched: 'replace' } }]).toArray();
    // Run again: every document now matches, and replaces the one stored.
    await source.aggregate([pushAll('$x'), { $merge: { into: 'merged', whenMatched: 'replace' } }]).toArray();
    for (const name of ['out', 'merged']) {
      const target = t.db.collection<{ _id: number; all: unknown[] }>(name);
      await target.updateOne({ _id: 1 }, { $push: { all: 99 } });
      await target.updateOne({ _id: 2 }, { $set: { 'all.0': 'changed' } });
      expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, x: 1, all: [1, 2, 3, 99] },
        { _id: 2, x: 2, all: ['changed', 2, 3] },
        { _id: 3, x: 3, all: [1, 2, 3] },
      ]);
    }
  });

  it('still fails BSONObjectTooLarge for a result document past 16 MiB, read or written', async () => {
    // 1,100 documents of 16,000 characters: each output holds all of them, 17.6 MB, past the
    // 16 MiB + 16 KiB a reply or a stored document may hold (BSONObjectTooLarge 10334, as
    // limits.test.ts shows for other stages).
    const coll = t.db.collection<{ _id: number; s: string }>('wide');
    await coll.deleteMany({});
    await coll.insertMany(Array.from({ length: 1_100 }, (_, i) => ({ _id: i, s: 'x'.repeat(16_000) })));
    for (const last of [[], [{ $out: 'wide_out' }]]) {
      const error = await failure(() => coll.aggregate([pushAll('$s'), ...last]).toArray());
      expect(error['code']).toBe(10334);
      expect(error['message']).toMatch(/^BSONObj size: \d+ \(0x[0-9A-F]+\) is invalid/);
    }
    expect(await t.db.listCollections({ name: 'wide_out' }).toArray()).toEqual([]);
  });
});
