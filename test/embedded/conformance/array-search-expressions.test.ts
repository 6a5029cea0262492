/**
 * The expressions `$in` and `$indexOfArray` find an element by MongoDB 7.0's value equality
 * (src/mongo/db/pipeline/expression.cpp, `ExpressionIn::evaluate` and `ExpressionIndexOfArray::evaluate`
 * compare with the expression context's value comparator: documents field by field in stored order,
 * numbers of any type by value, strings under the collation), and refuse a non-array with 40081 /
 * 40090. The embedded database used mingo's equality, which ignores field order and told
 * `NumberLong(2)` from `2` in `$indexOfArray`.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('array search expressions ($name)', (driver) => {
  const state = connect(driver, 'array_search');
  const { Long, Decimal128 } = driver.bson;

  it('compare documents field by field in order, numbers by value, strings under the collation', async () => {
    const coll = state.db.collection<any>('values');
    await coll.insertOne({
      _id: 1,
      docs: [
        { b: 2, a: 1 },
        { a: 1, b: 2 },
      ],
      n: [1, new Long(2), 3.5],
      s: ['x', 'Ab'],
    });
    const [row] = await coll
      .aggregate(
        [
          {
            $project: {
              _id: 0,
              inReversed: { $in: [{ $literal: { b: 2, a: 1 } }, ['$docs.0']] },
              inOther: { $in: [{ $literal: { a: 1, c: 2 } }, '$docs'] },
              indexDoc: { $indexOfArray: ['$docs', { $literal: { a: 1, b: 2 } }] },
              indexMissingDoc: { $indexOfArray: [['$docs.0'], { $literal: { a: 1, b: 2 } }] },
              inLong: { $in: [2, '$n'] },
              indexLong: { $indexOfArray: ['$n', { $toLong: 2 }] },
              indexDecimal: { $indexOfArray: ['$n', new Decimal128('3.5')] },
              indexFrom: { $indexOfArray: ['$n', 2, 2] },
              inString: { $in: ['ab', '$s'] },
              indexString: { $indexOfArray: ['$s', 'AB'] },
              indexNull: { $indexOfArray: ['$missing', 1] },
            },
          },
        ],
        { collation: { locale: 'en', strength: 2 } },
      )
      .toArray();
    expect(row).toEqual({
      inReversed: true,
      inOther: false,
      indexDoc: 1,
      indexMissingDoc: -1,
      inLong: true,
      indexLong: 1,
      indexDecimal: 2,
      indexFrom: -1,
      inString: true,
      indexString: 1,
      indexNull: null,
    });
  });

  it('refuse a value that is not an array', async () => {
    const coll = state.db.collection<any>('bad');
    // Arrays come from the document: an all-constant call would fail while MongoDB optimizes instead.
    await coll.insertOne({ _id: 1, s: 'abc', one: [1] });
    const run = (expression: unknown) =>
      failure(() => coll.aggregate([{ $project: { v: expression } }]).toArray());
    expect(await run({ $in: [1, '$s'] })).toMatchObject({
      code: 40081,
      message: '$in requires an array as a second argument, found: string',
    });
    expect(await run({ $in: [1, '$missing'] })).toMatchObject({
      code: 40081,
      message: '$in requires an array as a second argument, found: missing',
    });
    expect(await run({ $indexOfArray: ['$s', 1] })).toMatchObject({
      code: 40090,
      message: '$indexOfArray requires an array as a first argument, found: string',
    });
    expect(await run({ $indexOfArray: ['$one', 1, -1] })).toMatchObject({
      code: 40097,
      message: '$indexOfArray requires a nonnegative starting index, found: -1',
    });
    expect(await run({ $indexOfArray: ['$one', 1, 0, 1.5] })).toMatchObject({
      code: 40096,
      message:
        '$indexOfArrayrequires an integral ending index, found a value of type: double, with value: 1.5',
    });
  });
});
