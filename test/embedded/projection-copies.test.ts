/**
 * A read never changes what is stored. A find's projection that excludes an embedded field
 * (`{ 'a.b': 0 }`, `{ 'arr.v': 0 }`) ran on the stored documents themselves when the find also had a
 * sort, a skip, a limit or any projection: the excluded field was deleted from the stored document, so
 * every later read missed it and the next update wrote the document back without it (found by the wire
 * fuzzer's findVersusAggregate scenario). The manual's Project Fields page: a projection shapes the
 * documents the query returns, nothing else.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from './helpers.js';

describe.each(drivers)('a projection leaves the stored documents as they were ($name)', (driver) => {
  const t = connect(driver, 'projection_copies');

  const stored = [
    {
      _id: 1,
      k: 1,
      a: { b: 1, c: 2 },
      arr: [
        { v: 1, w: 2 },
        { v: 3, w: 4 },
      ],
    },
    { _id: 2, k: 2, a: { b: 5, c: 6 }, arr: [{ v: 5, w: 6 }] },
  ];

  async function fresh(): Promise<any> {
    const coll = t.db.collection<any>('docs');
    await coll.deleteMany({});
    await coll.insertMany(stored.map((d) => structuredClone(d)));
    return coll;
  }

  it('after finds that exclude embedded fields, with and without sort, skip and limit', async () => {
    const coll = await fresh();
    const reads = [
      { projection: { 'a.b': 0 } },
      { projection: { 'arr.v': 0 } },
      { projection: { 'arr.v': 0, _id: 0 }, sort: { _id: 1 } },
      { projection: { 'a.c': 0, 'arr.w': 0 }, skip: 1 },
      { projection: { 'arr.v': 0 }, limit: 1, sort: { k: -1 } },
    ];
    for (const options of reads) {
      const answer = await coll.find({ k: { $gte: 1 } }, options).toArray();
      expect(answer.length).toBeGreaterThan(0);
      expect(await coll.find({}, { sort: { _id: 1 } }).toArray()).toEqual(stored);
    }
    // The same filter still finds them by the fields the projection left out.
    expect(await coll.countDocuments({ 'arr.v': 5 })).toBe(1);
    expect(await coll.countDocuments({ 'a.b': 1 })).toBe(1);
  });

  it('after findAndModify returns a projected document, and the write that follows keeps every field', async () => {
    const coll = await fresh();
    const before = await coll.findOneAndUpdate(
      { _id: 1 },
      { $set: { z: 1 } },
      { projection: { 'arr.v': 0 } },
    );
    expect(before).toEqual({ _id: 1, k: 1, a: { b: 1, c: 2 }, arr: [{ w: 2 }, { w: 4 }] });
    expect(await coll.findOne({ _id: 1 })).toEqual({ ...stored[0], z: 1 });
    await coll.find({ _id: 2 }, { projection: { 'a.b': 0 }, sort: { _id: 1 } }).toArray();
    await coll.updateOne({ _id: 2 }, { $inc: { k: 1 } });
    expect(await coll.findOne({ _id: 2 })).toEqual({ ...stored[1], k: 3 });
  });
});
