/**
 * Sort directions as MongoDB 7.0 reads them at each place a sort is given.
 *
 * A find's and a findAndModify's `sort` (canonical_query.cpp), the `$sort` stage, `$setWindowFields`'
 * `sortBy` and the `sortBy` of `$top`/`$bottom`/`$topN`/`$bottomN` (accumulator_multi.cpp,
 * parseAccumulatorTopBottomNSortBy) are each parsed as a SortPattern (src/mongo/db/query/sort_pattern.cpp):
 * a direction that is not a number is 15974, and a number is read with `safeNumberLong`
 * (src/mongo/bson/bsonelement.h: a double truncated toward zero, NaN as 0, a decimal rounded half to
 * even) and must then be 1 or -1 (15975, "$sort key ordering must be 1 (for ascending) or -1 (for
 * descending)"). So `1.5` sorts ascending, `-1.9` descending, `0.5` and `NumberDecimal('1.5')` are
 * refused. `$push`'s `$sort` is checked by push_node.cpp instead: the number's double value must be
 * exactly 1 or -1 (BadValue, "The $sort element value must be either 1 or -1").
 * The driver refuses a find sort direction other than 1/-1 itself, so raw commands carry them here.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('sort directions ($name)', (driver) => {
  const t = connect(driver, 'sort_directions');
  const { Decimal128, Double, Long } = driver.bson;

  /** The `_id`s in the order each sort site puts `{ _id: 1, a: 2 }` and `{ _id: 2, a: 1 }` by `a`. */
  async function orders(direction: unknown): Promise<Record<string, unknown>> {
    const coll = t.db.collection<any>('pairs');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, a: 2 },
      { _id: 2, a: 1 },
    ]);
    const sort = { a: direction };
    const ids = (docs: Record<string, unknown>[]) => docs.map((d) => d['_id']);
    const find = await t.db.command({ find: 'pairs', sort });
    const modified = await t.db.command({
      findAndModify: 'pairs',
      query: {},
      sort,
      update: { $set: { seen: true } },
    });
    const window = await coll
      .aggregate([{ $setWindowFields: { sortBy: sort, output: { n: { $documentNumber: {} } } } }])
      .toArray();
    const [top] = await coll
      .aggregate([{ $group: { _id: null, ids: { $topN: { n: 2, sortBy: sort, output: '$_id' } } } }])
      .toArray();
    return {
      find: ids(find['cursor'].firstBatch),
      findAndModify: modified['value']._id,
      $sort: ids(await coll.aggregate([{ $sort: sort }]).toArray()),
      $setWindowFields: ids(window),
      $topN: top!['ids'],
    };
  }

  const ascending = {
    find: [2, 1],
    findAndModify: 2,
    $sort: [2, 1],
    $setWindowFields: [2, 1],
    $topN: [2, 1],
  };
  const descending = {
    find: [1, 2],
    findAndModify: 1,
    $sort: [1, 2],
    $setWindowFields: [1, 2],
    $topN: [1, 2],
  };

  it('reads 1.5 and NumberDecimal(1.4) as ascending, -1.9 and NumberLong(-1) as descending', async () => {
    expect(await orders(1.5)).toEqual(ascending);
    expect(await orders(Decimal128.fromString('1.4'))).toEqual(ascending);
    expect(await orders(new Double(1))).toEqual(ascending);
    expect(await orders(-1.9)).toEqual(descending);
    expect(await orders(Long.fromNumber(-1))).toEqual(descending);
    expect(await orders(new Double(-1))).toEqual(descending);
  });

  /** The code each sort site fails with for the direction `direction`, on an empty collection. */
  async function codes(direction: unknown): Promise<unknown[]> {
    const sort = { a: direction };
    const empty = t.db.collection<any>('empty');
    const attempts = [
      () => t.db.command({ find: 'empty', sort }),
      () => t.db.command({ findAndModify: 'empty', query: {}, sort, remove: true }),
      () => empty.aggregate([{ $sort: sort }]).toArray(),
      () => empty.aggregate([{ $setWindowFields: { sortBy: sort, output: { n: { $sum: 1 } } } }]).toArray(),
      () => empty.aggregate([{ $group: { _id: null, t: { $top: { sortBy: sort, output: 1 } } } }]).toArray(),
      () =>
        empty
          .aggregate([{ $group: { _id: null, t: { $bottomN: { n: 1, sortBy: sort, output: 1 } } } }])
          .toArray(),
    ];
    const found: unknown[] = [];
    for (const attempt of attempts) found.push((await failure(attempt))['code']);
    return found;
  }

  it.each([
    ['0.5', 0.5, 15975],
    ['2', 2, 15975],
    ['-0.5', -0.5, 15975],
    ['NaN', NaN, 15975],
    ["NumberDecimal('1.5') (rounded to 2)", 'decimal 1.5', 15975],
    ["NumberDecimal('0.5') (rounded to 0)", 'decimal 0.5', 15975],
    ["'asc'", 'asc', 15974],
    ['true', true, 15974],
  ])('refuses the direction %s at every SortPattern site', async (_name, value, code) => {
    const direction =
      typeof value === 'string' && value.startsWith('decimal ')
        ? Decimal128.fromString(value.slice('decimal '.length))
        : value;
    expect(await codes(direction)).toEqual(Array(6).fill(code));
  });

  // accumulator_multi.cpp accumulatorNParseArgs: sortBy is read with BSONElement::Obj (10065).
  it('refuses a $topN sortBy that is not a document, and a missing one, when the pipeline is parsed', async () => {
    const empty = t.db.collection<any>('empty');
    const group = (spec: unknown) => () =>
      empty.aggregate([{ $group: { _id: null, t: { $topN: spec } } }]).toArray();
    const notDocument = await failure(group({ n: 1, sortBy: 1, output: '$a' }));
    expect([notDocument['code'], notDocument['errmsg']]).toEqual([
      10065,
      'invalid parameter: expected an object (sortBy)',
    ]);
    const missing = await failure(group({ n: 1, output: '$a' }));
    expect([missing['code'], missing['errmsg']]).toEqual([5788005, "Missing value for 'sortBy'"]);
  });

  // push_node.cpp (PushNode::init, checkSortClause): the double value must be exactly 1 or -1.
  it("$push's $sort takes exactly 1 or -1 of any number type, and refuses 1.5 and 0.5", async () => {
    const coll = t.db.collection<any>('pushed');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, list: [2, 3], docs: [{ x: 1 }, { x: 3 }] });
    await coll.updateOne({ _id: 1 }, {
      $push: {
        list: { $each: [1], $sort: new Double(-1) },
        docs: { $each: [{ x: 2 }], $sort: { x: Long.fromNumber(-1) } },
      },
    } as never);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      list: [3, 2, 1],
      docs: [{ x: 3 }, { x: 2 }, { x: 1 }],
    });
    const refusals: [unknown, string][] = [
      [1.5, 'The $sort element value must be either 1 or -1'],
      [{ x: 0.5 }, 'The $sort element value must be either 1 or -1'],
      [{ x: 'asc' }, 'The $sort element value must be either 1 or -1'],
      [{}, 'The $sort pattern is empty when it should be a set of fields.'],
      [{ 'x..y': 1 }, 'The $sort field is a dotted field but has an empty part: x..y'],
      [
        'asc',
        'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
      ],
    ];
    for (const [sort, message] of refusals) {
      const error = await failure(() =>
        coll.updateOne({ _id: 99 }, { $push: { list: { $each: [], $sort: sort } } } as never),
      );
      expect([error['code'], error['errmsg']]).toEqual([2, message]);
    }
  });
});
