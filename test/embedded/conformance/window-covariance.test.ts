/**
 * `$covariancePop` and `$covarianceSamp` over `$setWindowFields` windows, as MongoDB 7.0 computes them
 * (WindowFunctionCovariance, window_function_covariance.cpp): an online (Welford) covariance whose
 * pairs enter and leave the window, with running means (removable `$avg`) and a removable sum of
 * co-moments under MongoDB's `$subtract`/`$multiply`, so ints and doubles answer a double and a decimal
 * among the values a decimal; a value that is not an array of two numbers is ignored; one pair's
 * population covariance is 0.0 and the sample covariance of fewer than two pairs null; a NaN or an
 * infinity in a pair makes the answer NaN or infinite while it is in the window. The manual
 * ($covariancePop, $covarianceSamp pages) defines the results; these values are worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typed } from '../helpers.js';

describe.each(drivers)('setWindowFields covariance ($name)', (driver) => {
  const t = connect(driver, 'window_covariance');
  const { Decimal128, Long } = driver.bson;

  /** The covariances of `[x, y]` over `window` for documents `{ _id, x, y }` sorted by _id, typed. */
  async function covariances(rows: Record<string, unknown>[], window: Record<string, unknown>) {
    const coll = t.db.collection<{ _id: number; [key: string]: unknown }>('c');
    await coll.deleteMany({});
    await coll.insertMany(rows.map((row, i) => ({ _id: i + 1, ...row })));
    const docs = await coll
      .aggregate(
        [
          {
            $setWindowFields: {
              sortBy: { _id: 1 },
              output: {
                pop: { $covariancePop: ['$x', '$y'], window },
                samp: { $covarianceSamp: ['$x', '$y'], window },
              },
            },
          },
          { $sort: { _id: 1 } },
        ],
        { promoteValues: false },
      )
      .toArray();
    return { pop: docs.map((d) => typed(d['pop'])), samp: docs.map((d) => typed(d['samp'])) };
  }

  it('answer a double over ints and longs as pairs enter and leave a sliding window', async () => {
    const rows = [
      { x: 1, y: 2 },
      { x: Long.fromNumber(2), y: 4 },
      // Means that are exact in binary (15 / 3) keep the co-moment left after (1, 2) leaves exact.
      { x: 3, y: 9 },
      { x: 'a', y: 1 },
      { y: 5 },
      { x: 5, y: 1 },
    ];
    const got = await covariances(rows, { documents: [-1, 0] });
    // At _id 5 the last pair has left: no pairs, null.
    expect(got.pop).toEqual(['Double 0', 'Double 0.5', 'Double 1.25', 'Double 0', null, 'Double 0']);
    expect(got.samp).toEqual([null, 'Double 1', 'Double 2.5', null, null, null]);
  });

  it('answer over the whole partition and a running window', async () => {
    const rows = [
      { x: 1, y: 2 },
      { x: 2, y: 4 },
      { x: 3, y: 7 },
    ];
    const whole = await covariances(rows, { documents: ['unbounded', 'unbounded'] });
    // Means 2 and 13/3; co-moments (-1)(-7/3) + 0 + (1)(8/3) = 5.
    expect(whole.pop).toEqual(Array(3).fill(`Double ${5 / 3}`));
    expect(whole.samp).toEqual(Array(3).fill('Double 2.5'));
    const running = await covariances(rows, { documents: ['unbounded', 'current'] });
    expect(running.pop).toEqual(['Double 0', 'Double 0.5', `Double ${5 / 3}`]);
  });

  it('answer a decimal when a decimal is among the values', async () => {
    const rows = [
      { x: Decimal128.fromString('1'), y: 2 },
      { x: 2, y: 4 },
    ];
    const got = await covariances(rows, { documents: [-1, 0] });
    expect(got.pop[0]).toBe('Double 0');
    expect(got.pop[1]).toMatch(/^Decimal128 0\.50*$/);
    expect(got.samp[1]).toMatch(/^Decimal128 1(\.0*)?$/);
  });

  it('answer NaN or an infinity while such a pair is in the window', async () => {
    const rows = [
      { x: 1, y: 2 },
      { x: 2, y: 4 },
      { x: Infinity, y: 1 },
      { x: 3, y: 7 },
      { x: 4, y: 8 },
      { x: Infinity, y: -Infinity },
      { x: 5, y: 9 },
    ];
    const got = await covariances(rows, { documents: [-2, 0] });
    expect(got.pop).toEqual([
      'Double 0',
      'Double 0.5',
      'Double Infinity',
      'Double Infinity',
      'Double Infinity',
      'Double NaN',
      'Double NaN',
    ]);
    expect(got.samp).toEqual([
      null,
      'Double 1',
      'Double Infinity',
      'Double Infinity',
      'Double Infinity',
      'Double NaN',
      'Double NaN',
    ]);
    // With one finite pair left beside the infinity, the population covariance is 0.0, the sample null.
    const narrow = await covariances(rows, { documents: [-1, 0] });
    expect(narrow.pop.slice(2, 4)).toEqual(['Double 0', 'Double 0']);
    expect(narrow.samp.slice(2, 5)).toEqual([null, null, 'Double 0.5']);
  });
});
