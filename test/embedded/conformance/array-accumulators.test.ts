/**
 * `$push` and `$addToSet` leave out documents where their expression is missing, in `$group` and in
 * `$setWindowFields`, as MongoDB 7.0 does: AccumulatorPush::processInternal and
 * AccumulatorAddToSet::processInternal (src/mongo/db/pipeline/accumulator_push.cpp,
 * accumulator_add_to_set.cpp) add a value only `if (!input.missing())`, and WindowFunctionPush::add
 * (window_function/window_function_push.h) returns early on a missing value. A null that is stored is
 * kept. `$first`/`$last` of a missing value answer null: DocumentSourceGroup writes a missing
 * accumulator result as null.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

const docs = [
  { _id: 1, g: 1, v: 1 },
  { _id: 2, g: 1 },
  { _id: 3, g: 1, v: null },
  { _id: 4, g: 1, v: 1 },
  { _id: 5, g: 1 },
];

describe.each(drivers)('array accumulators over missing values ($name)', (driver) => {
  const target = connect(driver, 'array_accumulators');

  const coll = async () => {
    const c = target.db.collection<any>('values');
    await c.deleteMany({});
    await c.insertMany(docs.map((d) => ({ ...d })));
    return c;
  };

  it('$group skips missing values in $push and $addToSet and keeps stored nulls', async () => {
    const c = await coll();
    const [row] = await c
      .aggregate([
        { $sort: { _id: 1 } },
        {
          $group: {
            _id: '$g',
            pushed: { $push: '$v' },
            set: { $addToSet: '$v' },
            none: { $push: '$absent' },
            noneSet: { $addToSet: '$absent' },
            first: { $first: '$absent' },
            last: { $last: '$v' },
          },
        },
        {
          $project: {
            pushed: 1,
            none: 1,
            noneSet: 1,
            first: 1,
            last: 1,
            set: { $sortArray: { input: '$set', sortBy: 1 } },
          },
        },
      ])
      .toArray();
    expect(row).toEqual({
      _id: 1,
      pushed: [1, null, 1],
      set: [null, 1],
      none: [],
      noneSet: [],
      first: null,
      last: null,
    });
  });

  it('$setWindowFields skips missing values in $push and $addToSet', async () => {
    const c = await coll();
    const rows = await c
      .aggregate([
        {
          $setWindowFields: {
            sortBy: { _id: 1 },
            output: {
              pushed: { $push: '$v', window: { documents: ['unbounded', 'current'] } },
              set: { $addToSet: '$v', window: { documents: ['unbounded', 'current'] } },
            },
          },
        },
        { $project: { pushed: 1, set: { $sortArray: { input: '$set', sortBy: 1 } } } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: 1, pushed: [1], set: [1] },
      { _id: 2, pushed: [1], set: [1] },
      { _id: 3, pushed: [1, null], set: [null, 1] },
      { _id: 4, pushed: [1, null, 1], set: [null, 1] },
      { _id: 5, pushed: [1, null, 1], set: [null, 1] },
    ]);
  });
});

/**
 * Which values are the same to `$group`: its ids and `$addToSet`'s elements compare as MongoDB compares
 * values (manual, "Comparison/Sort Order": numbers of any type by value; objects "compare key-value
 * pairs in the order that they appear within the BSON object"), so `{ a: 1, b: 2 }` and
 * `{ b: 2, a: 1 }` are two groups and two elements, and `1` and `NumberLong(1)` one.
 */
describe.each(drivers)('$group equality of ids and $addToSet elements ($name)', (driver) => {
  const target = connect(driver, 'group_equality');
  const { Long } = driver.bson;

  const coll = async () => {
    const c = target.db.collection<any>('values');
    await c.deleteMany({});
    await c.insertMany([
      { _id: 1, g: 1, d: { a: 1, b: 2 }, n: 1 },
      { _id: 2, g: 1, d: { b: 2, a: 1 }, n: Long.fromNumber(1) },
      { _id: 3, g: 1, d: { a: 1, b: 2 }, n: 1.0 },
    ]);
    return c;
  };

  it('keeps documents with the same fields in another order apart, and numbers of one value together', async () => {
    const c = await coll();
    const [row] = await c
      .aggregate([
        { $sort: { _id: 1 } },
        { $group: { _id: '$g', docs: { $addToSet: '$d' }, numbers: { $addToSet: '$n' } } },
      ])
      .toArray();
    expect(row).toEqual({
      _id: 1,
      docs: [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      numbers: [1],
    });
    const groups = await c
      .aggregate([{ $group: { _id: '$d', ids: { $push: '$_id' } } }, { $sort: { ids: 1 } }])
      .toArray();
    expect(groups).toEqual([
      { _id: { a: 1, b: 2 }, ids: [1, 3] },
      { _id: { b: 2, a: 1 }, ids: [2] },
    ]);
    // Object equality in toEqual ignores field order: check it on the ids.
    expect(groups.map((group) => Object.keys(group['_id']))).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ]);
  });
});
