import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

type Doc = Record<string, any>;

for (const driver of drivers) {
  describe(`BSON comparison order conformance (${driver.name})`, () => {
    const t = connect(driver, 'order');
    const { Binary, Long, MinKey, ObjectId } = driver.bson;
    let counter = 0;

    async function collection(docs: Doc[]) {
      counter++;
      const coll = t.db.collection<any>(`order_${counter}`);
      await coll.insertMany(docs);
      return coll;
    }

    it('sorts values of different types in MongoDB order', async () => {
      const coll = await collection([
        { _id: 1, v: true },
        { _id: 2, v: new Date(0) },
        { _id: 3, v: 'a' },
        { _id: 4, v: new ObjectId() },
        { _id: 5, v: 2 },
        { _id: 6, v: { x: 1 } },
        { _id: 7, v: null },
        { _id: 8, v: new Binary(Buffer.from([1])) },
        { _id: 9, v: /re/ },
      ]);
      const up = await coll.find().sort({ v: 1 }).toArray();
      expect(up.map((d) => d['_id'])).toEqual([7, 5, 3, 6, 8, 4, 1, 2, 9]);
      const down = await coll.aggregate([{ $sort: { v: -1 } }]).toArray();
      expect(down.map((d) => d['_id'])).toEqual([9, 2, 1, 4, 8, 6, 3, 5, 7]);
    });

    it('sorts arrays by their smallest element ascending and their largest descending', async () => {
      const coll = await collection([
        { _id: 1, a: [3, 10] },
        { _id: 2, a: 5 },
        { _id: 3, a: [1, 20] },
        { _id: 4 },
        { _id: 5, a: null },
        { _id: 6, a: [] },
      ]);
      const up = await coll.find().sort({ a: 1, _id: 1 }).toArray();
      expect(up.map((d) => d['_id'])).toEqual([6, 4, 5, 3, 1, 2]);
      const down = await coll.find().sort({ a: -1, _id: 1 }).toArray();
      expect(down.map((d) => d['_id'])).toEqual([3, 1, 2, 4, 5, 6]);
    });

    it('sorts int64 values beyond 2^53 exactly', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromString('9007199254740993') },
        { _id: 2, v: 9007199254740990 },
        { _id: 3, v: Long.fromString('9007199254740992') },
        { _id: 4, v: Long.fromString('-9007199254740993') },
      ]);
      const up = await coll.find().sort({ v: 1 }).toArray();
      expect(up.map((d) => d['_id'])).toEqual([4, 2, 3, 1]);
    });

    it('brackets range queries by type, numbers of every type together', async () => {
      const coll = await collection([
        { _id: 1, v: 5 },
        { _id: 2, v: Long.fromNumber(7) },
        { _id: 3, v: 'z' },
        { _id: 4, v: new Date(10) },
        { _id: 5, v: null },
        { _id: 6 },
        { _id: 7, v: [0, 9] },
      ]);
      const ids = async (filter: Doc) =>
        (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d['_id']);
      expect(await ids({ v: { $gt: 6 } })).toEqual([2, 7]);
      expect(await ids({ v: { $lt: 1 } })).toEqual([7]);
      expect(await ids({ v: { $gte: 'a' } })).toEqual([3]);
      expect(await ids({ v: { $lt: new Date(20) } })).toEqual([4]);
      expect(await ids({ v: { $lte: null } })).toEqual([5, 6]);
      expect(await ids({ v: { $gt: new MinKey() } })).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 7]));
    });

    it('compares int64 values beyond 2^53 exactly in range queries', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromString('9007199254740993') },
        { _id: 2, v: Long.fromString('9007199254740992') },
        { _id: 3, v: 9007199254740990 },
      ]);
      const above = await coll.find({ v: { $gt: Long.fromString('9007199254740992') } }).toArray();
      expect(above.map((d) => d['_id'])).toEqual([1]);
      const below = await coll.find({ v: { $lt: Long.fromString('9007199254740993') } }).toArray();
      expect(below.map((d) => d['_id']).sort()).toEqual([2, 3]);
    });

    it('compares embedded documents field by field', async () => {
      const coll = await collection([
        { _id: 1, v: { a: 2 } },
        { _id: 2, v: { a: 1, b: 5 } },
        { _id: 3, v: { a: 1 } },
        { _id: 4, v: { b: 0 } },
      ]);
      const up = await coll.find().sort({ v: 1 }).toArray();
      expect(up.map((d) => d['_id'])).toEqual([3, 2, 1, 4]);
    });

    it('applies $min and $max across types in the same order', async () => {
      const coll = await collection([
        { _id: 1, v: new Date(0) },
        { _id: 2, v: new ObjectId() },
        { _id: 3, v: 'b' },
      ]);
      await coll.updateOne({ _id: 1 }, { $min: { v: 5 } });
      await coll.updateOne({ _id: 2 }, { $max: { v: true } });
      await coll.updateOne({ _id: 3 }, { $max: { v: 7 } });
      const docs = await coll.find().sort({ _id: 1 }).toArray();
      expect(docs.map((d) => d['v'])).toEqual([5, true, 'b']);
    });
  });
}
