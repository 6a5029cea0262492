import { describe, expect, it } from 'vitest';
import { connect, drivers, external, failure } from '../helpers.js';

type Doc = Record<string, any>;

const orders: Doc[] = [
  { _id: 1, customer: 'ann', item: 'apple', qty: 5, price: 2, tags: ['fruit', 'red'] },
  { _id: 2, customer: 'bob', item: 'pear', qty: 2, price: 3, tags: ['fruit'] },
  { _id: 3, customer: 'ann', item: 'bread', qty: 1, price: 4, tags: [] },
  { _id: 4, customer: 'cid', item: 'apple', qty: 10, price: 2 },
];

/** [case name, pipeline, expected output] */
const pipelineCases: [string, Doc[], Doc[]][] = [
  [
    '$match + $project',
    [{ $match: { item: 'apple' } }, { $project: { _id: 0, customer: 1 } }],
    [{ customer: 'ann' }, { customer: 'cid' }],
  ],
  [
    '$group with $sum and $sort',
    [{ $group: { _id: '$customer', total: { $sum: '$qty' } } }, { $sort: { _id: 1 } }],
    [
      { _id: 'ann', total: 6 },
      { _id: 'bob', total: 2 },
      { _id: 'cid', total: 10 },
    ],
  ],
  [
    '$group with _id null and $avg',
    [{ $group: { _id: null, avg: { $avg: '$price' } } }],
    [{ _id: null, avg: 2.75 }],
  ],
  [
    '$group with $push and $addToSet',
    [
      { $match: { customer: 'ann' } },
      { $group: { _id: '$customer', items: { $push: '$item' }, n: { $addToSet: '$price' } } },
      { $project: { items: 1, n: { $size: '$n' } } },
    ],
    [{ _id: 'ann', items: ['apple', 'bread'], n: 2 }],
  ],
  ['$count', [{ $match: { price: 2 } }, { $count: 'n' }], [{ n: 2 }]],
  [
    '$skip and $limit',
    [{ $sort: { _id: 1 } }, { $skip: 1 }, { $limit: 2 }, { $project: { _id: 1 } }],
    [{ _id: 2 }, { _id: 3 }],
  ],
  [
    '$unwind',
    [{ $match: { _id: 1 } }, { $unwind: '$tags' }, { $project: { _id: 0, tags: 1 } }],
    [{ tags: 'fruit' }, { tags: 'red' }],
  ],
  [
    '$unwind with includeArrayIndex',
    [
      { $match: { _id: 1 } },
      { $unwind: { path: '$tags', includeArrayIndex: 'i' } },
      { $project: { _id: 0, i: 1 } },
    ],
    [{ i: 0 }, { i: 1 }],
  ],
  ['$unwind drops empty and missing arrays by default', [{ $unwind: '$tags' }, { $count: 'n' }], [{ n: 3 }]],
  [
    '$unwind with preserveNullAndEmptyArrays',
    [{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true } }, { $count: 'n' }],
    [{ n: 5 }],
  ],
  [
    '$addFields with arithmetic',
    [
      { $match: { _id: 2 } },
      { $addFields: { total: { $multiply: ['$qty', '$price'] } } },
      { $project: { _id: 0, total: 1 } },
    ],
    [{ total: 6 }],
  ],
  [
    '$set and $unset stages',
    [{ $match: { _id: 3 } }, { $set: { x: 1 } }, { $unset: ['tags', 'qty', 'price', 'customer', 'item'] }],
    [{ _id: 3, x: 1 }],
  ],
  [
    '$replaceRoot',
    [{ $match: { _id: 2 } }, { $replaceRoot: { newRoot: { who: '$customer' } } }],
    [{ who: 'bob' }],
  ],
  ['$replaceWith', [{ $match: { _id: 2 } }, { $replaceWith: { what: '$item' } }], [{ what: 'pear' }]],
  ['$sortByCount', [{ $sortByCount: '$item' }, { $limit: 1 }], [{ _id: 'apple', count: 2 }]],
  [
    '$facet',
    [{ $facet: { apples: [{ $match: { item: 'apple' } }, { $count: 'n' }], all: [{ $count: 'n' }] } }],
    [{ apples: [{ n: 2 }], all: [{ n: 4 }] }],
  ],
  [
    '$bucket',
    [{ $bucket: { groupBy: '$qty', boundaries: [0, 5, 100], default: 'other' } }],
    [
      { _id: 0, count: 2 },
      { _id: 5, count: 2 },
    ],
  ],
  [
    '$cond and $ifNull expressions',
    [
      { $match: { _id: { $in: [3, 4] } } },
      {
        $project: { big: { $cond: [{ $gte: ['$qty', 5] }, 'yes', 'no'] }, t: { $ifNull: ['$tags', 'none'] } },
      },
    ],
    [
      { _id: 3, big: 'no', t: [] },
      { _id: 4, big: 'yes', t: 'none' },
    ],
  ],
  [
    'string expressions',
    [
      { $match: { _id: 1 } },
      { $project: { _id: 0, s: { $toUpper: { $concat: ['$customer', '-', '$item'] } } } },
    ],
    [{ s: 'ANN-APPLE' }],
  ],
];

describe.each(drivers)('aggregation conformance ($name)', (driver) => {
  const t = connect(driver, 'agg');
  const seeded = async () => {
    const coll = t.db.collection<any>('orders');
    if ((await coll.estimatedDocumentCount()) === 0) await coll.insertMany(orders.map((o) => ({ ...o })));
    return coll;
  };

  it.each(pipelineCases)('pipeline: %s', async (_name, pipeline, expected) => {
    const coll = await seeded();
    expect(await coll.aggregate(pipeline).toArray()).toEqual(expected);
  });

  it('does not let a pipeline change stored documents', async () => {
    const coll = await seeded();
    await coll
      .aggregate([{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true } }, { $set: { qty: 0 } }])
      .toArray();
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual(orders);
  });

  it('$lookup with localField/foreignField', async () => {
    const coll = await seeded();
    const customers = t.db.collection<any>('customers');
    await customers.insertMany([{ _id: 'ann', city: 'Oslo' } as Doc, { _id: 'bob', city: 'Rome' } as Doc]);
    const out = await coll
      .aggregate([
        { $match: { _id: { $in: [1, 2, 4] } } },
        { $lookup: { from: 'customers', localField: 'customer', foreignField: '_id', as: 'c' } },
        { $project: { c: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 1, c: [{ _id: 'ann', city: 'Oslo' }] },
      { _id: 2, c: [{ _id: 'bob', city: 'Rome' }] },
      { _id: 4, c: [] },
    ]);
  });

  it('$lookup with let and a pipeline', async () => {
    const coll = await seeded();
    const out = await coll
      .aggregate([
        { $match: { _id: 1 } },
        {
          $lookup: {
            from: 'orders',
            let: { it: '$item' },
            pipeline: [{ $match: { $expr: { $eq: ['$item', '$$it'] } } }, { $project: { _id: 1 } }],
            as: 'same',
          },
        },
        { $project: { same: 1 } },
      ])
      .toArray();
    expect(out).toEqual([{ _id: 1, same: [{ _id: 1 }, { _id: 4 }] }]);
  });

  it('$lookup joins numbers by value whatever their BSON type, and arrays by element', async () => {
    const { Decimal128, Long } = driver.bson;
    const accounts = t.db.collection<any>('accounts');
    await accounts.insertMany([
      { _id: 1, owner: Long.fromNumber(7) },
      { _id: 2, owner: 7.0 },
      { _id: 3, owner: Decimal128.fromString('7.00') },
      { _id: 4, owner: [8, 7] },
      { _id: 5, owner: 8 },
      { _id: 6 },
    ] as Doc[]);
    const people = t.db.collection<any>('people');
    await people.insertMany([
      { _id: 'p7', n: 7 },
      { _id: 'p8', n: Long.fromNumber(8) },
      { _id: 'pm' },
    ] as Doc[]);
    const out = await people
      .aggregate([
        { $lookup: { from: 'accounts', localField: 'n', foreignField: 'owner', as: 'a' } },
        { $project: { ids: '$a._id' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 'p7', ids: [1, 2, 3, 4] },
      { _id: 'p8', ids: [4, 5] },
      { _id: 'pm', ids: [6] },
    ]);
  });

  it('$lookup joins strings under the aggregation collation', async () => {
    const tags = t.db.collection<any>('tagnames');
    await tags.insertMany([
      { _id: 'Fruit', label: 'Fruit' },
      { _id: 'RED', label: 'Red' },
    ] as Doc[]);
    const coll = await seeded();
    const lookup = { $lookup: { from: 'tagnames', localField: 'tags', foreignField: '_id', as: 't' } };
    const pipeline = [{ $match: { _id: 1 } }, lookup, { $project: { labels: '$t.label' } }];
    expect(await coll.aggregate(pipeline).toArray()).toEqual([{ _id: 1, labels: [] }]);
    const folded = await coll.aggregate(pipeline, { collation: { locale: 'en', strength: 2 } }).toArray();
    expect(folded).toEqual([{ _id: 1, labels: ['Fruit', 'Red'] }]);
  });

  it('$lookup with localField/foreignField and a pipeline runs the pipeline on the joined documents', async () => {
    const coll = await seeded();
    const out = await coll
      .aggregate([
        { $match: { _id: { $in: [1, 2] } } },
        {
          $lookup: {
            from: 'orders',
            localField: 'customer',
            foreignField: 'customer',
            let: { mine: '$_id' },
            pipeline: [{ $match: { $expr: { $ne: ['$_id', '$$mine'] } } }, { $project: { _id: 1 } }],
            as: 'others',
          },
        },
        { $project: { others: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 1, others: [{ _id: 3 }] },
      { _id: 2, others: [] },
    ]);
  });

  it('$graphLookup follows references', async () => {
    const staff = t.db.collection<any>('staff');
    await staff.insertMany([
      { _id: 'a', boss: null } as Doc,
      { _id: 'b', boss: 'a' } as Doc,
      { _id: 'c', boss: 'b' } as Doc,
    ]);
    const out = await staff
      .aggregate([
        { $match: { _id: 'c' } },
        {
          $graphLookup: {
            from: 'staff',
            startWith: '$boss',
            connectFromField: 'boss',
            connectToField: '_id',
            as: 'chain',
          },
        },
        { $project: { n: { $size: '$chain' } } },
      ])
      .toArray();
    expect(out).toEqual([{ _id: 'c', n: 2 }]);
  });

  it('$graphLookup connects numbers by value, reports int64 depths and honours maxDepth and restrictSearchWithMatch', async () => {
    const { Long } = driver.bson;
    const nodes = t.db.collection<any>('nodes');
    await nodes.insertMany([
      { _id: 1, next: Long.fromNumber(2) },
      { _id: 2, next: [3, 4] },
      { _id: 3, next: 1, hidden: true },
      { _id: 4 },
    ] as Doc[]);
    const walk = async (options: Doc) => {
      const [row] = await nodes
        .aggregate(
          [
            { $match: { _id: 1 } },
            {
              $graphLookup: {
                from: 'nodes',
                startWith: '$next',
                connectFromField: 'next',
                connectToField: '_id',
                as: 'reached',
                depthField: 'depth',
                ...options,
              },
            },
            { $unwind: '$reached' },
            { $sort: { 'reached._id': 1 } },
            { $group: { _id: null, ids: { $push: '$reached._id' }, depths: { $push: '$reached.depth' } } },
          ],
          { promoteLongs: false },
        )
        .toArray();
      return {
        ids: row!['ids'],
        depths: (row!['depths'] as unknown[]).map((d) => [Long.isLong(d), Number(d)]),
      };
    };
    expect(await walk({})).toEqual({
      ids: [1, 2, 3, 4],
      depths: [
        [true, 2],
        [true, 0],
        [true, 1],
        [true, 1],
      ],
    });
    expect((await walk({ maxDepth: 0 }))['ids']).toEqual([2]);
    expect((await walk({ restrictSearchWithMatch: { hidden: { $ne: true } } }))['ids']).toEqual([2, 4]);
  });

  it("$top/$bottom/$topN/$bottomN and $minN/$maxN order by MongoDB's comparison and the collation", async () => {
    const { Decimal128, Long } = driver.bson;
    const scores = t.db.collection<any>('ranked');
    await scores.insertMany([
      { _id: 1, v: Long.fromNumber(5), name: 'b' },
      { _id: 2, v: 7, name: 'C' },
      { _id: 3, v: Decimal128.fromString('1.5'), name: 'a' },
      { _id: 4, v: null, name: 'D' },
    ] as Doc[]);
    const [row] = await scores
      .aggregate([
        {
          $group: {
            _id: null,
            top: { $top: { sortBy: { v: -1 }, output: '$_id' } },
            bottom: { $bottom: { sortBy: { v: -1 }, output: '$_id' } },
            topN: { $topN: { n: 2, sortBy: { v: -1 }, output: '$_id' } },
            bottomN: { $bottomN: { n: 2, sortBy: { v: -1 }, output: '$_id' } },
            maxN: { $maxN: { input: '$v', n: 2 } },
            minN: { $minN: { input: '$v', n: 2 } },
            maxName: { $max: '$name' },
          },
        },
      ])
      .toArray();
    expect(row).toEqual({
      _id: null,
      top: 2,
      bottom: 4,
      topN: [2, 1],
      bottomN: [3, 4],
      maxN: [7, 5],
      minN: [Decimal128.fromString('1.5'), 5],
      maxName: 'b',
    });
    const [folded] = await scores
      .aggregate(
        [
          {
            $group: {
              _id: null,
              maxName: { $max: '$name' },
              first: { $top: { sortBy: { name: 1 }, output: '$name' } },
            },
          },
        ],
        {
          collation: { locale: 'en' },
        },
      )
      .toArray();
    expect(folded).toEqual({ _id: null, maxName: 'D', first: 'a' });
    const [array] = await scores
      .aggregate([
        { $match: { _id: 1 } },
        { $project: { _id: 0, top2: { $maxN: { input: [3, Long.fromNumber(9), null, 1], n: 2 } } } },
      ])
      .toArray();
    expect(array).toEqual({ top2: [9, 3] });
  });

  it('$unionWith appends another collection', async () => {
    const a = t.db.collection<any>('ua');
    const b = t.db.collection<any>('ub');
    await a.insertOne({ _id: 1 });
    await b.insertOne({ _id: 2 });
    expect(await a.aggregate([{ $unionWith: 'ub' }]).toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
  });

  it('$out replaces the target collection', async () => {
    const coll = await seeded();
    await t.db.collection<any>('out_target').insertOne({ stale: true });
    await coll
      .aggregate([{ $match: { item: 'apple' } }, { $project: { qty: 1 } }, { $out: 'out_target' }])
      .toArray();
    expect(await t.db.collection<any>('out_target').find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, qty: 5 },
      { _id: 4, qty: 10 },
    ]);
  });

  // Found by the wire fuzzer: the target was dropped and refilled up to the duplicate. MongoDB writes
  // into a temporary collection with the target's indexes and renames it over the target only once
  // every document is in (document_source_out.cpp), so a failed $out leaves the target as it was.
  it('a $out that breaks a unique index of its target fails and leaves the target as it was', async () => {
    const source = t.db.collection<any>('out_dup_source');
    const target = t.db.collection<any>('out_dup_target');
    await source.insertMany([
      { _id: 1, k: 1 },
      { _id: 2, k: 1 },
    ]);
    await target.insertMany([
      { _id: 0, k: 9 },
      { _id: 50, k: 1 },
    ]);
    await target.createIndex({ k: 1 }, { unique: true });
    const error = await failure(() => source.aggregate([{ $out: 'out_dup_target' }]).toArray());
    expect(error['code']).toBe(11000);
    expect(await target.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 0, k: 9 },
      { _id: 50, k: 1 },
    ]);
    const noIds = await failure(() =>
      source
        .aggregate([{ $project: { _id: 0, k: 1 } }, { $set: { _id: 7 } }, { $out: 'out_dup_target' }])
        .toArray(),
    );
    expect(noIds['code']).toBe(11000);
    expect(await target.countDocuments()).toBe(2);
  });

  // document_source_out.cpp creates the temporary collection "copying options from the existing
  // output collection": its validator stays, and a document that fails it fails the $out (121)
  // before the target is replaced. The validator was dropped and the document stored.
  it('a $out keeps the validator of its target, and a document failing it leaves the target as it was', async () => {
    const source = t.db.collection<any>('out_valid_source');
    await source.insertMany([
      { _id: 1, k: 1 },
      { _id: 2, k: 'x' },
    ]);
    const target = await t.db.createCollection<any>('out_valid_target', {
      validator: { k: { $type: 'number' } },
    });
    await target.insertOne({ _id: 9, k: 9 });
    const error = await failure(() => source.aggregate([{ $out: 'out_valid_target' }]).toArray());
    expect(error['code']).toBe(121);
    expect(await target.find({}).toArray()).toEqual([{ _id: 9, k: 9 }]);
    await source.aggregate([{ $match: { _id: 1 } }, { $out: 'out_valid_target' }]).toArray();
    expect(await target.find({}).toArray()).toEqual([{ _id: 1, k: 1 }]);
    const [info] = await t.db.listCollections({ name: 'out_valid_target' }).toArray();
    expect((info as { options: unknown }).options).toEqual({ validator: { k: { $type: 'number' } } });
  });

  it('$merge merges into the target collection', async () => {
    const coll = await seeded();
    const target = t.db.collection<any>('merge_target');
    await target.insertMany([{ _id: 'ann', total: 0, keep: true } as Doc]);
    await coll
      .aggregate([
        { $group: { _id: '$customer', total: { $sum: '$qty' } } },
        { $merge: { into: 'merge_target', whenMatched: 'merge', whenNotMatched: 'insert' } },
      ])
      .toArray();
    expect(await target.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'ann', total: 6, keep: true },
      { _id: 'bob', total: 2 },
      { _id: 'cid', total: 10 },
    ]);
  });

  it('matches with collation inside aggregate', async () => {
    const coll = await seeded();
    expect(
      await coll
        .aggregate([{ $match: { customer: 'ANN' } }, { $count: 'n' }], {
          collation: { locale: 'en', strength: 2 },
        })
        .toArray(),
    ).toEqual([{ n: 2 }]);
  });

  it('groups strings equal under the collation together', async () => {
    const coll = t.db.collection<any>('grouped_names');
    await coll.insertMany([{ name: 'Ann' }, { name: 'ann' }, { name: 'ANN' }, { name: 'bob' }]);
    const groups = await coll
      .aggregate([{ $group: { _id: '$name', n: { $sum: 1 } } }, { $sort: { n: -1 } }], {
        collation: { locale: 'en', strength: 2 },
      })
      .toArray();
    expect(groups.map((g) => g['n'])).toEqual([3, 1]);
    expect(String(groups[0]!['_id']).toLowerCase()).toBe('ann');
  });

  it('countDocuments and estimatedDocumentCount agree', async () => {
    const coll = await seeded();
    expect(await coll.countDocuments()).toBe(4);
    expect(await coll.estimatedDocumentCount()).toBe(4);
    expect(await coll.countDocuments({ qty: { $gt: 1 } }, { limit: 2 })).toBe(2);
  });

  it('rejects an unknown stage with 40324', async () => {
    const coll = await seeded();
    const error = await failure(() => coll.aggregate([{ $nonsense: {} }]).toArray());
    expect(error['code']).toBe(40324);
  });

  it('rejects $out that is not the last stage', async () => {
    const coll = await seeded();
    const error = await failure(() => coll.aggregate([{ $out: 'x' }, { $match: {} }]).toArray());
    expect(error['code']).toBeTypeOf('number');
  });

  it('answers explain for a pipeline', async () => {
    const coll = await seeded();
    const plan = await coll.aggregate([{ $match: { _id: 1 } }]).explain();
    expect(plan).toHaveProperty(external ? 'ok' : 'queryPlanner');
  });

  it('finds with $text on a text index, sorted by score', async () => {
    const posts = t.db.collection<any>('posts');
    await posts.createIndex({ title: 'text', body: 'text' });
    await posts.insertMany([
      { _id: 1, title: 'Cooking pasta', body: 'Boil water and add the pasta' },
      { _id: 2, title: 'Running shoes', body: 'Shoes for running in the rain' },
      { _id: 3, title: 'Pasta and shoes', body: 'An odd combination' },
    ]);
    const hits = await posts
      .find({ $text: { $search: 'pasta' } })
      .project({ score: { $meta: 'textScore' } })
      .sort({ score: { $meta: 'textScore' } })
      .toArray();
    expect(hits.map((d) => d['_id']).sort()).toEqual([1, 3]);
    expect(hits[0]!['_id']).toBe(1);
    expect(hits[0]!['score']).toBeGreaterThan(0);
    // A projection of only `$meta` keeps every field.
    expect(hits[0]!['title']).toBe('Cooking pasta');
    expect((await posts.find({ $text: { $search: 'run' } }).toArray()).map((d) => d['_id'])).toEqual([2]);
    expect(
      (await posts.find({ $text: { $search: '"odd combination"' } }).toArray()).map((d) => d['_id']),
    ).toEqual([3]);
    expect((await posts.find({ $text: { $search: 'shoes -pasta' } }).toArray()).map((d) => d['_id'])).toEqual(
      [2],
    );
  });

  it('sorts and projects by textScore in an aggregation', async () => {
    const notes = t.db.collection<any>('notes');
    await notes.createIndex({ body: 'text' });
    await notes.insertMany([
      { _id: 1, body: 'tea coffee milk sugar honey lemon' },
      { _id: 2, body: 'tea' },
      { _id: 3, body: 'coffee' },
    ]);
    const out = await notes
      .aggregate([
        { $match: { $text: { $search: 'tea' } } },
        { $sort: { score: { $meta: 'textScore' } } },
        { $project: { score: { $meta: 'textScore' } } },
      ])
      .toArray();
    expect(out.map((d) => d['_id'])).toEqual([2, 1]);
    expect(out[0]!['score']).toBeGreaterThan(out[1]!['score']);
  });

  it('rejects $text without a text index', async () => {
    const coll = await seeded();
    const error = await failure(() => coll.find({ $text: { $search: 'apple' } }).toArray());
    expect(error['code']).toBe(27);
  });

  it.skipIf(external)('runs the $search text stage', async () => {
    const posts = t.db.collection<any>('search');
    await posts.insertMany([
      { _id: 1, title: 'Red apples', body: 'crisp' },
      { _id: 2, title: 'Green pears', body: 'apples are better' },
      { _id: 3, title: 'Bread', body: 'fresh' },
    ]);
    const out = await posts
      .aggregate([
        { $search: { text: { query: 'apple', path: 'title' } } },
        { $project: { _id: 1, s: { $meta: 'searchScore' } } },
      ])
      .toArray();
    expect(out.map((d) => d['_id'])).toEqual([1]);
    expect(out[0]!['s']).toBeGreaterThan(0);
    const both = await posts
      .aggregate([{ $search: { text: { query: 'apples', path: ['title', 'body'] } } }])
      .toArray();
    expect(both.map((d) => d['_id']).sort()).toEqual([1, 2]);
  });
});
