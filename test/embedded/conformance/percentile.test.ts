/**
 * `$percentile` and `$median` answer with MongoDB 7.0's discrete percentile: the numbers (of any type)
 * sorted as numbers, percentile p the one at 0-based rank `ceil(p * n) - 1`, as a double
 * (percentile_algo.h `computeTrueRank`, expression_from_accumulator_quantile.h: a number `input` is every
 * percentile, no number gives null). mingo sorted the numbers as strings, so 10 came before 9, answered
 * ints, skipped longs and decimals, and failed on a null `input`.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, expressionFailure, typedResults } from '../helpers.js';

describe.each(drivers)('percentiles ($name)', (driver) => {
  const state = connect(driver, 'percentiles');
  const { Long, Decimal128 } = driver.bson;

  it('rank the numbers of an array as numbers and answer doubles', async () => {
    const method = 'approximate';
    expect(
      await typedResults(state.db, {
        median: { $median: { input: [100, 9, 10], method } },
        mixed: { $median: { input: [1, 'a', new Long(3), new Decimal128('5')], method } },
        scalar: { $median: { input: 5, method } },
        quartile: { $arrayElemAt: [{ $percentile: { input: [100, 9, 10, 11], p: [0.25], method } }, 0] },
        top: { $arrayElemAt: [{ $percentile: { input: [100, 9, 10, 11], p: [1], method } }, 0] },
      }),
    ).toEqual({
      median: 'Double 10',
      mixed: 'Double 3',
      scalar: 'Double 5',
      quartile: 'Double 9',
      top: 'Double 100',
    });
    const [row] = await aggregateOn(
      state.db,
      [{ _id: 1 }],
      [
        {
          $project: {
            _id: 0,
            none: { $median: { input: null, method } },
            words: { $percentile: { input: ['a'], p: [0.5, 0.9], method } },
          },
        },
      ],
    );
    expect(row).toEqual({ none: null, words: [null, null] });
  });

  it('rank a group as numbers', async () => {
    const rows = await aggregateOn(
      state.db,
      [
        { _id: 1, v: 9 },
        { _id: 2, v: 100 },
        { _id: 3, v: 10 },
      ],
      [{ $group: { _id: null, median: { $median: { input: '$v', method: 'approximate' } } } }],
    );
    expect(rows).toEqual([{ _id: null, median: 10 }]);
  });

  it('refuse a p outside [0, 1] (7750303)', async () => {
    // AccumulatorPercentile's parser: 7750303 for a p below 0 or above 1.
    const failure = await expressionFailure(state.db, {
      $percentile: { input: [1], p: [1.5], method: 'approximate' },
    });
    expect(failure.code).toBe(7750303);
  });
});
