/**
 * A hinted find or aggregate without a sort answers in the hinted index's key order: MongoDB 7.0 plans
 * the hint as a scan of that index (src/mongo/db/query/planner_access.cpp), which reads keys in order,
 * each field in its direction of the key pattern, a hashed field by its hash, strings under the index's
 * collation, equal keys by record id (insertion order). A multikey document comes once, at the first
 * of its keys within the scan's bounds (src/mongo/db/exec/index_scan.cpp deduplicates by record id and
 * keeps the first). `{ $natural: 1 }` forces a forward collection scan and `{ $natural: -1 }` a reverse
 * one (manual, cursor.hint(): https://www.mongodb.com/docs/manual/reference/method/cursor.hint/). The
 * hashes are those hasher_test.cpp pins: 1 to 5902408780260971510, "abc" to 8478485326885698097 and 42
 * to -944302157085130861. The distinct command takes a hint only from 7.1
 * (https://jira.mongodb.org/browse/PHPLIB-1582: "supports this option on server version 7.1+").
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

type Row = { _id: number; [field: string]: unknown };

describe.each(drivers)('hinted reads answer in index order ($name)', (driver) => {
  const t = connect(driver, 'hint_order');

  /** A fresh collection `name` holding `docs`, with an index on each of `keys`. */
  async function holding(name: string, docs: Row[], ...keys: Record<string, 1 | -1 | 'hashed'>[]) {
    const coll = t.db.collection<Row>(name);
    await coll.drop().catch(() => undefined);
    for (const key of keys) await coll.createIndex(key);
    await coll.insertMany(docs);
    return coll;
  }

  const ids = (docs: Row[]) => docs.map((doc) => doc._id);

  const pairs: Row[] = [
    { _id: 1, a: 2, b: 1 },
    { _id: 2, a: 1, b: 1 },
    { _id: 3, a: 2, b: 2 },
    { _id: 4, a: 1, b: 2 },
  ];

  it('reads the hinted index in its key order, each field in its direction', async () => {
    const coll = await holding('pairs', pairs, { a: 1 }, { a: 1, b: -1 }, { b: -1 });
    const read = async (hint: object | string, filter: object = {}) =>
      ids(await coll.find(filter).hint(hint).toArray());
    expect(await read({ a: 1 })).toEqual([2, 4, 1, 3]);
    expect(await read('a_1')).toEqual([2, 4, 1, 3]);
    expect(await read({ a: 1, b: -1 })).toEqual([4, 2, 3, 1]);
    expect(await read({ b: -1 })).toEqual([3, 4, 1, 2]);
    expect(await read({ _id: 1 })).toEqual([1, 2, 3, 4]);
    // An equality on the hinted index's prefix reads that part of the index, in its order.
    expect(await read({ a: 1, b: -1 }, { a: 2 })).toEqual([3, 1]);
    expect(await read({ b: -1 }, { a: { $in: [1, 2] }, b: 1 })).toEqual([1, 2]);
    // `$natural` forces a collection scan, forwards or backwards.
    expect(await read({ $natural: 1 })).toEqual([1, 2, 3, 4]);
    expect(await read({ $natural: -1 })).toEqual([4, 3, 2, 1]);
    expect(await read({ $natural: -1 }, { a: { $in: [2, 1] } })).toEqual([4, 3, 2, 1]);
  });

  it('answers in the sort order, not the hinted index order, when the find sorts', async () => {
    const coll = await holding('sorted', pairs, { a: 1 });
    expect(ids(await coll.find({}).hint({ a: 1 }).sort({ _id: -1 }).toArray())).toEqual([4, 3, 2, 1]);
  });

  it('keeps the order through skip, limit and getMore batches', async () => {
    const docs = Array.from({ length: 7 }, (_, i) => ({ _id: i, a: (i * 3) % 7 }));
    const coll = await holding('batches', docs, { a: -1 });
    const read = await coll.find({}).hint({ a: -1 }).skip(1).limit(5).batchSize(2).toArray();
    // a descending: 6 (_id 2), 5 (4), 4 (6), 3 (1), 2 (3), 1 (5), 0 (0); skip 1, take 5.
    expect(ids(read)).toEqual([4, 6, 1, 3, 5]);
  });

  it('answers equal keys in insertion (record id) order, also after an update rewrote one', async () => {
    const coll = await holding(
      'ties',
      [
        { _id: 1, a: 1 },
        { _id: 2, a: 1 },
        { _id: 3, a: 1 },
        { _id: 4, a: 2 },
      ],
      { a: 1 },
    );
    // An update keeps the record id, so the rewritten document keeps its place among equal keys.
    await coll.updateOne({ _id: 1 }, { $set: { b: 1 } });
    await coll.updateOne({ _id: 2 }, { $set: { a: 2 } });
    await coll.updateOne({ _id: 2 }, { $set: { a: 1 } });
    const read = async (filter: object) => ids(await coll.find(filter).hint({ a: 1 }).toArray());
    expect(await read({ a: 1 })).toEqual([1, 2, 3]);
    expect(await read({ a: { $in: [2, 1] } })).toEqual([1, 2, 3, 4]);
    expect(await read({})).toEqual([1, 2, 3, 4]);
  });

  it('reads an equality served by an index in that index order without a hint too', async () => {
    // With an index on the filter's field, MongoDB's planner reads it (an index scan is the only
    // indexed plan, and a collection scan is planned only when there is none: query_planner.cpp).
    const coll = await holding(
      'unhinted',
      [
        { _id: 1, a: 1 },
        { _id: 2, a: 1 },
        { _id: 3, a: 1 },
      ],
      { a: 1 },
    );
    await coll.updateOne({ _id: 1 }, { $set: { c: 1 } });
    expect(ids(await coll.find({ a: 1 }).toArray())).toEqual([1, 2, 3]);
    expect(ids(await coll.aggregate<Row>([{ $match: { a: 1 } }]).toArray())).toEqual([1, 2, 3]);
  });

  it('meets a multikey document once, at its first key within the bounds', async () => {
    const coll = await holding(
      'multikey',
      [
        { _id: 1, a: [5, 1] },
        { _id: 2, a: 3 },
        { _id: 3, a: [4, 2] },
      ],
      { a: 1 },
      { a: -1 },
    );
    const read = async (hint: object, filter: object = {}) =>
      ids(await coll.find(filter).hint(hint).toArray());
    expect(await read({ a: 1 })).toEqual([1, 3, 2]);
    expect(await read({ a: -1 })).toEqual([1, 3, 2]);
    // Bounds [3, MaxKey]: the scan meets 1 at 5, 3 at 4 and 2 at 3.
    expect(await read({ a: 1 }, { a: { $gte: 3 } })).toEqual([2, 3, 1]);
    expect(await read({ a: 1 }, { a: 4 })).toEqual([3]);
  });

  it('reads only what a sparse index holds, in its order', async () => {
    const coll = t.db.collection<Row>('sparse');
    await coll.drop().catch(() => undefined);
    await coll.createIndex({ a: -1 }, { sparse: true });
    await coll.insertMany([{ _id: 1, a: 1 }, { _id: 2 }, { _id: 3, a: 3 }, { _id: 4, a: 2 }]);
    expect(ids(await coll.find({}).hint({ a: -1 }).toArray())).toEqual([3, 4, 1]);
  });

  it('reads a hashed index in the order of the hashes it holds', async () => {
    const coll = await holding(
      'hashed',
      [
        { _id: 1, a: 'abc' },
        { _id: 2, a: 1 },
        { _id: 3, a: 42 },
      ],
      { a: 'hashed' },
    );
    expect(ids(await coll.find({}).hint({ a: 'hashed' }).toArray())).toEqual([3, 2, 1]);
  });

  it("orders string keys by the index's collation, equal keys in insertion order", async () => {
    const coll = t.db.collection<Row>('collated');
    await coll.drop().catch(() => undefined);
    await t.db.createCollection('collated', { collation: { locale: 'en', strength: 2 } });
    await coll.createIndex({ s: 1 });
    await coll.insertMany([
      { _id: 1, s: 'b' },
      { _id: 2, s: 'A' },
      { _id: 3, s: 'a' },
      { _id: 4, s: 'B' },
    ]);
    // Binary order would be 'A', 'B', 'a', 'b'.
    expect(ids(await coll.find({}).hint({ s: 1 }).toArray())).toEqual([2, 3, 1, 4]);
  });

  it('feeds an aggregation the hinted index order, with or without a leading $match', async () => {
    const coll = await holding('aggregated', pairs, { a: 1, b: -1 });
    const run = async (pipeline: object[]) =>
      ids(await coll.aggregate<Row>(pipeline, { hint: { a: 1, b: -1 } }).toArray());
    expect(await run([])).toEqual([4, 2, 3, 1]);
    expect(await run([{ $match: { b: { $gte: 1 } } }])).toEqual([4, 2, 3, 1]);
    expect(await run([{ $match: { a: 2 } }, { $project: { b: 1 } }])).toEqual([3, 1]);
    expect(await run([{ $match: { a: 1 } }, { $limit: 1 }])).toEqual([4]);
    // An aggregation takes a `$natural` hint as find does (jstests/core/timeseries/timeseries_hint.js).
    const reverse = await coll.aggregate<Row>([{ $match: {} }], { hint: { $natural: -1 } }).toArray();
    expect(ids(reverse)).toEqual([4, 3, 2, 1]);
  });

  it('counts alike whatever the hint (distinct takes a hint only from MongoDB 7.1)', async () => {
    const coll = await holding('counted', pairs, { a: 1 }, { b: -1 });
    expect(await coll.countDocuments({ a: 2 }, { hint: { b: -1 } })).toBe(2);
    expect(await coll.countDocuments({}, { hint: { a: 1 } })).toBe(4);
  });
});
