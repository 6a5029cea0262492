import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const people: Doc[] = [
  {
    _id: 1,
    name: 'Ann',
    age: 31,
    tags: ['a', 'b'],
    address: { city: 'Oslo', zip: '0150' },
    score: 9.5,
    active: true,
  },
  { _id: 2, name: 'bob', age: 25, tags: ['b'], address: { city: 'Rome' }, score: 7, active: false },
  {
    _id: 3,
    name: 'Cid',
    age: 40,
    tags: [],
    items: [
      { k: 'x', v: 1 },
      { k: 'y', v: 5 },
    ],
    score: null,
  },
  { _id: 4, name: 'dan', age: 25, nested: [[1, 2], [3]] },
  {
    _id: 5,
    name: 'Eve',
    age: 52,
    tags: ['c', 'a', 'b'],
    items: [{ k: 'x', v: 9 }],
    active: true,
    note: 'line one\nline two',
  },
];

/** [case name, filter, expected _ids in natural order] */
const filterCases: [string, Doc, number[]][] = [
  ['empty filter matches all', {}, [1, 2, 3, 4, 5]],
  ['implicit equality on a scalar', { name: 'bob' }, [2]],
  ['$eq', { age: { $eq: 25 } }, [2, 4]],
  ['$ne includes documents missing the field', { active: { $ne: true } }, [2, 3, 4]],
  ['$gt', { age: { $gt: 31 } }, [3, 5]],
  ['$gte', { age: { $gte: 31 } }, [1, 3, 5]],
  ['$lt', { age: { $lt: 31 } }, [2, 4]],
  ['$lte', { age: { $lte: 31 } }, [1, 2, 4]],
  ['$gt does not cross types (string vs number)', { name: { $gt: 5 } }, []],
  ['$in', { age: { $in: [25, 52] } }, [2, 4, 5]],
  ['$in with null matches missing fields', { active: { $in: [null] } }, [3, 4]],
  ['$nin', { age: { $nin: [25, 52] } }, [1, 3]],
  ['$in with a regex', { name: { $in: [/^a/i, 'Cid'] } }, [1, 3]],
  ['null equality matches null and missing', { score: null }, [3, 4, 5]],
  ['$exists true', { items: { $exists: true } }, [3, 5]],
  ['$exists false', { tags: { $exists: false } }, [4]],
  ['dotted path into an embedded document', { 'address.city': 'Rome' }, [2]],
  ['dotted path through an array of documents', { 'items.k': 'y' }, [3]],
  ['array contains a value', { tags: 'a' }, [1, 5]],
  ['whole-array equality is order sensitive', { tags: ['a', 'b'] }, [1]],
  ['array index path', { 'tags.0': 'c' }, [5]],
  ['$all', { tags: { $all: ['a', 'b'] } }, [1, 5]],
  ['$size', { tags: { $size: 1 } }, [2]],
  ['$elemMatch on documents', { items: { $elemMatch: { k: 'x', v: { $gt: 5 } } } }, [5]],
  ['$elemMatch on scalars', { tags: { $elemMatch: { $gte: 'b', $lt: 'c' } } }, [1, 2, 5]],
  ['$and', { $and: [{ age: { $gt: 20 } }, { age: { $lt: 35 } }] }, [1, 2, 4]],
  ['$or', { $or: [{ name: 'Ann' }, { age: 40 }] }, [1, 3]],
  ['$nor', { $nor: [{ age: 25 }, { active: true }] }, [3]],
  ['$not with an operator', { age: { $not: { $gt: 30 } } }, [2, 4]],
  ['$not with a regex', { name: { $not: /^[a-d]/ } }, [1, 3, 5]],
  ['$regex string with $options i', { name: { $regex: '^b', $options: 'i' } }, [2]],
  ['$regex is case sensitive by default', { name: { $regex: '^b' } }, [2]],
  ['regex literal', { name: /e$/ }, [5]],
  ['$regex with the m option anchors lines', { note: { $regex: '^line two$', $options: 'm' } }, [5]],
  ['$regex with the s option lets dot match newlines', { note: { $regex: 'one.line', $options: 's' } }, [5]],
  [
    '$regex with the x option ignores whitespace and comments',
    { name: { $regex: 'b o b # a comment', $options: 'x' } },
    [2],
  ],
  ['$mod', { age: { $mod: [5, 0] } }, [2, 3, 4]],
  ['$expr comparing two fields', { $expr: { $gt: ['$age', 30] } }, [1, 3, 5]],
  ['$type by alias string', { name: { $type: 'string' } }, [1, 2, 3, 4, 5]],
  ['$type double', { score: { $type: 'double' } }, [1]],
  ['$type int by number 16', { age: { $type: 16 } }, [1, 2, 3, 4, 5]],
  ['$type null', { score: { $type: 'null' } }, [3]],
  ['$type array', { tags: { $type: 'array' } }, [1, 2, 3, 5]],
  ['$type object by number 3', { address: { $type: 3 } }, [1, 2]],
  ['$type bool by number 8', { active: { $type: 8 } }, [1, 2, 5]],
  ['$type number alias', { score: { $type: 'number' } }, [1, 2]],
  ['$type with several types', { score: { $type: ['null', 'int'] } }, [2, 3]],
  ['nested arrays match by element array', { nested: [3] }, [4]],
  ['embedded document equality', { address: { city: 'Rome' } }, [2]],
  // Documents compare pair by pair in stored order (manual, "Comparison/Sort Order", Objects).
  ['embedded document equality is field order sensitive', { address: { zip: '0150', city: 'Oslo' } }, []],
  ['$in with a document is field order sensitive', { address: { $in: [{ zip: '0150', city: 'Oslo' }] } }, []],
  ['$in with a document in stored order', { address: { $in: [{ city: 'Oslo', zip: '0150' }, 1] } }, [1]],
  [
    '$ne with a document is field order sensitive',
    { address: { $ne: { zip: '0150', city: 'Oslo' } } },
    [1, 2, 3, 4, 5],
  ],
  ['$eq with a document inside an array', { items: { $eq: { k: 'x', v: 9 } } }, [5]],
  ['$eq with a document in another order', { items: { $eq: { v: 9, k: 'x' } } }, []],
  // An array equals an array whose elements compare equal, documents inside field by field in order.
  ['an array of documents in stored order', { items: [{ k: 'x', v: 9 }] }, [5]],
  ['an array of documents in another order', { items: [{ v: 9, k: 'x' }] }, []],
];

describe.each(drivers)('query conformance ($name)', (driver) => {
  const t = connect(driver, 'query');
  const seeded = async () => {
    const coll = t.db.collection<any>('people');
    if ((await coll.estimatedDocumentCount()) === 0) await coll.insertMany(people.map((p) => ({ ...p })));
    return coll;
  };

  it.each(filterCases)('filter: %s', async (_name, filter, ids) => {
    const coll = await seeded();
    const docs = await coll.find(filter).sort({ _id: 1 }).toArray();
    expect(docs.map((d) => d['_id'])).toEqual(ids);
    expect(await coll.countDocuments(filter)).toBe(ids.length);
  });

  it('rejects an unknown query operator with BadValue (2)', async () => {
    const coll = await seeded();
    await expect(coll.find({ age: { $bogus: 1 } }).toArray()).rejects.toMatchObject({ code: 2 });
  });

  it('rejects an unknown $type alias with BadValue (2)', async () => {
    const coll = await seeded();
    await expect(coll.find({ age: { $type: 'nonsense' } }).toArray()).rejects.toMatchObject({ code: 2 });
  });

  it('matches $type objectId, date, binData, decimal and long with BSON values', async () => {
    const { ObjectId, Binary, Decimal128, Long } = driver.bson;
    const coll = t.db.collection<any>('types');
    await coll.insertMany([
      { _id: 1, v: new ObjectId() },
      { _id: 2, v: new Date() },
      { _id: 3, v: new Binary(Buffer.from('hi')) },
      { _id: 4, v: Decimal128.fromString('1.5') },
      { _id: 5, v: Long.fromString('9007199254740993') },
      { _id: 6, v: 'text' },
      { _id: 7, v: /re/ },
    ]);
    const ids = async (type: unknown) =>
      (await coll.find({ v: { $type: type as never } }).toArray()).map((d) => d['_id']);
    expect(await ids('objectId')).toEqual([1]);
    expect(await ids(7)).toEqual([1]);
    expect(await ids('date')).toEqual([2]);
    expect(await ids(9)).toEqual([2]);
    expect(await ids('binData')).toEqual([3]);
    expect(await ids('decimal')).toEqual([4]);
    expect(await ids('long')).toEqual([5]);
    expect(await ids('regex')).toEqual([7]);
    expect(await ids('number')).toEqual([4, 5]);
  });

  it('sorts ascending and descending on several keys, missing values first', async () => {
    const coll = await seeded();
    const docs = await coll.find({}).sort({ age: -1, name: 1 }).toArray();
    expect(docs.map((d) => d['_id'])).toEqual([5, 3, 1, 2, 4]);
    const byScore = await coll.find({}).sort({ score: 1, _id: 1 }).toArray();
    expect(byScore.map((d) => d['_id'])).toEqual([3, 4, 5, 2, 1]);
  });

  it('sorts strings by binary order without collation', async () => {
    const coll = await seeded();
    const docs = await coll.find({}).sort({ name: 1 }).toArray();
    expect(docs.map((d) => d['name'])).toEqual(['Ann', 'Cid', 'Eve', 'bob', 'dan']);
  });

  it('applies skip and limit after sort', async () => {
    const coll = await seeded();
    const docs = await coll.find({}).sort({ age: 1, _id: 1 }).skip(1).limit(2).toArray();
    expect(docs.map((d) => d['_id'])).toEqual([4, 1]);
  });

  it('projects included fields (with _id by default)', async () => {
    const coll = await seeded();
    expect(await coll.findOne({ _id: 1 }, { projection: { name: 1 } })).toEqual({ _id: 1, name: 'Ann' });
  });

  it('projects excluded fields', async () => {
    const coll = await seeded();
    const doc = await coll.findOne({ _id: 2 }, { projection: { address: 0, tags: 0 } });
    expect(doc).toEqual({ _id: 2, name: 'bob', age: 25, score: 7, active: false });
  });

  it('projects dotted paths and _id: 0', async () => {
    const coll = await seeded();
    expect(await coll.findOne({ _id: 1 }, { projection: { _id: 0, 'address.city': 1 } })).toEqual({
      address: { city: 'Oslo' },
    });
  });

  it('projects with $slice and $elemMatch', async () => {
    const coll = await seeded();
    expect(
      await coll.findOne({ _id: 5 }, { projection: { tags: { $slice: 2 }, _id: 0, name: 1 } }),
    ).toMatchObject({ tags: ['c', 'a'] });
    expect(await coll.findOne({ _id: 3 }, { projection: { items: { $elemMatch: { k: 'y' } } } })).toEqual({
      _id: 3,
      items: [{ k: 'y', v: 5 }],
    });
  });

  it('rejects a projection mixing inclusion and exclusion', async () => {
    const coll = await seeded();
    await expect(coll.findOne({}, { projection: { name: 1, age: 0 } })).rejects.toMatchObject({
      code: 31254,
      message: expect.stringContaining('Cannot do exclusion on field age in inclusion projection'),
    });
    await expect(coll.findOne({}, { projection: { age: 0, name: 1 } })).rejects.toMatchObject({
      code: 31253,
      message: expect.stringContaining('Cannot do inclusion on field name in exclusion projection'),
    });
    expect(await coll.findOne({ _id: 1 }, { projection: { name: 1, _id: 0 } })).toEqual({ name: 'Ann' });
  });

  it('matches with a case-insensitive collation (strength 2)', async () => {
    const coll = await seeded();
    const docs = await coll.find({ name: 'BOB' }, { collation: { locale: 'en', strength: 2 } }).toArray();
    expect(docs.map((d) => d['_id'])).toEqual([2]);
  });

  it('compares ranges under a collation', async () => {
    const coll = await seeded();
    const docs = await coll
      .find({ name: { $gte: 'c', $lt: 'E' } }, { collation: { locale: 'en', strength: 2 } })
      .sort({ _id: 1 })
      .toArray();
    expect(docs.map((d) => d['_id'])).toEqual([3, 4]);
  });

  it('sorts case-insensitively under a collation', async () => {
    const coll = await seeded();
    const docs = await coll
      .find({}, { collation: { locale: 'en', strength: 2 } })
      .sort({ name: 1 })
      .toArray();
    expect(docs.map((d) => d['name'])).toEqual(['Ann', 'bob', 'Cid', 'dan', 'Eve']);
  });

  it('ignores diacritics at strength 1 and not at strength 2', async () => {
    const coll = t.db.collection<any>('accents');
    await coll.insertMany([{ w: 'café' }, { w: 'cafe' }, { w: 'CAFE' }]);
    expect(await coll.countDocuments({ w: 'cafe' }, { collation: { locale: 'fr', strength: 1 } })).toBe(3);
    expect(await coll.countDocuments({ w: 'cafe' }, { collation: { locale: 'fr', strength: 2 } })).toBe(2);
    expect(await coll.countDocuments({ w: 'cafe' })).toBe(1);
  });

  it('orders numbers inside strings with numericOrdering', async () => {
    const coll = t.db.collection<any>('numeric');
    await coll.insertMany([{ v: '10' }, { v: '9' }, { v: '100' }]);
    const docs = await coll
      .find({}, { collation: { locale: 'en', numericOrdering: true } })
      .sort({ v: 1 })
      .toArray();
    expect(docs.map((d) => d['v'])).toEqual(['9', '10', '100']);
    const plain = await coll.find({}).sort({ v: 1 }).toArray();
    expect(plain.map((d) => d['v'])).toEqual(['10', '100', '9']);
  });

  it('uses a collection default collation', async () => {
    await t.db.createCollection('ci', { collation: { locale: 'en', strength: 2 } });
    const coll = t.db.collection<any>('ci');
    await coll.insertMany([{ n: 'Zed' }, { n: 'zed' }, { n: 'amy' }]);
    expect(await coll.countDocuments({ n: 'ZED' })).toBe(2);
  });

  it('sorts by a locale variant (German phonebook: ä as ae)', async () => {
    const coll = t.db.collection<any>('phonebook');
    await coll.insertMany([{ w: 'af' }, { w: 'ä' }, { w: 'ae' }, { w: 'a' }]);
    const sorted = async (locale: string) =>
      (await coll.find({}, { collation: { locale } }).sort({ w: 1 }).toArray()).map((d) => d['w']);
    expect(await sorted('de')).toEqual(['a', 'ä', 'ae', 'af']);
    expect(await sorted('de@collation=phonebook')).toEqual(['a', 'ae', 'ä', 'af']);
  });

  it('refuses a malformed collation instead of falling back to another language', async () => {
    const coll = await seeded();
    const find = (collation: unknown) => failure(() => coll.find({}, { collation } as never).toArray());
    const unknown = await find({ locale: 'zz_nope' });
    expect([unknown['code'], unknown['errmsg']]).toEqual([
      2,
      `Field 'locale' is invalid in: { locale: "zz_nope" }`,
    ]);
    const cased = await find({ locale: 'EN', strength: 2 });
    expect(cased['errmsg']).toBe(
      `Field 'locale' is invalid in: { locale: "EN", strength: 2 }. Did you mean 'en'?`,
    );
    const strength = await find({ locale: 'en', strength: 6 });
    expect([strength['code'], strength['errmsg']]).toEqual([
      51024,
      "BSON field 'strength' value must be <= 5, actual value '6'",
    ]);
    expect((await find({ locale: 'en', bogus: 1 }))['code']).toBe(40415);
    expect((await find({ strength: 2 }))['code']).toBe(40414);
    expect((await find({ locale: 'en', caseFirst: 'sideways' }))['code']).toBe(2);
    expect((await find({ locale: 'en', caseLevel: 'yes' }))['code']).toBe(14);
    expect((await find({ locale: 1 }))['code']).toBe(14);
    const agg = await failure(() => coll.aggregate([], { collation: { locale: 'xx' } }).toArray());
    expect(agg['code']).toBe(2);
    expect((await failure(() => t.db.createCollection('bad_coll', { collation: {} as never })))['code']).toBe(
      40414,
    );
    const index = await failure(() => coll.createIndex({ name: 1 }, { collation: { locale: 'nope' } }));
    expect(index['code']).toBe(2);
    expect((await coll.listIndexes().toArray()).map((i) => i['name'])).toEqual(['_id_']);
    const update = await failure(() =>
      coll.updateOne({ _id: 1 }, { $set: { x: 1 } }, { collation: { locale: 'en', bogus: 1 } as never }),
    );
    expect(update['code']).toBe(40415);
    expect(await coll.countDocuments({ x: 1 })).toBe(0);
    // An empty collation on a query means none, as in MongoDB.
    expect(await coll.countDocuments({}, { collation: {} as never })).toBe(await coll.countDocuments());
  });

  it('refuses a sort direction other than 1 or -1 (15975) and a negative find limit or skip (51024)', async () => {
    const coll = await seeded();
    // The driver checks directions itself; the raw command reaches the server.
    const sort = await failure(() => t.db.command({ find: coll.collectionName, sort: { age: 2 } }));
    expect(sort['code']).toBe(15975);
    const limit = await failure(() => t.db.command({ find: coll.collectionName, limit: -1 }));
    expect([limit['code'], limit['errmsg']]).toEqual([
      51024,
      "BSON field 'limit' value must be >= 0, actual value '-1'",
    ]);
    expect((await failure(() => t.db.command({ find: coll.collectionName, skip: -2 })))['code']).toBe(51024);
    // The driver sends a negative limit as a positive one with singleBatch.
    expect(await coll.find({}).limit(-2).toArray()).toHaveLength(2);
  });

  it('tests bits of 64-bit integers and BinData only ($bitsAllSet, $bitsAnySet, $bitsAllClear, $bitsAnyClear)', async () => {
    const { Binary, Long, Double } = driver.bson;
    const coll = t.db.collection<any>('bits');
    await coll.insertMany([
      { _id: 1, v: 5 },
      { _id: 2, v: Long.fromString('-2') },
      { _id: 3, v: 5.5 },
      { _id: 4, v: new Binary(Buffer.from([0b101, 0b1])) },
      { _id: 5, v: [8, new Double(4)] },
      { _id: 6, v: 'five' },
    ]);
    const ids = async (filter: Doc) =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d['_id']);
    expect(await ids({ v: { $bitsAllSet: 5 } })).toEqual([1, 4]);
    expect(await ids({ v: { $bitsAllSet: [1, 63] } })).toEqual([2]);
    expect(await ids({ v: { $bitsAnySet: new Binary(Buffer.from([0b100])) } })).toEqual([1, 2, 4, 5]);
    expect(await ids({ v: { $bitsAllSet: [8] } })).toEqual([2, 4]);
    expect(await ids({ v: { $bitsAllClear: 1 } })).toEqual([2, 5]);
    expect(await ids({ v: { $bitsAnyClear: 3 } })).toEqual([1, 2, 4, 5]);
    // MongoDB 7.0's answer as recorded in FerretDB's integration suite (query_bitwise tests).
    const negative = await failure(() => coll.find({ v: { $bitsAllSet: -1 } }).toArray());
    expect(negative['code']).toBe(9);
    expect(negative['message']).toBe('Expected a non-negative number in: $bitsAllSet: -1');
  });

  it('a top-level $comment labels the query and matches everything', async () => {
    const coll = await seeded();
    expect(await coll.countDocuments({ $comment: 'who is bob', name: 'bob' })).toBe(1);
  });

  it('sorts by $natural: the stored order, or backwards', async () => {
    const coll = t.db.collection<any>('natural');
    await coll.insertMany([{ _id: 3 }, { _id: 1 }, { _id: 2 }]);
    const ids = async (direction: 1 | -1) =>
      (await coll.find({}).sort({ $natural: direction }).toArray()).map((d) => d['_id']);
    expect(await ids(1)).toEqual([3, 1, 2]);
    expect(await ids(-1)).toEqual([2, 1, 3]);
  });

  it('finds nothing in a missing collection', async () => {
    expect(await t.db.collection<any>('nope').find({}).toArray()).toEqual([]);
    expect(await t.db.collection<any>('nope').countDocuments()).toBe(0);
  });

  it('returns distinct values, unwinding arrays', async () => {
    const coll = await seeded();
    expect((await coll.distinct('tags')).sort()).toEqual(['a', 'b', 'c']);
    expect((await coll.distinct('age', { active: true })).sort()).toEqual([31, 52]);
    expect(await coll.distinct('address.city', { _id: 1 })).toEqual(['Oslo']);
  });
});

describe.each(drivers)('query variables and expressions ($name)', (driver) => {
  const t = connect(driver, 'qlet');

  it('find with let variables used in $expr', async () => {
    const coll = t.db.collection<any>('let');
    await coll.insertMany([
      { _id: 1, a: 5 },
      { _id: 2, a: 7 },
    ]);
    const docs = await coll.find({ $expr: { $gt: ['$a', '$$min'] } }, { let: { min: 6 } } as never).toArray();
    expect(docs.map((d) => d['_id'])).toEqual([2]);
  });

  it('updates with let variables', async () => {
    const coll = t.db.collection<any>('let_upd');
    await coll.insertMany([
      { _id: 1, a: 5 },
      { _id: 2, a: 7 },
    ]);
    await coll.updateMany({ $expr: { $eq: ['$a', '$$target'] } }, [{ $set: { hit: '$$flag' } }], {
      let: { target: 7, flag: 'yes' },
    });
    expect(await coll.find({ hit: 'yes' }).toArray()).toEqual([{ _id: 2, a: 7, hit: 'yes' }]);
  });

  it('$in in an expression needs an array: 40081 naming what it found', async () => {
    const coll = t.db.collection<any>('exprin');
    await coll.insertMany([{ _id: 1, tags: ['a'] }, { _id: 2 }]);
    expect(await coll.countDocuments({ _id: 1, $expr: { $in: ['a', '$tags'] } })).toBe(1);
    const missing = await failure(() => coll.find({ $expr: { $in: ['a', '$tags'] } }).toArray());
    expect([missing['code'], missing['errmsg']]).toEqual([
      40081,
      '$in requires an array as a second argument, found: missing',
    ]);
    const agg = await failure(() => coll.aggregate([{ $project: { x: { $in: [1, 'str'] } } }]).toArray());
    expect([agg['code'], agg['errmsg']]).toEqual([
      40081,
      '$in requires an array as a second argument, found: string',
    ]);
  });

  it('rejects an invalid regular expression', async () => {
    const coll = t.db.collection<any>('badre');
    await coll.insertOne({ a: 'x' });
    const error = await failure(() => coll.find({ a: { $regex: '(' } }).toArray());
    expect(error['code']).toBeTypeOf('number');
  });

  it('projects the first matching array element with the positional $ projection', async () => {
    const coll = t.db.collection<any>('posproj');
    await coll.insertOne({
      _id: 1,
      name: 'x',
      items: [
        { k: 'a', v: 1 },
        { k: 'b', v: 2 },
        { k: 'b', v: 3 },
      ],
    });
    const doc = await coll.findOne({ 'items.k': 'b' }, { projection: { 'items.$': 1 } });
    expect(doc).toEqual({ _id: 1, items: [{ k: 'b', v: 2 }] });
    expect(Object.keys(doc)[0]).toBe('_id');
  });

  it('runs a collection-less aggregate with $documents', async () => {
    const out = await t.db.aggregate([{ $documents: [{ a: 1 }, { a: 2 }] }, { $match: { a: 2 } }]).toArray();
    expect(out).toEqual([{ a: 2 }]);
  });
});
