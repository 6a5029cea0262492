/**
 * `$sum` and `$avg` totals as MongoDB 7.0 keeps them: ints, longs and doubles in a double-double total
 * (DoubleDoubleSummation, src/mongo/util/summation.h: 2Sum and Fast2Sum, the result the rounded half),
 * decimals in a decimal total (accumulator_sum.cpp); in a `$setWindowFields` window whose lower bound is
 * not `'unbounded'` a value leaves by adding its negation, NaN and infinities are counted apart and the
 * result is typed by the values still in the window (RemovableSum, window_function_sum.h and .cpp;
 * WindowFunctionAvg, window_function_avg.h; window_function_sum_test.cpp NarrowestType1-3 and Overflow).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typed } from '../helpers.js';

describe.each(drivers)('sum and avg totals ($name)', (driver) => {
  const t = connect(driver, 'sum_totals');
  const { Long, Double, Decimal128 } = driver.bson;

  /** The values as documents `{ _id: i, v }` of a fresh collection. */
  async function load(name: string, values: unknown[]) {
    const coll = t.db.collection<{ _id: number; v?: unknown }>(name);
    await coll.deleteMany({});
    await coll.insertMany(values.map((v, i) => (v === undefined ? { _id: i } : { _id: i, v })));
    return coll;
  }

  /** Each document's `$sum` and `$avg` over `window`, as typed values. */
  async function windowed(name: string, values: unknown[], window: Record<string, unknown>) {
    const coll = await load(name, values);
    const docs = await coll
      .aggregate(
        [
          {
            $setWindowFields: {
              sortBy: { _id: 1 },
              output: { s: { $sum: '$v', window }, a: { $avg: '$v', window } },
            },
          },
        ],
        { promoteValues: false },
      )
      .toArray();
    return { sum: docs.map((doc) => typed(doc['s'])), avg: docs.map((doc) => typed(doc['a'])) };
  }

  it('sum doubles in double-double precision, in $group as in a window', async () => {
    const coll = await load(
      'tenths',
      [0.1, 0.2, 0.3].map((v) => new Double(v)),
    );
    const [group] = await coll
      .aggregate([{ $group: { _id: null, s: { $sum: '$v' }, a: { $avg: '$v' } } }])
      .toArray();
    // A plain left-to-right sum gives 0.6000000000000001; the double-double total rounds to 0.6.
    expect(group).toEqual({ _id: null, s: 0.6, a: 0.6 / 3 });
    const running = await windowed(
      'tenths',
      [0.1, 0.2, 0.3].map((v) => new Double(v)),
      {
        documents: ['unbounded', 'current'],
      },
    );
    expect(running.sum).toEqual(['Double 0.1', 'Double 0.30000000000000004', 'Double 0.6']);
  });

  it('take values off a sliding sum by adding their negation, specials counted apart', async () => {
    const values = [
      new Double(0.1),
      new Double(0.2),
      new Double(0.3),
      Long.fromNumber(2),
      1,
      new Double(NaN),
      new Double(Infinity),
      4,
      Decimal128.fromString('0.1'),
      new Double(2.5),
      new Double(-0),
      null,
      'x',
      undefined,
      7,
    ];
    const got = await windowed('mixed', values, { documents: [-2, 0] });
    expect(got.sum).toEqual([
      'Double 0.1',
      'Double 0.30000000000000004',
      'Double 0.6',
      // 0.1 left: the total of 0.2 + 0.3 + 2 is still exact enough to round to 2.5.
      'Double 2.5',
      'Double 3.3',
      // Any NaN, or both infinities, answer NaN; a decimal among the values makes it a decimal.
      'Double NaN',
      'Double NaN',
      'Double NaN',
      'Decimal128 Infinity',
      'Decimal128 6.6',
      'Decimal128 2.6',
      // The decimal left: the total narrows to a double while a double is in the window …
      'Double 2.5',
      'Double 0',
      // … and to an int once none is.
      'Int32 0',
      'Int32 7',
    ]);
    expect(got.avg).toEqual([
      'Double 0.1',
      'Double 0.15000000000000002',
      'Double 0.19999999999999998',
      'Double 0.8333333333333334',
      'Double 1.0999999999999999',
      'Double NaN',
      'Double NaN',
      'Double NaN',
      'Decimal128 Infinity',
      'Decimal128 2.2',
      'Decimal128 0.8666666666666666666666666666666667',
      'Double 1.25',
      'Double 0',
      null,
      'Double 7',
    ]);
  });

  it('type a sliding sum by the values still in its window, a running sum by every value met', async () => {
    const sliding = await windowed('narrowing', [1, new Double(1.5), 2, 3], { documents: [-1, 0] });
    // [2, 3]: an int again once the double has left (NarrowestType2).
    expect(sliding.sum).toEqual(['Int32 1', 'Double 2.5', 'Double 3.5', 'Int32 5']);
    const max = Long.fromString('9223372036854775807');
    const overflow = await windowed('overflow', [max, 1, 2], { documents: [-1, 0] });
    // Past a long the sum is a double (2^63); [1, 2] is an int though a long was met (NarrowestType3).
    expect(overflow.sum).toEqual(['Long 9223372036854775807', 'Double 9223372036854776000', 'Int32 3']);
    const longs = [Long.fromNumber(5), Long.fromNumber(6), 7];
    const slidingLongs = await windowed('longs', longs, { documents: [-1, 0] });
    // A long total that fits 32 bits is an int in a sliding window (createIntOrLong) …
    expect(slidingLongs.sum).toEqual(['Int32 5', 'Int32 11', 'Int32 13']);
    const runningLongs = await windowed('longs', longs, { documents: ['unbounded', 'current'] });
    // … and a long in a running one, as in $group (AccumulatorSum::getValue).
    expect(runningLongs.sum).toEqual(['Long 5', 'Long 11', 'Long 18']);
  });
});
