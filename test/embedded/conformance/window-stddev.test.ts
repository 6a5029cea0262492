/**
 * `$stdDevPop` and `$stdDevSamp` over running and sliding `$setWindowFields` windows, as MongoDB 7.0
 * computes them, every number as a double: a running window runs AccumulatorStdDev's Welford update
 * (accumulator_std_dev.cpp: null for the sample of one number, 0 for its population); a sliding window
 * runs WindowFunctionStdDev (window_function_stddev.h; window_function_std_dev_test.cpp SingletonWindow,
 * Remove1, HandlesNonfinite): sums of the values and of their squared differences that a leaving value
 * is taken off, a population of one number the int 0, an infinity or NaN in the window NaN.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typed } from '../helpers.js';

describe.each(drivers)('setWindowFields standard deviations ($name)', (driver) => {
  const t = connect(driver, 'window_stddev');
  const { Double, Decimal128 } = driver.bson;

  /** Each document's `pop / samp` over `window`. */
  async function deviations(window: Record<string, unknown>) {
    const coll = t.db.collection<{ _id: number; v: unknown }>('values');
    await coll.deleteMany({});
    const values = [1, 2, 4, 'x', 5, 7, Decimal128.fromString('10'), new Double(Infinity)];
    await coll.insertMany(values.map((v, i) => ({ _id: i, v })));
    const docs = await coll
      .aggregate(
        [
          {
            $setWindowFields: {
              sortBy: { _id: 1 },
              output: { p: { $stdDevPop: '$v', window }, s: { $stdDevSamp: '$v', window } },
            },
          },
        ],
        { promoteValues: false },
      )
      .toArray();
    return docs.map((doc) => `${String(typed(doc['p']))} / ${String(typed(doc['s']))}`);
  }

  it('take a leaving value off a sliding deviation', async () => {
    // [1], [1, 2], [2, 4], [4, 'x'], ['x', 5], [5, 7], [7, 10 (decimal)], [10, Infinity].
    expect(await deviations({ documents: [-1, 0] })).toEqual([
      'Int32 0 / null',
      'Double 0.5 / Double 0.7071067811865476',
      'Double 1 / Double 1.4142135623730951',
      'Int32 0 / null',
      'Int32 0 / null',
      'Double 1 / Double 1.4142135623730951',
      'Double 1.5 / Double 2.1213203435596424',
      'Double NaN / Double NaN',
    ]);
  });

  it('run a running deviation with Welford updates', async () => {
    expect(await deviations({ documents: ['unbounded', 'current'] })).toEqual([
      'Double 0 / null',
      'Double 0.5 / Double 0.7071067811865476',
      'Double 1.247219128924647 / Double 1.5275252316519465',
      'Double 1.247219128924647 / Double 1.5275252316519465',
      'Double 1.5811388300841898 / Double 1.8257418583505538',
      'Double 2.1354156504062622 / Double 2.3874672772626644',
      'Double 3.023059524536176 / Double 3.3115957885386114',
      'Double NaN / Double NaN',
    ]);
  });
});
