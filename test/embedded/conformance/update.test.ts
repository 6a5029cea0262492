import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

/** [case name, stored document (without _id), update, expected document (without _id)] */
const updateCases: [string, Doc, Doc | Doc[], Doc][] = [
  ['$set a top-level field', { a: 1 }, { $set: { a: 2 } }, { a: 2 }],
  [
    '$set a new nested path creates documents',
    { a: 1 },
    { $set: { 'b.c.d': true } },
    { a: 1, b: { c: { d: true } } },
  ],
  ['$set an array element by index', { arr: [1, 2, 3] }, { $set: { 'arr.1': 20 } }, { arr: [1, 20, 3] }],
  ['$unset removes fields', { a: 1, b: 2 }, { $unset: { b: '' } }, { a: 1 }],
  ['$inc increments and creates', { n: 1 }, { $inc: { n: 2, m: -1 } }, { n: 3, m: -1 }],
  ['$inc with a float', { n: 1 }, { $inc: { n: 0.5 } }, { n: 1.5 }],
  ['$mul multiplies and creates zero', { n: 3 }, { $mul: { n: 4, z: 5 } }, { n: 12, z: 0 }],
  ['$min keeps the smaller value', { n: 5 }, { $min: { n: 3 } }, { n: 3 }],
  ['$max keeps the larger value', { n: 5 }, { $max: { n: 3 } }, { n: 5 }],
  ['$rename moves a field', { a: 1, b: 2 }, { $rename: { a: 'c' } }, { b: 2, c: 1 }],
  ['$push appends', { arr: [1] }, { $push: { arr: 2 } }, { arr: [1, 2] }],
  ['$push creates the array', {}, { $push: { arr: 'x' } }, { arr: ['x'] }],
  [
    '$push with $each, $sort and $slice',
    { arr: [5, 1] },
    { $push: { arr: { $each: [3, 9], $sort: 1, $slice: 3 } } },
    { arr: [1, 3, 5] },
  ],
  [
    '$push with $position',
    { arr: [1, 2] },
    { $push: { arr: { $each: [0], $position: 0 } } },
    { arr: [0, 1, 2] },
  ],
  ['$addToSet skips duplicates', { arr: [1, 2] }, { $addToSet: { arr: 2 } }, { arr: [1, 2] }],
  ['$addToSet with $each', { arr: [1] }, { $addToSet: { arr: { $each: [1, 2, 3] } } }, { arr: [1, 2, 3] }],
  ['$pop removes the last element', { arr: [1, 2, 3] }, { $pop: { arr: 1 } }, { arr: [1, 2] }],
  ['$pop -1 removes the first element', { arr: [1, 2, 3] }, { $pop: { arr: -1 } }, { arr: [2, 3] }],
  ['$pull by value', { arr: [1, 2, 1, 3] }, { $pull: { arr: 1 } }, { arr: [2, 3] }],
  ['$pull by condition', { arr: [1, 5, 10] }, { $pull: { arr: { $gte: 5 } } }, { arr: [1] }],
  [
    '$pull documents by match',
    { arr: [{ k: 1 }, { k: 2 }] },
    { $pull: { arr: { k: 2 } } },
    { arr: [{ k: 1 }] },
  ],
  // pull_node.cpp: a regex condition is matched against each element (WrappedObjectMatcher).
  ['$pull by regex', { arr: ['xa', 'ya', 5] }, { $pull: { arr: /^x/ } }, { arr: ['ya', 5] }],
  ['$pullAll', { arr: [1, 2, 3, 2] }, { $pullAll: { arr: [2, 3] } }, { arr: [1] }],
  ['$[] updates every element', { arr: [1, 2] }, { $inc: { 'arr.$[]': 10 } }, { arr: [11, 12] }],
  ['$bit and', { n: 13 }, { $bit: { n: { and: 10 } } }, { n: 8 }],
  ['$bit or then xor, in order', { n: 12 }, { $bit: { n: { or: 1, xor: 4 } } }, { n: 9 }],
  ['$bit on a missing field starts from 0', {}, { $bit: { n: { or: 5 } } }, { n: 5 }],
  [
    '$push with a negative $position inserts before the last elements',
    { arr: [1, 2, 3] },
    { $push: { arr: { $each: [9, 8], $position: -1 } } },
    { arr: [1, 2, 9, 8, 3] },
  ],
  [
    '$push sorts before it slices, whatever the order of the modifiers',
    { arr: [5, 1] },
    { $push: { arr: { $slice: -2, $sort: -1, $each: [3] } } },
    { arr: [3, 1] },
  ],
  [
    '$push $sort orders elements of different types in BSON order',
    { arr: [3, 'b', null, { x: 1 }, 'a', true, 1.5] },
    { $push: { arr: { $each: [], $sort: 1 } } },
    { arr: [null, 1.5, 3, 'a', 'b', { x: 1 }, true] },
  ],
  [
    '$push $sort by an embedded field (an array field sorts by its largest element descending)',
    { arr: [{ s: 3 }, { s: 1 }, { s: [0, 5] }] },
    { $push: { arr: { $each: [{ s: 2 }], $sort: { s: -1 } } } },
    { arr: [{ s: [0, 5] }, { s: 3 }, { s: 2 }, { s: 1 }] },
  ],
  [
    '$push $slice 0 empties the array',
    { arr: [1, 2] },
    { $push: { arr: { $each: [3], $slice: 0 } } },
    { arr: [] },
  ],
  [
    'several operators at once',
    { a: 1, b: [1] },
    { $set: { a: 5 }, $push: { b: 2 }, $inc: { c: 1 } },
    { a: 5, b: [1, 2], c: 1 },
  ],
  ['replacement keeps _id and drops other fields', { a: 1, b: 2 }, { c: 3 }, { c: 3 }],
  [
    'pipeline update with $set and an expression',
    { a: 2, b: 3 },
    [{ $set: { sum: { $add: ['$a', '$b'] } } }],
    { a: 2, b: 3, sum: 5 },
  ],
  ['pipeline update with $unset', { a: 1, b: 2 }, [{ $unset: 'b' }], { a: 1 }],
  ['$set with an empty operand changes nothing', { a: 1 }, { $set: {} }, { a: 1 }],
];

/** [case name, stored document, update, expected error code] */
const errorCases: [string, Doc, Doc | Doc[], number][] = [
  ['$inc on a string is TypeMismatch (14)', { a: 'x' }, { $inc: { a: 1 } }, 14],
  ['$inc with a non-numeric argument is TypeMismatch (14)', { a: 1 }, { $inc: { a: 'one' } }, 14],
  ['$mul on a string is TypeMismatch (14)', { a: 'x' }, { $mul: { a: 2 } }, 14],
  ['$push onto a non-array is BadValue (2)', { a: 1 }, { $push: { a: 2 } }, 2],
  ['$addToSet onto a non-array is BadValue (2)', { a: 'x' }, { $addToSet: { a: 2 } }, 2],
  ['$pop on a non-array is TypeMismatch (14)', { a: 1 }, { $pop: { a: 1 } }, 14],
  ['$set on _id is ImmutableField (66)', { a: 1 }, { $set: { _id: 99 } }, 66],
  ['$unset on _id is ImmutableField (66)', { a: 1 }, { $unset: { _id: '' } }, 66],
  ['conflicting paths are ConflictingUpdateOperators (40)', { a: 1 }, { $set: { a: 1 }, $inc: { a: 1 } }, 40],
  [
    'parent/child path conflict is ConflictingUpdateOperators (40)',
    { a: { b: 1 } },
    { $set: { a: {} }, $unset: { 'a.b': '' } },
    40,
  ],
  ['an unknown operator is FailedToParse (9)', { a: 1 }, { $frobnicate: { a: 1 } }, 9],
  ['an unknown $push modifier is BadValue (2)', { a: [1] }, { $push: { a: { $each: [2], $foo: 1 } } }, 2],
  ['$push $each of a non-array is BadValue (2)', { a: [1] }, { $push: { a: { $each: 2 } } }, 2],
  [
    '$push $slice of a non-integer is BadValue (2)',
    { a: [1] },
    { $push: { a: { $each: [2], $slice: 1.5 } } },
    2,
  ],
  ['$push $sort of 2 is BadValue (2)', { a: [1] }, { $push: { a: { $each: [2], $sort: 2 } } }, 2],
  ['$bit on a double is BadValue (2)', { n: 2.5 }, { $bit: { n: { or: 1 } } }, 2],
  ['$bit with a double operand is BadValue (2)', { n: 2 }, { $bit: { n: { or: 1.5 } } }, 2],
  ['$bit with an unknown operation is BadValue (2)', { n: 2 }, { $bit: { n: { nand: 1 } } }, 2],
];

describe.each(drivers)('update conformance ($name)', (driver) => {
  const t = connect(driver, 'update');
  let n = 0;
  const fresh = async (doc: Doc) => {
    const coll = t.db.collection<any>(`u${n++}`);
    const { insertedId } = await coll.insertOne({ ...doc });
    return { coll, id: insertedId };
  };

  it.each(updateCases)('update: %s', async (_name, stored, update, expected) => {
    const { coll, id } = await fresh(stored);
    const replacement = !Array.isArray(update) && !Object.keys(update)[0]!.startsWith('$');
    const result = replacement
      ? await coll.replaceOne({ _id: id }, update)
      : await coll.updateOne({ _id: id }, update as Doc);
    expect(result.matchedCount).toBe(1);
    const doc = await coll.findOne({ _id: id }, { projection: { _id: 0 } });
    expect(doc).toEqual(expected);
    const full = await coll.findOne({ _id: id });
    expect(Object.keys(full)[0]).toBe('_id');
  });

  it.each(errorCases)('update error: %s', async (_name, stored, update, code) => {
    const { coll, id } = await fresh(stored);
    const error = await failure(() => coll.updateOne({ _id: id }, update));
    expect(error['code']).toBe(code);
    expect(await coll.findOne({ _id: id }, { projection: { _id: 0 } })).toEqual(stored);
  });

  it('$push and $bit keep int64s and sort strings under the update collation', async () => {
    const { Long } = driver.bson;
    const big = Long.fromString('9007199254740993');
    const { coll, id } = await fresh({
      longs: [Long.fromNumber(2), big],
      n: Long.fromNumber(6),
      s: ['b', 'A', 'a'],
    });
    const pushLong: Doc = {
      $push: {
        longs: { $each: [Long.fromString('9007199254740992')], $sort: -1, $slice: Long.fromNumber(2) },
      },
    };
    await coll.updateOne({ _id: id }, pushLong);
    await coll.updateOne({ _id: id }, { $bit: { n: { and: 3 } } });
    const pushString: Doc = { $push: { s: { $each: ['B'], $sort: 1 } } };
    await coll.updateOne({ _id: id }, pushString, { collation: { locale: 'en' } });
    const doc = (await coll.findOne({ _id: id }, { promoteLongs: false }))!;
    expect(doc['longs'].map(String)).toEqual(['9007199254740993', '9007199254740992']);
    expect([Long.isLong(doc['n']), String(doc['n'])]).toEqual([true, '2']);
    expect(doc['s']).toEqual(['a', 'A', 'b', 'B']);
  });

  it("$push, $addToSet and $bit on positional paths keep MongoDB's order and types", async () => {
    const { Long } = driver.bson;
    const { coll, id } = await fresh({
      items: [
        { k: 1, tags: ['b', 'A'], n: Long.fromNumber(6) },
        { k: 2, tags: ['c'], n: 3 },
      ],
    });
    const update: Doc = {
      $push: { 'items.$[x].tags': { $each: ['a'], $sort: 1 } },
      $bit: { 'items.$[].n': { and: 3 } },
    };
    await coll.updateOne({ _id: id }, update, { arrayFilters: [{ 'x.k': 1 }], collation: { locale: 'en' } });
    await coll.updateOne({ _id: id, 'items.k': 2 }, { $addToSet: { 'items.$.tags': 'c' } });
    const doc = (await coll.findOne({ _id: id }, { promoteLongs: false }))!;
    expect(doc['items'][0]['tags']).toEqual(['a', 'A', 'b']);
    expect([Long.isLong(doc['items'][0]['n']), String(doc['items'][0]['n'])]).toEqual([true, '2']);
    expect(doc['items'][1]).toEqual({ k: 2, tags: ['c'], n: 3 });
    const scalar = await failure(() =>
      coll.updateOne({ _id: id, 'items.k': 2 }, { $push: { 'items.$.k': 1 } } as Doc),
    );
    expect(scalar['code']).toBe(2);
  });

  it('$currentDate sets a date or a timestamp', async () => {
    const { coll, id } = await fresh({ a: 1 });
    const before = Date.now();
    const stamp: Doc = { $currentDate: { at: true, on: { $type: 'date' }, ts: { $type: 'timestamp' } } };
    await coll.updateOne({ _id: id }, stamp);
    const doc = (await coll.findOne({ _id: id }))!;
    expect(doc['at']).toBeInstanceOf(Date);
    expect((doc['on'] as Date).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(doc['ts']._bsontype).toBe('Timestamp');
    expect(Number(doc['ts'].high)).toBeGreaterThanOrEqual(Math.floor(before / 1000) - 1);
    const bad = await failure(() =>
      coll.updateOne({ _id: id }, { $currentDate: { at: { $type: 'year' } } } as Doc),
    );
    expect(bad['code']).toBe(2);
  });

  it('refuses an array filter whose identifier the update does not use (9), even when nothing matches', async () => {
    const { coll } = await fresh({ a: [1, 2] });
    const unused = await failure(() =>
      coll.updateOne({ nothing: 1 }, { $set: { b: 1 } }, { arrayFilters: [{ 'x.k': 1 }] }),
    );
    expect(unused['code']).toBe(9);
    const used = await coll.updateMany({}, { $set: { 'a.$[x]': 0 } }, { arrayFilters: [{ x: { $gt: 1 } }] });
    expect(used.modifiedCount).toBe(1);
  });

  it('replacing with a different _id is ImmutableField (66)', async () => {
    const { coll, id } = await fresh({ a: 1 });
    const error = await failure(() => coll.replaceOne({ _id: id }, { _id: 'other', a: 2 }));
    expect(error['code']).toBe(66);
  });

  it('updates array elements with the positional $ operator', async () => {
    const { coll, id } = await fresh({
      items: [
        { k: 'a', n: 1 },
        { k: 'b', n: 2 },
      ],
    });
    await coll.updateOne({ _id: id, 'items.k': 'b' }, { $set: { 'items.$.n': 20 } });
    expect((await coll.findOne({ _id: id }))!['items']).toEqual([
      { k: 'a', n: 1 },
      { k: 'b', n: 20 },
    ]);
  });

  it('updates array elements selected by arrayFilters', async () => {
    const { coll, id } = await fresh({ grades: [80, 95, 100, 60] });
    await coll.updateOne(
      { _id: id },
      { $set: { 'grades.$[g]': 0 } },
      { arrayFilters: [{ g: { $gte: 95 } }] },
    );
    expect((await coll.findOne({ _id: id }))!['grades']).toEqual([80, 0, 0, 60]);
  });

  it('upsert seeds the new document from equality fields and applies $setOnInsert', async () => {
    const coll = t.db.collection<any>('upsert1');
    const r = await coll.updateOne(
      { email: 'a@x', 'profile.age': 30, score: { $gt: 1 } },
      { $set: { seen: true }, $setOnInsert: { created: 1 } },
      { upsert: true },
    );
    expect(r.upsertedCount).toBe(1);
    const doc = await coll.findOne({ _id: r.upsertedId! });
    expect(doc).toEqual({ _id: r.upsertedId, email: 'a@x', profile: { age: 30 }, seen: true, created: 1 });
  });

  it('upsert takes _id from the filter', async () => {
    const coll = t.db.collection<any>('upsert2');
    const r = await coll.updateOne({ _id: 'fixed' }, { $inc: { n: 1 } }, { upsert: true });
    expect(r.upsertedId).toBe('fixed');
    expect(await coll.findOne({ _id: 'fixed' })).toEqual({ _id: 'fixed', n: 1 });
  });

  it('upsert with $eq and $and seeds fields, $or does not', async () => {
    const coll = t.db.collection<any>('upsert3');
    const r = await coll.updateOne(
      { $and: [{ a: { $eq: 1 } }, { b: 2 }], $or: [{ c: 1 }, { c: 2 }] },
      { $set: { d: 4 } },
      { upsert: true },
    );
    expect(await coll.findOne({ _id: r.upsertedId! }, { projection: { _id: 0 } })).toEqual({
      a: 1,
      b: 2,
      d: 4,
    });
  });

  it('upsert with a replacement document', async () => {
    const coll = t.db.collection<any>('upsert4');
    const r = await coll.replaceOne({ k: 'x' }, { k: 'x', v: 1 }, { upsert: true });
    expect(r.upsertedCount).toBe(1);
    expect(await coll.countDocuments({ k: 'x', v: 1 })).toBe(1);
  });

  it('$setOnInsert is ignored when the upsert matches', async () => {
    const { coll, id } = await fresh({ k: 1 });
    await coll.updateOne({ _id: id }, { $setOnInsert: { x: 1 }, $set: { y: 2 } }, { upsert: true });
    expect(await coll.findOne({ _id: id }, { projection: { _id: 0 } })).toEqual({ k: 1, y: 2 });
  });

  it('updateMany reports matched and modified counts', async () => {
    const coll = t.db.collection<any>('many');
    await coll.insertMany([
      { g: 1, v: 1 },
      { g: 1, v: 2 },
      { g: 1, v: 2 },
      { g: 2, v: 2 },
    ]);
    const r = await coll.updateMany({ g: 1 }, { $set: { v: 2 } });
    expect(r).toMatchObject({ matchedCount: 3, modifiedCount: 1 });
  });

  it('rejects a replacement document in updateMany', async () => {
    const coll = t.db.collection<any>('many2');
    await coll.insertOne({ a: 1 });
    await expect(coll.updateMany({}, { b: 1 })).rejects.toBeDefined();
  });

  it('bulkWrite mixes inserts, updates and deletes', async () => {
    const coll = t.db.collection<any>('bulk');
    const r = await coll.bulkWrite([
      { insertOne: { document: { _id: 1, n: 1 } } },
      { insertOne: { document: { _id: 2, n: 2 } } },
      { updateOne: { filter: { _id: 1 }, update: { $inc: { n: 10 } } } },
      { deleteOne: { filter: { _id: 2 } } },
      { replaceOne: { filter: { _id: 3 }, replacement: { n: 3 }, upsert: true } },
    ]);
    expect(r).toMatchObject({ insertedCount: 2, modifiedCount: 1, deletedCount: 1, upsertedCount: 1 });
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, n: 11 },
      { _id: 3, n: 3 },
    ]);
  });

  it('deleteOne removes one and deleteMany removes all matches', async () => {
    const coll = t.db.collection<any>('deletes');
    await coll.insertMany([{ k: 1 }, { k: 1 }, { k: 1 }, { k: 2 }]);
    expect((await coll.deleteOne({ k: 1 })).deletedCount).toBe(1);
    expect((await coll.deleteMany({ k: 1 })).deletedCount).toBe(2);
    expect((await coll.deleteMany({})).deletedCount).toBe(1);
  });

  it('findOneAndUpdate with fields, sort and new', async () => {
    const coll = t.db.collection<any>('fam');
    await coll.insertMany([
      { q: 1, n: 1 },
      { q: 1, n: 5 },
    ]);
    const r = await coll.findOneAndUpdate(
      { q: 1 },
      { $inc: { n: 1 } },
      { sort: { n: -1 }, projection: { _id: 0, n: 1 }, returnDocument: 'after' },
    );
    expect(r).toEqual({ n: 6 });
  });

  it('rejects an _id of array type with InvalidIdField (53)', async () => {
    const coll = t.db.collection<any>('badid');
    const error = await failure(() => coll.insertOne({ _id: [1, 2] as never }));
    expect(error['code']).toBe(53);
  });
});

describe.each(drivers)('update path errors ($name)', (driver) => {
  const t = connect(driver, 'upath');

  it('creating a field under a scalar is PathNotViable (28)', async () => {
    const coll = t.db.collection<any>('pnv');
    const { insertedId } = await coll.insertOne({ a: 5 });
    const error = await failure(() => coll.updateOne({ _id: insertedId }, { $set: { 'a.b': 1 } }));
    expect(error['code']).toBe(28);
  });

  it('$rename of _id is rejected', async () => {
    const coll = t.db.collection<any>('renid');
    const { insertedId } = await coll.insertOne({ a: 5 });
    const error = await failure(() => coll.updateOne({ _id: insertedId }, { $rename: { _id: 'x' } }));
    expect(typeof error['code']).toBe('number');
    expect(await coll.countDocuments({ _id: insertedId })).toBe(1);
  });

  it('compound index keys on two arrays are CannotIndexParallelArrays (171)', async () => {
    const coll = t.db.collection<any>('parallel');
    await coll.createIndex({ a: 1, b: 1 });
    const error = await failure(() => coll.insertOne({ a: [1, 2], b: [3, 4] }));
    expect(error['code']).toBe(171);
  });
});
