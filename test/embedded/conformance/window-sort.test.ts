/**
 * `$setWindowFields` sorts each partition by `sortBy` in MongoDB's BSON comparison order
 * (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/; the stage sorts with
 * document_source_set_window_fields.cpp's `$sort`): null before numbers, NaN before every other number,
 * numbers of every BSON type by value, then strings, booleans, dates; documents with equal keys keep
 * their order. The stage builds a SortPattern of `sortBy` when it is parsed
 * (document_source_set_window_fields.cpp; src/mongo/db/query/sort_pattern.cpp), so a bad key fails
 * as it does in `$sort`, even on an empty collection: 15974 for a direction that is not a number, 15975
 * for a number other than 1 and -1 (of any number type: NumberLong(-1) is descending), 17312 for a
 * document without `$meta`; a `sortBy` that is not a document is the IDL's 14.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('setWindowFields sortBy order ($name)', (driver) => {
  const t = connect(driver, 'window_sort');
  const { Decimal128, Long } = driver.bson;

  it('numbers of every type, NaN, null, strings, booleans and dates sort in BSON order', async () => {
    const docs = [
      { _id: 'date', v: new Date('2024-01-01') },
      { _id: 'string', v: 'a' },
      { _id: 'three', v: 3 },
      { _id: 'true', v: true },
      { _id: 'long two', v: Long.fromNumber(2) },
      { _id: 'null', v: null },
      { _id: 'decimal 2.5', v: Decimal128.fromString('2.5') },
      { _id: 'NaN', v: NaN },
      { _id: 'minus infinity', v: -Infinity },
    ];
    const result = await aggregateOn(t.db, docs, [
      { $setWindowFields: { sortBy: { v: 1 }, output: { n: { $documentNumber: {} } } } },
      { $project: { n: 1 } },
    ]);
    expect(result).toEqual([
      { _id: 'null', n: 1 },
      { _id: 'NaN', n: 2 },
      { _id: 'minus infinity', n: 3 },
      { _id: 'long two', n: 4 },
      { _id: 'decimal 2.5', n: 5 },
      { _id: 'three', n: 6 },
      { _id: 'string', n: 7 },
      { _id: 'true', n: 8 },
      { _id: 'date', n: 9 },
    ]);
  });

  it('a descending sortBy of int64 values is by value, within each partition', async () => {
    const docs = [10, 2, 9, 100].map((v, i) => ({ _id: i, p: i % 2, v: Long.fromNumber(v) }));
    const result = await aggregateOn(t.db, docs, [
      {
        $setWindowFields: {
          partitionBy: '$p',
          sortBy: { v: -1 },
          output: { before: { $shift: { output: '$_id', by: -1, default: null } } },
        },
      },
      { $project: { before: 1 } },
    ]);
    expect(result).toEqual([
      { _id: 0, before: null },
      { _id: 2, before: 0 },
      { _id: 3, before: null },
      { _id: 1, before: 3 },
    ]);
  });

  // accumulator_rank.cpp: a new rank only where the sortBy value compares unequal to the previous one.
  it('$rank and $denseRank tie numbers of different types with equal values', async () => {
    const docs = [
      { _id: 1, v: 1 },
      { _id: 2, v: Long.fromNumber(1) },
      { _id: 3, v: Decimal128.fromString('1.0') },
      { _id: 4, v: 2 },
    ];
    const result = await aggregateOn(t.db, docs, [
      { $setWindowFields: { sortBy: { v: 1 }, output: { r: { $rank: {} }, d: { $denseRank: {} } } } },
      { $project: { r: 1, d: 1 } },
    ]);
    expect(result).toEqual([
      { _id: 1, r: 1, d: 1 },
      { _id: 2, r: 1, d: 1 },
      { _id: 3, r: 1, d: 1 },
      { _id: 4, r: 4, d: 2 },
    ]);
  });

  const sortBys: [string, unknown, number][] = [
    ['a direction other than 1 or -1', { t: 2 }, 15975],
    ['a string direction', { t: 'x' }, 15974],
    ['a document without $meta', { t: { a: 1 } }, 17312],
    ['an empty field path', { '': 1 }, 40352],
    ['a sortBy that is not a document', 'x', 14],
  ];

  it.each(sortBys)('refuses %s when the pipeline is parsed', async (_name, sortBy, code) => {
    const stage = { $setWindowFields: { sortBy, output: { n: { $sum: 1 } } } };
    const error = await failure(() => aggregateOn(t.db, [], [stage]));
    expect(error['code']).toBe(code);
  });

  it('reads directions of any number type, and sorts nothing for an empty sortBy', async () => {
    const docs = [1, 3, 2].map((v) => ({ _id: v }));
    const window = { documents: ['unbounded', 'current'] };
    const running = (sortBy: unknown) => [
      { $setWindowFields: { sortBy, output: { s: { $push: '$_id', window } } } },
    ];
    expect(await aggregateOn(t.db, docs, running({ _id: Long.fromNumber(-1) }))).toEqual([
      { _id: 3, s: [3] },
      { _id: 2, s: [3, 2] },
      { _id: 1, s: [3, 2, 1] },
    ]);
    const sorted = await aggregateOn(t.db, docs, [{ $sort: { _id: Long.fromNumber(-1) } }]);
    expect(sorted.map((doc) => doc['_id'])).toEqual([3, 2, 1]);
    const unsorted = await aggregateOn(t.db, docs, [
      { $setWindowFields: { sortBy: {}, output: { n: { $sum: 1 } } } },
    ]);
    expect(unsorted).toHaveLength(3);
    expect(unsorted.every((doc) => doc['n'] === 3)).toBe(true);
  });
});
