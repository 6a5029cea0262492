/**
 * `$slice`, `$reverseArray`, `$zip`, `$sortArray`, `$objectToArray`, `$isNumber` and `$getField` answer
 * as MongoDB 7.0 does (src/mongo/db/pipeline/expression.cpp: `ExpressionSlice::evaluate`,
 * `ExpressionReverseArray`, `ExpressionZip`, `ExpressionSortArray`, `ExpressionObjectToArray`,
 * `ExpressionIsNumber`, `ExpressionGetField::evaluate`; the manual's examples), `$firstN`/`$lastN`, and
 * the input errors of `$map`, `$reduce`, `$concatArrays` and `$setField`. The embedded database
 * used mingo's, which refused a null `$slice` argument, read the one-argument list form
 * (`{ $reverseArray: [[1, 2]] }`) as an array of the argument, sorted `$sortArray` across types in its
 * own order, and answered code 2 where MongoDB has its own codes.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, expressionFailure } from '../helpers.js';

describe.each(drivers)('array expressions ($name)', (driver) => {
  const state = connect(driver, 'array_expressions');
  const { Long, Decimal128 } = driver.bson;

  const evaluate = async (fields: Record<string, unknown>): Promise<Record<string, any>> => {
    const [row] = await aggregateOn(
      state.db,
      [{ _id: 1, o: { a: 1 } }],
      [{ $project: { _id: 0, ...fields } }],
    );
    return row!;
  };

  it('slice, reverse and zip as MongoDB does, null for a null argument', async () => {
    expect(
      await evaluate({
        sliceLast: { $slice: [[1, 2, 3], -2] },
        sliceFrom: { $slice: [[1, 2, 3], -5, 2] },
        sliceLong: { $slice: [[1, 2, 3], new Long(2)] },
        sliceNull: { $slice: [null, 1] },
        sliceNullCount: { $slice: [[1], '$missing'] },
        reversed: { $reverseArray: [[1, 2]] },
        reversedEmpty: { $reverseArray: [[]] },
        reversedMissing: { $reverseArray: '$missing' },
        zipped: {
          $zip: {
            inputs: [
              ['a', 'b'],
              [1, 2, 3],
            ],
          },
        },
        zippedLongest: {
          $zip: {
            inputs: [
              ['a', 'b'],
              [1, 2, 3],
            ],
            useLongestLength: true,
            defaults: ['x', 'y'],
          },
        },
        zippedNull: { $zip: { inputs: [null, [1]] } },
        entries: { $objectToArray: [{ $literal: { a: 1 } }] },
        isNumber: { $isNumber: [new Long(5)] },
        fieldOfNull: { $getField: { field: 'a', input: null } },
        concatOne: { $concatArrays: { $literal: [1, 2] } },
      }),
    ).toEqual({
      sliceLast: [2, 3],
      sliceFrom: [1, 2],
      sliceLong: [1, 2],
      sliceNull: null,
      sliceNullCount: null,
      reversed: [2, 1],
      reversedEmpty: [],
      reversedMissing: null,
      zipped: [
        ['a', 1],
        ['b', 2],
      ],
      zippedLongest: [
        ['a', 1],
        ['b', 2],
        ['x', 3],
      ],
      zippedNull: null,
      entries: [{ k: 'a', v: 1 }],
      isNumber: true,
      fieldOfNull: null,
      concatOne: [1, 2],
    });
  });

  it('sort values across types in MongoDB order', async () => {
    // The manual's "$sortArray" example "Sort on Mixed Type Fields".
    const input = [
      20,
      4,
      { a: 'Free' },
      6,
      21,
      5,
      'Gratis',
      { a: null },
      { a: { sale: true, price: 19 } },
      new Decimal128('10.23'),
      { a: 'On sale' },
    ];
    const row = await evaluate({
      ascending: { $sortArray: { input: { $literal: input }, sortBy: 1 } },
      numbers: { $sortArray: { input: [new Long(3), 2.5, new Decimal128('1')], sortBy: -1 } },
      byField: { $sortArray: { input: [{ a: 2 }, { a: 1 }, { b: 1 }], sortBy: { a: -1 } } },
    });
    expect(row['ascending']).toEqual([
      4,
      5,
      6,
      new Decimal128('10.23'),
      20,
      21,
      'Gratis',
      { a: null },
      { a: 'Free' },
      { a: 'On sale' },
      { a: { sale: true, price: 19 } },
    ]);
    expect(row['numbers']).toEqual([3, 2.5, new Decimal128('1')]);
    expect(row['byField']).toEqual([{ a: 2 }, { a: 1 }, { b: 1 }]);
  });

  it('take the first and last n, n of any integral type', async () => {
    // Manual, "$firstN (array operator)": n is any positive integral number; nulls are kept.
    expect(
      await evaluate({
        first: { $firstN: { input: [null, 2, 3], n: new Long(2) } },
        last: { $lastN: { input: [1, 2, 3], n: 2.0 } },
      }),
    ).toEqual({ first: [null, 2], last: [2, 3] });
    const groups = await aggregateOn(
      state.db,
      [
        { _id: 1, v: 'a' },
        { _id: 2, v: 'b' },
        { _id: 3, v: 'c' },
      ],
      [{ $sort: { _id: 1 } }, { $group: { _id: null, first: { $firstN: { input: '$v', n: new Long(2) } } } }],
    );
    expect(groups).toEqual([{ _id: null, first: ['a', 'b'] }]);
  });

  it('refuse an input that is not an array, null and missing included (5788200)', async () => {
    // ExpressionFromAccumulatorN::evaluate (expression.h, 7.0): after n, uassert(5788200, "Input must
    // be an array", output.isArray()), with no exception for a nullish input.
    for (const name of ['$minN', '$maxN', '$firstN', '$lastN']) {
      for (const input of [null, '$missing', 5, { a: 1 }]) {
        const failure = await expressionFailure(state.db, { [name]: { input, n: 2 } });
        expect([name, input, failure.code, failure.errmsg]).toEqual([
          name,
          input,
          5788200,
          'Input must be an array',
        ]);
      }
    }
    // n is evaluated first: a bad n with a null input is n's error.
    expect((await expressionFailure(state.db, { $minN: { input: null, n: 0 } })).code).toBe(5787908);
  });

  it("refuse wrong types with MongoDB's codes", async () => {
    const codes: [unknown, number][] = [
      [{ $slice: ['abc', 1] }, 28724],
      [{ $slice: [[1], 'a'] }, 28725],
      [{ $slice: [[1], 1.5] }, 28726],
      [{ $slice: [[1], 0, 'a'] }, 28727],
      [{ $slice: [[1], 0, 0] }, 28729],
      [{ $reverseArray: 'abc' }, 34435],
      [{ $zip: [1] }, 34460],
      [{ $zip: { inputs: '$o' } }, 34461],
      [{ $zip: { inputs: [[1]], useLongestLength: 1 } }, 34463],
      [{ $zip: { inputs: [[1]], x: 1 } }, 34464],
      [{ $zip: { inputs: [['a'], [1]], defaults: ['x', 'y'] } }, 34466],
      [{ $zip: { inputs: ['abc'] } }, 34468],
      [{ $sortArray: { input: [1], sortBy: 2 } }, 2942506],
      [{ $sortArray: { input: 'x', sortBy: 1 } }, 2942504],
      [{ $objectToArray: 1 }, 40390],
      // ExpressionMap/ExpressionReduce/ExpressionConcatArrays::evaluate, ExpressionSetField::evaluate.
      [{ $map: { input: 'x', in: 1 } }, 16883],
      [{ $reduce: { input: 'x', initialValue: 0, in: 1 } }, 40080],
      [{ $concatArrays: [[1], 'x'] }, 28664],
      [{ $setField: { field: 'a', input: 1, value: 1 } }, 4161105],
    ];
    for (const [expression, code] of codes) {
      expect([expression, (await expressionFailure(state.db, expression)).code]).toEqual([expression, code]);
    }
  });
});
