/**
 * An operation's `{ locale: 'simple' }` collation compares strings binary even on a collection with a
 * default collation (manual, Collation: https://www.mongodb.com/docs/manual/reference/collation/
 * "To specify simple binary comparison, specify locale value of "simple""; "If a collection has
 * defined a collation, all queries and indexes inherit that collation unless they explicitly specify a
 * different collation", manual, Case-Insensitive Indexes).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('simple collation on a collated collection ($name)', (driver) => {
  const t = connect(driver, 'simple_collation');

  it("compares binary under { locale: 'simple' }, and under the collection's collation without one", async () => {
    await t.db.dropCollection('names').catch(() => undefined);
    const coll = await t.db.createCollection<{ _id: string; n: number }>('names', {
      collation: { locale: 'en', strength: 2 },
    });
    await coll.insertMany([
      { _id: 'apple', n: 1 },
      { _id: 'Banana', n: 2 },
    ]);
    const simple = { locale: 'simple' };
    const ids = (docs: { _id: string }[]) => docs.map((doc) => doc._id);
    expect(ids(await coll.find({ _id: 'APPLE' }).toArray())).toEqual(['apple']);
    expect(ids(await coll.find({ _id: 'APPLE' }, { collation: simple }).toArray())).toEqual([]);
    expect(ids(await coll.find({}, { collation: simple }).sort({ _id: 1 }).toArray())).toEqual([
      'Banana',
      'apple',
    ]);
    expect(ids(await coll.find({}).sort({ _id: 1 }).toArray())).toEqual(['apple', 'Banana']);
    expect(await coll.countDocuments({ _id: { $gt: 'b' } }, { collation: simple })).toBe(0);
    expect(await coll.countDocuments({ _id: { $gt: 'b' } })).toBe(1);
    const sorted = await coll.aggregate([{ $sort: { _id: 1 } }], { collation: simple }).toArray();
    expect(sorted.map((doc) => doc['_id'])).toEqual(['Banana', 'apple']);
  });

  it("updates and deletes binary under { locale: 'simple' }, under the collection's collation without one", async () => {
    await t.db.dropCollection('writes').catch(() => undefined);
    const coll = await t.db.createCollection<{ _id: number; s: string; n: number }>('writes', {
      collation: { locale: 'en', strength: 2 },
    });
    await coll.insertOne({ _id: 1, s: 'apple', n: 0 });
    const simple = { locale: 'simple' };
    expect(
      (await coll.updateOne({ s: 'APPLE' }, { $inc: { n: 1 } }, { collation: simple })).matchedCount,
    ).toBe(0);
    expect((await coll.updateMany({ s: 'APPLE' }, { $inc: { n: 1 } })).matchedCount).toBe(1);
    expect((await coll.deleteOne({ s: 'APPLE' }, { collation: simple })).deletedCount).toBe(0);
    expect((await coll.deleteMany({ s: 'APPLE' }, { collation: simple })).deletedCount).toBe(0);
    expect(await coll.find({}).toArray()).toEqual([{ _id: 1, s: 'apple', n: 1 }]);
    expect((await coll.deleteOne({ s: 'APPLE' })).deletedCount).toBe(1);
  });
});
