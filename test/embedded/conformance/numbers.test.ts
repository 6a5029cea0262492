import { describe, expect, it } from 'vitest';
import { connect, drivers, expressionFailure, failure, typedResults } from '../helpers.js';

type Doc = Record<string, any>;

for (const driver of drivers) {
  describe(`number types (int, long, double, decimal) conformance (${driver.name})`, () => {
    const t = connect(driver, 'numbers');
    const { Decimal128, Long, ObjectId } = driver.bson;
    let counter = 0;

    async function collection(docs: Doc[]) {
      counter++;
      const coll = t.db.collection<any>(`numbers_${counter}`);
      if (docs.length > 0) await coll.insertMany(docs);
      return coll;
    }

    /** The stored value of `field` in document `id`, read without promoting int64 to JS numbers. */
    async function raw(
      coll: Awaited<ReturnType<typeof collection>>,
      id: unknown,
      field = 'v',
    ): Promise<unknown> {
      const doc = await coll.findOne({ _id: id }, { promoteLongs: false });
      return doc?.[field];
    }

    it('keeps an int64 an int64 on a round trip, whatever its size', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(5) },
        { _id: 2, v: Long.fromNumber(-7) },
        { _id: 3, v: Long.fromString('9007199254740993') },
        { _id: 4, v: 5 },
      ]);
      const small = await raw(coll, 1);
      expect(Long.isLong(small)).toBe(true);
      expect(String(small)).toBe('5');
      expect(String(await raw(coll, 2))).toBe('-7');
      expect(String(await raw(coll, 3))).toBe('9007199254740993');
      expect(Long.isLong(await raw(coll, 4))).toBe(false);
      const bigints = await coll.find({}, { useBigInt64: true }).sort({ _id: 1 }).toArray();
      expect(bigints.map((d) => d['v'])).toEqual([5n, -7n, 9007199254740993n, 5]);
      const promoted = await coll
        .find({ _id: { $in: [1, 2] } })
        .sort({ _id: 1 })
        .toArray();
      expect(promoted.map((d) => d['v'])).toEqual([5, -7]);
    });

    /** `{ type, value }` of a field read with no number promoted to a JS number. */
    async function typed(coll: Awaited<ReturnType<typeof collection>>, id: unknown, field = 'v') {
      const doc = await coll.findOne({ _id: id }, { promoteValues: false });
      const value = doc?.[field] as { _bsontype?: string; valueOf(): unknown } | undefined;
      return { type: value?._bsontype, value: Number(value?.valueOf()) };
    }

    it('keeps a double a double on a round trip, integral values included', async () => {
      const { Double } = driver.bson;
      const coll = await collection([
        { _id: 1, v: new Double(5) },
        { _id: 2, v: 5 },
        { _id: 3, v: new Double(2.5) },
        { _id: 4, v: new Double(0) },
        { _id: 5, v: [new Double(1), 1] },
      ]);
      expect(await typed(coll, 1)).toEqual({ type: 'Double', value: 5 });
      expect(await typed(coll, 2)).toEqual({ type: 'Int32', value: 5 });
      expect(await typed(coll, 3)).toEqual({ type: 'Double', value: 2.5 });
      expect(await typed(coll, 4)).toEqual({ type: 'Double', value: 0 });
      const array = (await coll.findOne({ _id: 5 }, { promoteValues: false }))!['v'] as Doc[];
      expect(array.map((v) => v['_bsontype'])).toEqual(['Double', 'Int32']);
      const ids = async (filter: Doc) =>
        (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d['_id']);
      expect(await ids({ v: { $type: 'double' } })).toEqual([1, 3, 4, 5]);
      expect(await ids({ v: { $type: 'int' } })).toEqual([2, 5]);
      expect(await ids({ v: 5 })).toEqual([1, 2]);
      expect(await ids({ v: { $gte: new Double(5) } })).toEqual([1, 2]);
      expect(await coll.distinct('v', { _id: { $lte: 2 } })).toEqual([5]);
      const unique = await collection([]);
      await unique.createIndex({ v: 1 }, { unique: true });
      await unique.insertOne({ _id: 1, v: 5 });
      expect((await failure(() => unique.insertOne({ _id: 2, v: new Double(5) })))['code']).toBe(11000);
    });

    it('types $inc, $mul and $avg results as doubles when MongoDB does, integral or not', async () => {
      const { Double } = driver.bson;
      const coll = await collection([
        { _id: 1, v: new Double(5) },
        { _id: 2, v: 5 },
        { _id: 3, v: 4 },
        { _id: 4, v: 2 },
      ]);
      await coll.updateOne({ _id: 1 }, { $inc: { v: 1 } });
      expect(await typed(coll, 1)).toEqual({ type: 'Double', value: 6 });
      await coll.updateOne({ _id: 2 }, { $inc: { v: new Double(1) } });
      expect(await typed(coll, 2)).toEqual({ type: 'Double', value: 6 });
      await coll.updateOne({ _id: 3 }, { $mul: { v: 2 } });
      expect(await typed(coll, 3)).toEqual({ type: 'Int32', value: 8 });
      await coll.updateOne({ _id: 4 }, { $mul: { w: new Double(3) } });
      expect(await typed(coll, 4, 'w')).toEqual({ type: 'Double', value: 0 });
      const [stats] = await coll
        .aggregate(
          [
            { $match: { _id: { $in: [3, 4] } } },
            { $group: { _id: null, avg: { $avg: '$v' }, sum: { $sum: '$v' }, d: { $sum: new Double(1) } } },
          ],
          { promoteValues: false },
        )
        .toArray();
      expect([stats!['avg']._bsontype, Number(stats!['avg'])]).toEqual(['Double', 5]);
      expect(stats!['sum']._bsontype).toBe('Int32');
      expect([stats!['d']._bsontype, Number(stats!['d'])]).toEqual(['Double', 2]);
    });

    it('types a stored -0 as a double, as it is on the wire', async () => {
      // Manual, "$type (Aggregation)": a double -0 is 'double'; $sum of doubles is a double.
      const { Double } = driver.bson;
      const coll = await collection([{ _id: 1, v: new Double(-0) }]);
      const [doc] = await coll
        .aggregate([{ $project: { type: { $type: '$v' }, sum: { $sum: ['$v', 1] } } }], {
          promoteValues: false,
        })
        .toArray();
      expect(doc!['type']).toBe('double');
      expect([doc!['sum']._bsontype, Number(doc!['sum'])]).toEqual(['Double', 1]);
      expect((await coll.find({ v: { $type: 'int' } }).toArray()).length).toBe(0);
    });

    it('matches $type long (18) only for int64 values', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(5) },
        { _id: 2, v: 5 },
        { _id: 3, v: 5.5 },
      ]);
      const ids = async (type: unknown) =>
        (await coll.find({ v: { $type: type as never } }).toArray()).map((d) => d['_id']);
      expect(await ids('long')).toEqual([1]);
      expect(await ids(18)).toEqual([1]);
      expect(await ids('int')).toEqual([2]);
      expect(await ids('number')).toEqual([1, 2, 3]);
    });

    it('compares int64 values with ints and doubles by value in filters', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(5) },
        { _id: 2, v: 5 },
        { _id: 3, v: 5.5 },
        { _id: 4, v: Long.fromNumber(10) },
        { _id: 5, v: [Long.fromNumber(7)] },
      ]);
      const ids = async (filter: Doc) =>
        (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d['_id']);
      expect(await ids({ v: 5 })).toEqual([1, 2]);
      expect(await ids({ v: Long.fromNumber(5) })).toEqual([1, 2]);
      expect(await ids({ v: { $gt: 5 } })).toEqual([3, 4, 5]);
      expect(await ids({ v: { $lte: Long.fromNumber(5) } })).toEqual([1, 2]);
      expect(await ids({ v: { $ne: 5 } })).toEqual([3, 4, 5]);
      expect(await ids({ v: { $in: [Long.fromNumber(7), 10] } })).toEqual([4, 5]);
      expect(await ids({ v: { $nin: [5, 10] } })).toEqual([3, 5]);
      expect(await ids({ $expr: { $gt: ['$v', 6] } })).toEqual([4, 5]);
    });

    it('matches int64 values beyond 2^53 exactly', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromString('9007199254740993') },
        { _id: 2, v: Long.fromString('9007199254740992') },
      ]);
      const found = await coll.find({ v: Long.fromString('9007199254740993') }).toArray();
      expect(found.map((d) => d['_id'])).toEqual([1]);
    });

    it('sorts int64 values among ints and doubles by value', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(3) },
        { _id: 2, v: 1 },
        { _id: 3, v: 2.5 },
        { _id: 4, v: Long.fromNumber(10) },
        { _id: 5, v: Long.fromNumber(-2) },
        { _id: 6, v: 'text' },
      ]);
      const up = await coll.find({}).sort({ v: 1 }).toArray();
      expect(up.map((d) => d['_id'])).toEqual([5, 2, 3, 1, 4, 6]);
      const down = await coll.aggregate([{ $sort: { v: -1 } }]).toArray();
      expect(down.map((d) => d['_id'])).toEqual([6, 4, 1, 3, 2, 5]);
    });

    it('does $inc and $mul with int64 arithmetic and MongoDB result types', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(5) },
        { _id: 2, v: 2147483647 },
        { _id: 3, v: Long.fromNumber(5) },
        { _id: 4, v: Long.fromNumber(3) },
        { _id: 5 },
        { _id: 6 },
      ]);
      await coll.updateOne({ _id: 1 }, { $inc: { v: 1 } });
      await coll.updateOne({ _id: 2 }, { $inc: { v: 1 } });
      await coll.updateOne({ _id: 3 }, { $inc: { v: 1.5 } });
      await coll.updateOne({ _id: 4 }, { $mul: { v: 2 } });
      await coll.updateOne({ _id: 5 }, { $inc: { v: Long.fromNumber(4) } });
      await coll.updateOne({ _id: 6 }, { $mul: { v: Long.fromNumber(2) } });
      const one = await raw(coll, 1);
      expect(Long.isLong(one) && String(one)).toBe('6');
      const overflowed = await raw(coll, 2);
      expect(Long.isLong(overflowed) && String(overflowed)).toBe('2147483648');
      expect(await raw(coll, 3)).toBe(6.5);
      const doubled = await raw(coll, 4);
      expect(Long.isLong(doubled) && String(doubled)).toBe('6');
      const created = await raw(coll, 5);
      expect(Long.isLong(created) && String(created)).toBe('4');
      const zero = await raw(coll, 6);
      expect(Long.isLong(zero) && String(zero)).toBe('0');
    });

    it('refuses an $inc that overflows int64 and leaves the document unchanged', async () => {
      const coll = await collection([{ _id: 1, v: Long.MAX_VALUE }]);
      const error = await failure(() => coll.updateOne({ _id: 1 }, { $inc: { v: 1 } }));
      expect(String(error['message'])).toMatch(/Failed to apply \$inc operations to current value/);
      expect(String(await raw(coll, 1))).toBe(Long.MAX_VALUE.toString());
    });

    it('does $min and $max across int64 and int by value', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(5) },
        { _id: 2, v: Long.fromNumber(5) },
        { _id: 3, v: 5 },
      ]);
      await coll.updateOne({ _id: 1 }, { $min: { v: 3 } });
      await coll.updateOne({ _id: 2 }, { $max: { v: 3 } });
      await coll.updateOne({ _id: 3 }, { $max: { v: Long.fromNumber(8) } });
      expect(await raw(coll, 1)).toBe(3);
      expect(String(await raw(coll, 2))).toBe('5');
      expect(Long.isLong(await raw(coll, 2))).toBe(true);
      const raised = await raw(coll, 3);
      expect(Long.isLong(raised) && String(raised)).toBe('8');
    });

    it('treats an int64 and an int of the same value as one unique key', async () => {
      const coll = await collection([]);
      await coll.createIndex({ n: 1 }, { unique: true });
      await coll.insertOne({ n: Long.fromNumber(5) });
      const error = await failure(() => coll.insertOne({ n: 5 }));
      expect(error['code']).toBe(11000);
    });

    it('sums, adds and compares int64 values in aggregation', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(2), g: 'a' },
        { _id: 2, v: Long.fromNumber(3), g: 'a' },
        { _id: 3, v: 4, g: 'a' },
      ]);
      const [group] = await coll
        .aggregate([{ $group: { _id: '$g', total: { $sum: '$v' }, top: { $max: '$v' } } }])
        .toArray();
      expect(group).toMatchObject({ _id: 'a', total: 9, top: 4 });
      const added = await coll
        .aggregate([{ $match: { _id: 2 } }, { $project: { _id: 0, next: { $add: ['$v', 1] } } }])
        .toArray();
      expect(added).toEqual([{ next: 4 }]);
      const big = await coll.aggregate([{ $match: { $expr: { $gte: ['$v', 3] } } }]).toArray();
      expect(big.map((d) => d['_id'])).toEqual([2, 3]);
    });

    it('groups an int64 and an int of the same value together', async () => {
      const coll = await collection([{ g: Long.fromNumber(5) }, { g: 5 }, { g: 6 }, { g: null }, {}]);
      const groups = await coll
        .aggregate([{ $group: { _id: '$g', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
        .toArray();
      expect(groups).toEqual([
        { _id: null, n: 2 },
        { _id: 5, n: 2 },
        { _id: 6, n: 1 },
      ]);
    });

    it('keeps int64 and int results typed as MongoDB does in aggregation arithmetic', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(2) },
        { _id: 2, v: Long.fromNumber(3) },
        { _id: 3, v: 4 },
        { _id: 4, v: 2147483647 },
      ]);
      const options = { promoteLongs: false };
      const [sums] = await coll
        .aggregate(
          [
            {
              $group: {
                _id: null,
                longs: { $sum: { $cond: [{ $lte: ['$_id', 3] }, '$v', 0] } },
                ints: { $sum: { $cond: [{ $gte: ['$_id', 3] }, '$v', 0] } },
                low: { $min: '$v' },
              },
            },
          ],
          options,
        )
        .toArray();
      expect(Long.isLong(sums!['longs']) && String(sums!['longs'])).toBe('9');
      expect(Long.isLong(sums!['ints']) && String(sums!['ints'])).toBe('2147483651');
      expect(Long.isLong(sums!['low']) && String(sums!['low'])).toBe('2');
      const [added] = await coll
        .aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, next: { $add: ['$v', 1] } } }], options)
        .toArray();
      expect(Long.isLong(added!['next']) && String(added!['next'])).toBe('3');
    });

    it('computes with Decimal128 exactly, in updates and aggregation', async () => {
      const d = (s: string) => Decimal128.fromString(s);
      const coll = await collection([
        { _id: 1, v: d('1.5') },
        { _id: 2, v: 2 },
        { _id: 3, v: d('1.5') },
        { _id: 4 },
        { _id: 5 },
        { _id: 6, v: d('0.1') },
        { _id: 7, v: d('0.2') },
      ]);
      await coll.updateOne({ _id: 1 }, { $inc: { v: 1 } });
      await coll.updateOne({ _id: 2 }, { $inc: { v: d('0.25') } });
      await coll.updateOne({ _id: 3 }, { $mul: { v: 2 } });
      await coll.updateOne({ _id: 4 }, { $mul: { v: d('3') } });
      await coll.updateOne({ _id: 5 }, { $inc: { v: d('0.25') } });
      const values = (
        await coll
          .find({ _id: { $lte: 5 } })
          .sort({ _id: 1 })
          .toArray()
      ).map((doc) => String(doc['v']));
      expect(values).toEqual(['2.5', '2.25', '3.0', '0', '0.25']);
      const [total] = await coll
        .aggregate([
          { $match: { _id: { $in: [6, 7] } } },
          { $group: { _id: null, sum: { $sum: '$v' }, avg: { $avg: '$v' } } },
        ])
        .toArray();
      expect(String(total!['sum'])).toBe('0.3');
      expect(String(total!['avg'])).toBe('0.15');
      const [difference] = await coll
        .aggregate([{ $match: { _id: 6 } }, { $project: { d: { $subtract: ['$v', 1] } } }])
        .toArray();
      expect(String(difference!['d'])).toBe('-0.9');
    });

    it('keeps number types in positional updates ($, $[] and $[identifier])', async () => {
      const d = (s: string) => Decimal128.fromString(s);
      const coll = await collection([
        { _id: 1, items: [{ p: d('1.5') }, { p: Long.fromNumber(5) }, { p: 1 }] },
        { _id: 2, items: [{ p: d('2') }, { p: d('7') }] },
        { _id: 3, items: [] },
      ]);
      await coll.updateOne({ _id: 1 }, { $inc: { 'items.$[].p': 1 } });
      await coll.updateOne(
        { _id: 2 },
        { $mul: { 'items.$[big].p': 2 } },
        { arrayFilters: [{ 'big.p': { $gt: 5 } }] },
      );
      await coll.updateOne({ _id: 2, 'items.p': d('2') }, { $inc: { 'items.$.p': d('0.5') } });
      const docs = await coll.find({}, { promoteLongs: false }).sort({ _id: 1 }).toArray();
      const first = docs[0]!['items'].map((i: Doc) => i['p']);
      expect(first.map(String)).toEqual(['2.5', '6', '2']);
      expect(Long.isLong(first[1])).toBe(true);
      expect(docs[1]!['items'].map((i: Doc) => String(i['p']))).toEqual(['2.5', '14']);
      const error = await failure(() => coll.updateOne({ _id: 3 }, { $inc: { 'missing.$[].p': 1 } }));
      expect(error['code']).toBe(2);
    });

    it('$addToSet treats numbers of any type with the same value as one element', async () => {
      const coll = await collection([
        { _id: 1, a: [5] },
        { _id: 2, a: ['Ann'] },
      ]);
      const same = await coll.updateOne({ _id: 1 }, { $addToSet: { a: Long.fromNumber(5) } });
      expect(same.modifiedCount).toBe(0);
      await coll.updateOne({ _id: 1 }, { $addToSet: { a: { $each: [5.0, 6, Long.fromNumber(6)] } } });
      await coll.updateOne(
        { _id: 2 },
        { $addToSet: { a: { $each: ['ANN', 'Bob'] } } },
        { collation: { locale: 'en', strength: 2 } },
      );
      const docs = await coll.find().sort({ _id: 1 }).toArray();
      expect(docs.map((d) => d['a'])).toEqual([
        [5, 6],
        ['Ann', 'Bob'],
      ]);
    });

    it('compares Decimal128 with doubles by exact value', async () => {
      const d = (s: string) => Decimal128.fromString(s);
      const coll = await collection([
        { _id: 1, v: d('2.5') },
        { _id: 2, v: d('0.1') },
        { _id: 3, v: 2.5 },
        { _id: 4, v: d('2.50') },
      ]);
      const ids = async (filter: Doc) =>
        (await coll.find(filter).sort({ _id: 1 }).toArray()).map((doc) => doc['_id']);
      expect(await ids({ v: 2.5 })).toEqual([1, 3, 4]);
      expect(await ids({ v: d('2.5') })).toEqual([1, 3, 4]);
      expect(await ids({ v: 0.1 })).toEqual([]);
      expect(await ids({ v: d('0.1') })).toEqual([2]);
      expect(await ids({ v: { $in: [2.5] } })).toEqual([1, 3, 4]);
      const unique = await collection([]);
      await unique.createIndex({ v: 1 }, { unique: true });
      await unique.insertOne({ v: d('1.50') });
      expect((await failure(() => unique.insertOne({ v: d('1.5') })))['code']).toBe(11000);
      expect((await failure(() => unique.insertOne({ v: 1.5 })))['code']).toBe(11000);
    });

    it('names BSON types in the $type expression as MongoDB does', async () => {
      const coll = await collection([
        { _id: 1, v: Long.fromNumber(5) },
        { _id: 2, v: 5 },
        { _id: 3, v: 5.5 },
        { _id: 4, v: new ObjectId() },
        { _id: 5, v: 2 ** 40 },
        { _id: 6 },
      ]);
      const types = await coll
        .aggregate([{ $sort: { _id: 1 } }, { $project: { _id: 0, t: { $type: '$v' } } }])
        .toArray();
      expect(types.map((d) => d['t'])).toEqual(['long', 'int', 'double', 'objectId', 'double', 'missing']);
    });

    it('counts an int64 and an int of the same value as one distinct value', async () => {
      const coll = await collection([{ v: Long.fromNumber(5) }, { v: 5 }, { v: 6 }]);
      const values = await coll.distinct('v');
      expect(values.map(Number).sort()).toEqual([5, 6]);
    });

    it('reads doubles and int64s used as flags, counts and indexes as numbers', async () => {
      const { Double } = driver.bson;
      const coll = await collection([
        { _id: 1, arr: [10, Long.fromNumber(20), 30], l: Long.fromNumber(1), d: new Double(2), s: 'hello' },
        { _id: 2, arr: [1] },
      ]);
      const one = { _id: 1 };
      const found = await coll.findOne(one, { projection: { s: new Double(1), _id: new Double(0) } });
      expect(found).toEqual({ s: 'hello' });
      const sliced = await coll.findOne(one, {
        projection: { arr: { $slice: Long.fromNumber(2) }, _id: 0, s: 1 },
      });
      expect(sliced).toEqual({ arr: [10, 20], s: 'hello' });
      expect(await coll.countDocuments({ arr: { $size: new Double(3) } })).toBe(1);
      expect(await coll.countDocuments({ arr: { $size: Long.fromNumber(1) } })).toBe(1);
      const [row] = await coll
        .aggregate(
          [
            { $sort: { _id: new Double(1) } },
            { $limit: new Double(1) },
            {
              $project: {
                _id: new Double(0),
                at: { $arrayElemAt: ['$arr', '$l'] },
                last: { $arrayElemAt: ['$arr', '$d'] },
                head: { $slice: ['$arr', '$l'] },
                range: { $range: [0, '$d'] },
                sub: { $substrCP: ['$s', '$l', '$d'] },
              },
            },
          ],
          { promoteLongs: false },
        )
        .toArray();
      expect(Long.isLong(row!['at'])).toBe(true);
      expect({ ...row, at: String(row!['at']) }).toEqual({
        at: '20',
        last: 30,
        head: [10],
        range: [0, 1],
        sub: 'el',
      });
      await coll.updateOne(one, { $pop: { arr: new Double(1) } } as Doc);
      expect((await coll.findOne(one))!['arr']).toEqual([10, 20]);
    });

    it('types the results of the other aggregation number operators as MongoDB does', async () => {
      const { Double } = driver.bson;
      const coll = await collection([
        {
          _id: 1,
          d: new Double(5.5),
          i: 5,
          l: Long.fromNumber(7),
          m: Decimal128.fromString('2.50'),
          s: '42',
        },
        { _id: 2, i: -2147483648 },
      ]);
      const [row] = await coll
        .aggregate(
          [
            { $match: { _id: 1 } },
            {
              $project: {
                _id: 0,
                divide: { $divide: ['$i', 1] },
                divideDecimal: { $divide: ['$m', 2] },
                sqrt: { $sqrt: 16 },
                absDouble: { $abs: '$d' },
                absLong: { $abs: '$l' },
                floor: { $floor: '$d' },
                round: { $round: ['$d', 0] },
                truncShort: { $trunc: '$i' },
                modLong: { $mod: ['$i', '$l'] },
                modDouble: { $mod: ['$i', 2.5] },
                powInt: { $pow: ['$i', 2] },
                powLong: { $pow: ['$i', 20] },
                powNegative: { $pow: ['$i', -1] },
                powDouble: { $pow: [new Double(2), 3] },
                toLong: { $toLong: '$s' },
                toDouble: { $toDouble: '$i' },
                toDecimal: { $toDecimal: '$i' },
                toInt: { $toInt: '$d' },
              },
            },
          ],
          { promoteValues: false },
        )
        .toArray();
      const types = Object.fromEntries(
        Object.entries(row!).map(([k, v]) => [k, `${(v as Doc)['_bsontype']} ${String(v)}`]),
      );
      expect(types).toEqual({
        divide: 'Double 5',
        divideDecimal: 'Decimal128 1.25',
        sqrt: 'Double 4',
        absDouble: 'Double 5.5',
        absLong: 'Long 7',
        floor: 'Double 5',
        round: 'Double 6',
        truncShort: 'Int32 5',
        modLong: 'Long 5',
        modDouble: 'Double 0',
        powInt: 'Int32 25',
        powLong: 'Long 95367431640625',
        powNegative: 'Double 0.2',
        powDouble: 'Double 8',
        toLong: 'Long 42',
        toDouble: 'Double 5',
        toDecimal: 'Decimal128 5',
        toInt: 'Int32 5',
      });
      const [min] = await coll
        .aggregate([{ $match: { _id: 2 } }, { $project: { a: { $abs: '$i' } } }], { promoteValues: false })
        .toArray();
      expect([(min!['a'] as Doc)['_bsontype'], String(min!['a'])]).toEqual(['Long', '2147483648']);
    });

    // expression.cpp, ExpressionPow: a base of 1 or -1 stays an integer for any exponent (an int for two
    // ints, a long when either is a long); 0 to a negative power is 28764 for every numeric type.
    // expression.cpp, ExpressionPow: a base of 1 or -1 stays an integer for any exponent (an int for two
    // ints, a long when either is a long); 0 to a negative power is 28764 for every numeric type.
    it('keeps $pow of 1 and -1 integers and refuses 0 to a negative power', async () => {
      expect(
        await typedResults(t.db, {
          oneNegative: { $pow: [1, -2] },
          minusOneOdd: { $pow: [-1, -3] },
          minusOneLarge: { $pow: [-1, 100] },
          longBase: { $pow: [Long.fromNumber(-1), -3] },
          longExponent: { $pow: [1, Long.fromNumber(-2)] },
          half: { $pow: [2, -1] },
          pastLong: { $pow: [2, 64] },
        }),
      ).toEqual({
        oneNegative: 'Int32 1',
        minusOneOdd: 'Int32 -1',
        minusOneLarge: 'Int32 1',
        longBase: 'Long -1',
        longExponent: 'Long 1',
        half: 'Double 0.5',
        pastLong: 'Double 18446744073709552000',
      });
      for (const exponent of [-1, Long.fromNumber(-1), -0.5])
        expect(await expressionFailure(t.db, { $pow: [0, exponent] })).toMatchObject({
          code: 28764,
          message: '$pow cannot take a base of 0 and a negative exponent',
        });
    });
  });
}
