/**
 * A hashed index holds the hash of its field's value (manual, "Hashed Indexes": "Hashed indexes collect
 * and store hashes of the values of the indexed field", https://www.mongodb.com/docs/manual/core/indexes/index-types/index-hashed/).
 * Numbers are truncated to 64-bit integers before hashing, so 2.3, 2.2 and 2.9 share one hash (ibid.,
 * "Floating-Point Numbers"): an equality served by the index reads every document sharing the hash and
 * the filter keeps the equal ones. Only equalities use it ("hashed indexes do not support range
 * queries"). Under the index's collation a string is hashed as its collation key
 * (src/mongo/db/index/expression_keys_private.cpp, getHashKeys), so strings equal under it share a hash.
 */
import { describe, expect, it } from 'vitest';
import { acrossRestarts, connect, drivers, external } from '../helpers.js';

type Row = { _id: number; [field: string]: unknown };

/** Documents a find examined, from explain('executionStats'). */
async function examined(cursor: { explain(verbosity: string): Promise<any> }): Promise<number> {
  return Number((await cursor.explain('executionStats'))['executionStats']['totalDocsExamined']);
}

/** The `_id`s of what a cursor returns, in order. */
async function ids(cursor: { toArray(): Promise<Row[]> }): Promise<number[]> {
  return (await cursor.toArray()).map((doc) => doc._id);
}

describe.each(drivers)('lookups through a hashed index ($name)', (driver) => {
  const t = connect(driver, 'hashed_lookup');
  const { Long } = driver.bson;

  /** A fresh collection `name` holding `docs`, with an index on `key`. */
  async function indexed(name: string, key: Record<string, 1 | 'hashed'>, docs: Row[], options = {}) {
    const coll = t.db.collection<Row>(name);
    await coll.drop().catch(() => undefined);
    await coll.createIndex(key, options);
    await coll.insertMany(docs);
    return coll;
  }

  it('reads the documents sharing the hash of the value and returns only the equal ones', async () => {
    const coll = await indexed('numbers', { a: 'hashed' }, [
      { _id: 1, a: 2 },
      { _id: 2, a: 2.3 },
      { _id: 3, a: 2.9 },
      { _id: 4, a: new Long(2) },
      { _id: 5, a: 3 },
      { _id: 6, a: '2' },
    ]);
    expect(await ids(coll.find({ a: 2 }).sort({ _id: 1 }))).toEqual([1, 4]);
    expect(await examined(coll.find({ a: 2 }))).toBe(4);
    expect(await ids(coll.find({ a: 2.3 }))).toEqual([2]);
    expect(await examined(coll.find({ a: 2.3 }))).toBe(4);
    expect(await ids(coll.find({ a: { $in: [3, '2'] } }).sort({ _id: 1 }))).toEqual([5, 6]);
    expect(await examined(coll.find({ a: { $in: [3, '2'] } }))).toBe(2);
    // A range reads every document: the hashes keep no order of the values.
    expect(await ids(coll.find({ a: { $gt: 2, $lt: 3 } }).sort({ _id: 1 }))).toEqual([2, 3]);
    expect(await examined(coll.find({ a: { $gt: 2, $lt: 3 } }))).toBe(6);
  });

  it('hashes only the hashed field of a compound index', async () => {
    const docs = [
      { _id: 1, a: 1, b: 2 },
      { _id: 2, a: 1, b: 2.5 },
      { _id: 3, a: 1, b: 3 },
      { _id: 4, a: 2, b: 2 },
    ];
    const after = await indexed('after', { a: 1, b: 'hashed' }, docs);
    expect(await ids(after.find({ a: 1, b: 2 }))).toEqual([1]);
    expect(await examined(after.find({ a: 1, b: 2 }))).toBe(2);
    expect(await examined(after.find({ a: 1 }))).toBe(3);
    const first = await indexed('first', { b: 'hashed', a: 1 }, docs);
    expect(await ids(first.find({ b: 2 }).sort({ _id: 1 }))).toEqual([1, 4]);
    expect(await examined(first.find({ b: 2 }))).toBe(3);
  });

  it("hashes strings under the index's collation, so strings equal under it are found", async () => {
    const collation = { locale: 'en', strength: 2 };
    const coll = await indexed(
      'strings',
      { s: 'hashed' },
      [
        { _id: 1, s: 'abc' },
        { _id: 2, s: 'ABC' },
        { _id: 3, s: 'abd' },
      ],
      { collation },
    );
    expect(await ids(coll.find({ s: 'aBc' }).collation(collation).sort({ _id: 1 }))).toEqual([1, 2]);
    expect(await examined(coll.find({ s: 'aBc' }).collation(collation))).toBe(2);
    // Without the collation the index cannot serve the string: every document is read.
    expect(await ids(coll.find({ s: 'abc' }))).toEqual([1]);
  });
});

describe.skipIf(external)('a hashed index in the data files', () => {
  it('is built again from the documents when the server starts', async () => {
    await acrossRestarts('hashed_restart', 2, async (db, round) => {
      const coll = db.collection<Row>('numbers');
      if (round === 1) {
        await coll.createIndex({ a: 'hashed' });
        await coll.insertMany([
          { _id: 1, a: 2 },
          { _id: 2, a: 2.5 },
          { _id: 3, a: 3 },
        ]);
        return;
      }
      expect(await ids(coll.find({ a: 2 }))).toEqual([1]);
      expect(await examined(coll.find({ a: 2 }))).toBe(2);
      expect(await ids(coll.find({ a: 3 }))).toEqual([3]);
    });
  });
});
