/**
 * A sub-document shaped like a DBRef (`{ $ref, $id, $db?, … }`) is an ordinary embedded document to
 * MongoDB 7.0: the drivers' DBRef specification calls a DBRef "a convention for expressing a reference
 * to another document as an embedded document (i.e. BSON type 0x03)". So the server keeps its bytes as
 * stored, paths reach into it (jstests/core/dbref3.js runs `distinct('sub.$id')`), updates add and
 * remove its fields, and sorts and equality read it as a document, pair by pair in stored order (manual,
 * "Comparison/Sort Order": objects "recursively compare key-value pairs in the order that they appear
 * within the BSON object"). The embedded database held these as the bson library's `DBRef` objects,
 * which no path entered and which it wrote back reordered.
 */
import { describe, expect, it } from 'vitest';
import { acrossRestarts, connect, drivers, external } from '../helpers.js';

describe.each(drivers)('DBRef-shaped documents ($name)', (driver) => {
  const state = connect(driver, 'dbref_documents');
  const { BSON, DBRef } = driver.bson;

  const collection = async (name: string, docs: Record<string, unknown>[]) => {
    const coll = state.db.collection<any>(name);
    await coll.deleteMany({});
    await coll.insertMany(docs);
    return coll;
  };

  it('come back byte for byte as stored, and the driver still makes DBRefs of them', async () => {
    const docs = [
      { _id: 1, d: { $ref: 'c', $id: 5 } },
      // A `$ref` with a dot, a `$db`, fields after `$db`, `$id` first: each kept as it was written.
      { _id: 2, d: { $ref: 'a.b', $id: 7, $db: 'q', note: 'n' } },
      { _id: 3, d: { $id: 8, $ref: 'c' } },
      { _id: 4, list: [{ $ref: 'c', $id: 9, extra: [1] }] },
      { _id: 5, d: { $ref: 'c', $id: { $ref: 'e', $id: 1.5 }, f: [{ $ref: 'x.y', $id: 2, $db: 'z' }] } },
    ];
    const coll = await collection('bytes', docs);
    const raw = (await coll.find({}, { raw: true }).sort({ _id: 1 }).toArray()) as unknown as Uint8Array[];
    expect(raw.map((bytes) => Buffer.from(bytes).toString('hex'))).toEqual(
      docs.map((doc) => Buffer.from(BSON.serialize(doc)).toString('hex')),
    );
    const first = await coll.findOne({ _id: 1 });
    expect(first.d).toBeInstanceOf(DBRef);
    expect([first.d.collection, first.d.oid]).toEqual(['c', 5]);
  });

  it('are reached by paths in filters, expressions, $group, $lookup and distinct', async () => {
    const coll = await collection('paths', [
      { _id: 1, ref: { $ref: 'targets', $id: 10 } },
      { _id: 2, ref: { $ref: 'targets', $id: 20, $db: 'other' } },
      { _id: 3, ref: { $ref: 'elsewhere', $id: 10 } },
    ]);
    await collection('targets', [
      { _id: 10, name: 'ten' },
      { _id: 20, name: 'twenty' },
    ]);
    const ids = async (filter: object) =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids({ 'ref.$id': 10 })).toEqual([1, 3]);
    expect(await ids({ 'ref.$db': { $exists: true } })).toEqual([2]);
    expect(await ids({ $expr: { $eq: ['$ref.$ref', 'elsewhere'] } })).toEqual([3]);
    expect(await coll.distinct('ref.$id')).toEqual([10, 20]);

    const computed = await coll
      .aggregate([
        { $sort: { _id: 1 } },
        {
          $project: { id: '$ref.$id', keys: { $map: { input: { $objectToArray: '$ref' }, in: '$$this.k' } } },
        },
      ])
      .toArray();
    expect(computed).toEqual([
      { _id: 1, id: 10, keys: ['$ref', '$id'] },
      { _id: 2, id: 20, keys: ['$ref', '$id', '$db'] },
      { _id: 3, id: 10, keys: ['$ref', '$id'] },
    ]);
    const grouped = await coll
      .aggregate([{ $group: { _id: '$ref.$ref', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(grouped).toEqual([
      { _id: 'elsewhere', n: 1 },
      { _id: 'targets', n: 2 },
    ]);
    // The common join on a DBRef's id ($lookup: "localField: <field from the input documents>").
    const joined = await coll
      .aggregate([
        { $lookup: { from: 'targets', localField: 'ref.$id', foreignField: '_id', as: 'target' } },
        { $sort: { _id: 1 } },
        { $project: { name: { $first: '$target.name' } } },
      ])
      .toArray();
    expect(joined).toEqual([
      { _id: 1, name: 'ten' },
      { _id: 2, name: 'twenty' },
      { _id: 3, name: 'ten' },
    ]);
  });

  it('are changed by updates like any embedded document', async () => {
    const coll = await collection('updates', [{ _id: 1, d: { $ref: 'c', $id: 5, $db: 'x' } }]);
    await coll.updateOne({ _id: 1 }, { $set: { 'd.o': 3 } });
    await coll.updateOne({ _id: 1 }, { $unset: { 'd.$db': '' } });
    const [doc] = (await coll.find({}, { raw: true }).toArray()) as unknown as Uint8Array[];
    expect(Buffer.from(doc!).equals(BSON.serialize({ _id: 1, d: { $ref: 'c', $id: 5, o: 3 } }))).toBe(true);
  });

  it('are found in arrays by $elemMatch and removed by $pull, a DBRef field matching its equal', async () => {
    // In a query on an array's documents, `$ref`, `$id` and `$db` are each an equality on that field of
    // the element (parseDBRef, src/mongo/db/matcher/expression_parser.cpp), whatever other fields it has.
    const coll = await collection('arrays', [
      {
        _id: 1,
        refs: [
          { $ref: 'c', $id: 1 },
          { $ref: 'c', $id: 2, note: 'n' },
        ],
      },
      { _id: 2, refs: [{ $ref: 'd', $id: 2 }] },
    ]);
    const ids = async (filter: object) =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids({ refs: { $elemMatch: { $ref: 'c', $id: 2 } } })).toEqual([1]);
    expect(await ids({ refs: { $elemMatch: { $id: 2 } } })).toEqual([1, 2]);
    const pull: Record<string, unknown> = { $pull: { refs: new DBRef('c', 2 as never) } };
    await coll.updateMany({}, pull);
    const left = await coll.aggregate([{ $project: { ids: '$refs.$id' } }, { $sort: { _id: 1 } }]).toArray();
    expect(left).toEqual([
      { _id: 1, ids: [1] },
      { _id: 2, ids: [2] },
    ]);
  });

  it('are removed by a $pull query that mixes DBRef fields with others, and by $elemMatch and $pullAll', async () => {
    // pull_node.cpp (PullNode::init): a condition whose first field is not a field operator is run by
    // the ObjectMatcher, a whole query (pathless $ref/$id/$db, $and/$or included) on each element that
    // is a document; other elements never match. One that opens with an operator ($elemMatch) tests the
    // element itself; $pullAll removes the elements equal to one of its values.
    const refs = [
      { $ref: 'c', $id: 1, extra: 2 },
      { $ref: 'c', $id: 2 },
      { $ref: 'd', $id: 1, extra: 2 },
      5,
      [1],
    ];
    const pulled = async (update: object, list: unknown[] = refs) => {
      const coll = await collection('pull_mixed', [{ _id: 1, list }]);
      await coll.updateOne({}, update);
      // Compared as bytes: the driver would make DBRefs of { $ref, $id } elements.
      const [doc] = (await coll.find({}, { raw: true }).toArray()) as unknown as Uint8Array[];
      return Buffer.from(doc!).toString('hex');
    };
    const bytes = (list: unknown[]) => Buffer.from(BSON.serialize({ _id: 1, list })).toString('hex');
    const [c1, c2, d1] = refs;
    expect(await pulled({ $pull: { list: { $ref: 'c', extra: 2 } } })).toEqual(bytes([c2, d1, 5, [1]]));
    expect(await pulled({ $pull: { list: { extra: 2, $ref: 'd' } } })).toEqual(bytes([c1, c2, 5, [1]]));
    expect(await pulled({ $pull: { list: { $ref: 'c', $id: 1 } } })).toEqual(bytes([c2, d1, 5, [1]]));
    expect(await pulled({ $pull: { list: { $or: [{ $id: 2 }, { extra: 2, $ref: 'd' }] } } })).toEqual(
      bytes([c1, 5, [1]]),
    );
    // An empty query matches every document element, and only those.
    expect(await pulled({ $pull: { list: {} } })).toEqual(bytes([5, [1]]));
    expect(await pulled({ $pull: { list: { missing: { $exists: false } } } })).toEqual(bytes([5, [1]]));
    const nested = [[{ $ref: 'c', $id: 1, x: 1 }], [{ $ref: 'c', $id: 2 }], [{ $ref: 'd', $id: 1, x: 1 }]];
    expect(await pulled({ $pull: { list: { $elemMatch: { $ref: 'c', x: 1 } } } }, nested)).toEqual(
      bytes([nested[1], nested[2]]),
    );
    expect(
      await pulled({
        $pullAll: {
          list: [
            { $ref: 'c', $id: 2 },
            { $ref: 'c', extra: 2 },
          ],
        },
      }),
    ).toEqual(bytes([c1, d1, 5, [1]]));
  });

  it('are matched by $ref, $id and $db clauses at any filter level, beside ordinary fields', async () => {
    // expression_parser.cpp registers parseDBRef as the pathless parser of $ref, $id and $db: an
    // equality on the field of that name of the document at hand (the filter's own document, or the
    // element an $elemMatch tests), `$id` under the collation, `$ref` and `$db` by binary comparison.
    // The embedded database refused them at the top ("unknown top level operator: $ref") and in an
    // $elemMatch beside another field.
    const coll = await collection('levels', [
      { _id: 1, $ref: 'c', $id: 5, list: [{ $ref: 'c', $id: 5, extra: 1 }] },
      { _id: 2, $ref: 'd', $id: 6, $db: 'x', list: [{ $ref: 'c', $id: 6, extra: 2 }] },
      { _id: 3, $ref: ['c', 'x'], $id: 'A', list: [{ $ref: 'd', $id: 5, extra: 1 }] },
      { _id: 4, list: [{ extra: 1 }] },
    ]);
    // The driver makes a DBRef of a document with $ref and $id at its top: read the _ids only.
    const ids = async (filter: object, collation?: { locale: string; strength: number }) =>
      (
        await coll
          .find(filter, { projection: { _id: 1 }, ...(collation ? { collation } : {}) })
          .sort({ _id: 1 })
          .toArray()
      ).map((d) => d._id);
    // An array field matches when an element is equal, as for any equality.
    expect(await ids({ $ref: 'c' })).toEqual([1, 3]);
    expect(await ids({ $id: 5 })).toEqual([1]);
    expect(await ids({ $db: 'x', $ref: 'd' })).toEqual([2]);
    expect(await ids({ $or: [{ $id: 6 }, { $ref: 'x' }] })).toEqual([2, 3]);
    const caseless = { locale: 'en', strength: 2 };
    expect(await ids({ $id: 'a' }, caseless)).toEqual([3]);
    expect(await ids({ $ref: 'C' }, caseless)).toEqual([]);
    expect(await ids({ list: { $elemMatch: { $ref: 'c', extra: 1 } } })).toEqual([1]);
    expect(await ids({ list: { $elemMatch: { extra: { $gte: 1 }, $id: 5 } } })).toEqual([1, 3]);
    expect(await ids({ list: { $elemMatch: { $and: [{ $ref: 'c' }, { extra: 2 }] } } })).toEqual([2]);
    expect(await coll.countDocuments({ $id: { $in: [5] } })).toBe(0); // equality with { $in: [5] }
    const matched = await coll.aggregate([{ $match: { $ref: 'd' } }, { $project: { _id: 1 } }]).toArray();
    expect(matched).toEqual([{ _id: 2 }]);
    expect((await coll.updateMany({ $id: 6 }, { $set: { seen: 1 } })).modifiedCount).toBe(1);
    expect((await coll.deleteMany({ $ref: 'c', $id: 5 })).deletedCount).toBe(1);
    expect(await ids({})).toEqual([2, 3, 4]);
  });

  it('sort and match as documents: field by field, in stored order', async () => {
    const coll = await collection('order', [
      { _id: 1, d: { $ref: 'c', $id: 6 } },
      { _id: 2, d: { $id: 5, $ref: 'c' } },
      { _id: 3, d: { $ref: 'c', $id: 5 } },
      { _id: 4, d: { $ref: 'c', $id: 5, $db: 'x' } },
      { _id: 5, d: { $ref: 'b', $id: 9 } },
    ]);
    const ids = async (filter: object) =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    // Pairs compare by value type (a number before a string), name, then value; more pairs is greater.
    expect((await coll.find().sort({ d: 1 }).toArray()).map((d) => d._id)).toEqual([2, 5, 3, 4, 1]);
    expect(await ids({ d: new DBRef('c', 5 as never) })).toEqual([3]);
    expect(await ids({ d: { $id: 5, $ref: 'c' } })).toEqual([2]);
    expect(await ids({ d: new DBRef('c', 5 as never, 'x') })).toEqual([4]);
    expect(await ids({ d: { $in: [new DBRef('c', 6 as never), new DBRef('b', 9 as never)] } })).toEqual([
      1, 5,
    ]);
    expect(await ids({ d: { $ne: new DBRef('c', 5 as never) } })).toEqual([1, 2, 4, 5]);
    expect(await ids({ $expr: { $eq: ['$d', { $literal: { $ref: 'c', $id: 5 } }] } })).toEqual([3]);
  });
});

describe.skipIf(external)('a DBRef-shaped document in the data files', () => {
  it('is read back after a restart as a document that paths reach', async () => {
    await acrossRestarts('dbref', 2, async (db, round) => {
      const coll = db.collection<any>('refs');
      if (round === 1) await coll.insertOne({ _id: 1, d: { $ref: 'a.b', $id: 5, $db: 'q' } });
      else expect(await coll.countDocuments({ 'd.$id': 5, 'd.$ref': 'a.b', 'd.$db': 'q' })).toBe(1);
    });
  });
});
