import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('cursor conformance ($name)', (driver) => {
  const t = connect(driver, 'cur');
  const { Long } = driver.bson;

  const seeded = async (name: string, n: number) => {
    const coll = t.db.collection<any>(name);
    await coll.insertMany(Array.from({ length: n }, (_, i) => ({ _id: i })));
    return coll;
  };

  it('hands out int64 cursor ids and batches by count', async () => {
    await seeded('count', 10);
    // promoteLongs: false keeps the id an int64: a promoted id below 2^53 would go back as a double,
    // which MongoDB's getMore and killCursors refuse (their cursor ids are typed long).
    const first = await t.db.command({ find: 'count', batchSize: 3 }, { promoteLongs: false });
    expect(first['cursor']['firstBatch']).toHaveLength(3);
    const id = first['cursor']['id'];
    expect(Long.isLong(id)).toBe(true);
    expect(String(id)).not.toBe('0');
    const next = await t.db.command({ getMore: id, collection: 'count', batchSize: 4 });
    expect(next['cursor']['nextBatch'].map((d: { _id: number }) => d._id)).toEqual([3, 4, 5, 6]);
    const last = await t.db.command({ getMore: id, collection: 'count' });
    expect(last['cursor']['nextBatch']).toHaveLength(3);
    expect(String(last['cursor']['id'])).toBe('0');
  });

  it('returns a single batch with singleBatch and closes the cursor', async () => {
    await seeded('single', 5);
    const reply = await t.db.command({ find: 'single', batchSize: 2, singleBatch: true });
    expect(reply['cursor']['firstBatch']).toHaveLength(2);
    expect(String(reply['cursor']['id'])).toBe('0');
  });

  it('defaults the first batch to 101 documents', async () => {
    await seeded('default101', 150);
    const reply = await t.db.command({ find: 'default101' });
    expect(reply['cursor']['firstBatch']).toHaveLength(101);
  });

  it('splits batches by size below 16 MiB', async () => {
    const coll = t.db.collection<any>('bigdocs');
    const blob = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 4; i++)
      await coll.insertMany(Array.from({ length: 5 }, (_, j) => ({ _id: i * 5 + j, blob })));
    const reply = await t.db.command({ find: 'bigdocs' });
    const first = reply['cursor']['firstBatch'].length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(20);
    expect(await coll.find({}).project({ _id: 1 }).toArray()).toHaveLength(20);
    expect((await coll.find({}).toArray()).length).toBe(20);
  });

  it('kills cursors', async () => {
    await seeded('kill', 10);
    const first = await t.db.command({ find: 'kill', batchSize: 2 }, { promoteLongs: false });
    const id = first['cursor']['id'];
    const killed = await t.db.command({ killCursors: 'kill', cursors: [id] });
    expect(killed['cursorsKilled'].map(String)).toEqual([String(id)]);
    expect((await failure(() => t.db.command({ getMore: id, collection: 'kill' })))['code']).toBe(43);
  });

  it('closes a driver cursor early without errors', async () => {
    const coll = await seeded('early', 30);
    const cursor = coll.find({}).batchSize(5);
    let n = 0;
    for await (const _doc of cursor) if (++n === 7) break;
    expect(n).toBe(7);
    await cursor.close();
    expect(await coll.countDocuments()).toBe(30);
  });

  it('does not return a document twice when it is updated during iteration', async () => {
    const coll = await seeded('stable', 12);
    const cursor = coll.find({}).sort({ _id: 1 }).batchSize(3);
    const seen: number[] = [];
    for await (const doc of cursor) {
      seen.push(doc['_id']);
      if (seen.length === 3) await coll.updateMany({}, { $set: { touched: true } });
    }
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('iterates aggregation cursors with getMore', async () => {
    const coll = await seeded('aggcur', 50);
    expect(await coll.aggregate([{ $sort: { _id: -1 } }], { batchSize: 7 }).toArray()).toHaveLength(50);
  });
});
