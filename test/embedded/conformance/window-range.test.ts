/**
 * `$setWindowFields` range windows are bounded as MongoDB 7.0's PartitionIterator bounds them
 * (getEndpointsRangeBased, src/mongo/db/pipeline/window_function/partition_iterator.cpp): the current
 * document's sortBy value (read by its path) is the base; with a `unit` it must be a date (5429513) and a
 * bound is `dateAdd(base, unit, bound)` in UTC, which keeps the day of month unless the target month is
 * shorter, then its last day (date_time_support.cpp; manual, $dateAdd: "If the resulting date is not a
 * valid date, $dateAdd returns the last valid day of the month"); without one it must be a number
 * (5429413 for a date, 5429414 otherwise) and a bound is base + bound. The window runs from the first
 * document not below the lower bound to the last not above the upper bound.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('setWindowFields range windows ($name)', (driver) => {
  const t = connect(driver, 'window_range');

  const dates = [
    '2024-01-31',
    '2024-02-29',
    '2024-03-01',
    '2024-03-31',
    '2024-11-30',
    '2025-02-28',
    '2025-03-01',
  ];
  const docs = dates.map((d, i) => ({ _id: i + 1, d: new Date(`${d}T10:00:00Z`) }));
  const windows = async (range: unknown[], unit: string) =>
    (
      await aggregateOn(t.db, docs, [
        {
          $setWindowFields: { sortBy: { d: 1 }, output: { ids: { $push: '$_id', window: { range, unit } } } },
        },
        { $sort: { _id: 1 } },
      ])
    ).map((doc) => doc['ids']);

  it('move by months, quarters and years to the last day of a shorter month', async () => {
    // 31 Jan + 1 month is 29 Feb; 31 Mar - 1 month is 29 Feb; 30 Nov + 1 quarter is 28 Feb 2025;
    // 29 Feb 2024 + 1 year is 28 Feb 2025 (so 1 Mar 2025 is outside).
    expect(await windows([0, 1], 'month')).toEqual([[1, 2], [2, 3], [3, 4], [4], [5], [6, 7], [7]]);
    expect(await windows([-1, 0], 'month')).toEqual([[1], [1, 2], [2, 3], [2, 3, 4], [5], [6], [6, 7]]);
    expect(await windows([0, 1], 'quarter')).toEqual([
      [1, 2, 3, 4],
      [2, 3, 4],
      [3, 4],
      [4],
      [5, 6],
      [6, 7],
      [7],
    ]);
    expect(await windows([0, 1], 'year')).toEqual([
      [1, 2, 3, 4, 5],
      [2, 3, 4, 5, 6],
      [3, 4, 5, 6, 7],
      [4, 5, 6, 7],
      [5, 6, 7],
      [6, 7],
      [7],
    ]);
    expect(await windows([-1, 'current'], 'day')).toEqual([[1], [2], [2, 3], [4], [5], [6], [6, 7]]);
  });

  it('read a dotted sortBy field, and refuse a current value of the wrong type', async () => {
    const nested = [1, 2, 4, 7].map((v, i) => ({ _id: i + 1, t: { v } }));
    const sums = await aggregateOn(t.db, nested, [
      {
        $setWindowFields: {
          sortBy: { 't.v': 1 },
          output: { s: { $sum: '$t.v', window: { range: [-1, 1] } } },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(sums.map((doc) => doc['s'])).toEqual([3, 3, 4, 7]);

    const run = (rows: Record<string, unknown>[], window: object) =>
      failure(() =>
        aggregateOn(t.db, rows, [
          { $setWindowFields: { sortBy: { v: 1 }, output: { n: { $count: {}, window } } } },
        ]),
      );
    const numbers = [
      { _id: 1, v: null },
      { _id: 2, v: 1 },
    ];
    expect(await run(numbers, { range: [-1, 1] })).toMatchObject({
      code: 5429414,
      message: expect.stringContaining(
        'Invalid range: Expected the sortBy field to be a number, but it was null',
      ),
    });
    const days = [{ _id: 1, v: new Date('2024-01-01') }];
    expect(await run(days, { range: [-1, 1] })).toMatchObject({ code: 5429413 });
    expect(await run([{ _id: 1, v: 5 }], { range: [-1, 1], unit: 'day' })).toMatchObject({
      code: 5429513,
      message: expect.stringContaining('Expected the sortBy field to be a Date, but it was int'),
    });
  });

  it('refuse a descending sortBy once a document reaches the window (5429404), instead of bounding it as ascending', async () => {
    // partition_iterator.cpp (7.0) `exprFromSort`: "Descending sorts are not allowed with range-based
    // bounds", so getEndpointsRangeBased fails tassert(5429404, "Missing _sortExpr with range-based bounds").
    const rows = [0, 5, 10, 20, 30].map((v) => ({ _id: v, t: v }));
    const stage = (window: object) => ({
      $setWindowFields: { sortBy: { t: -1 }, output: { s: { $sum: '$t', window } } },
    });
    for (const window of [{ range: [-10, 0] }, { range: ['unbounded', 'current'] }]) {
      expect(await failure(() => aggregateOn(t.db, rows, [stage(window)]))).toMatchObject({
        code: 5429404,
        message: 'Missing _sortExpr with range-based bounds',
      });
    }
    // Documents windows and an empty collection run as before.
    const documents = await aggregateOn(t.db, rows, [stage({ documents: [-1, 0] }), { $sort: { _id: 1 } }]);
    expect(documents.map((doc) => doc['s'])).toEqual([5, 15, 30, 50, 30]);
    expect(await aggregateOn(t.db, [], [stage({ range: [-10, 0] })])).toEqual([]);
  });
});
