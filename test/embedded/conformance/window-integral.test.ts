/**
 * `$integral` and `$derivative` over sliding windows, as MongoDB 7.0 computes them:
 * - `$integral` (window_function_integral.cpp and .h): the trapezoids between neighbouring points,
 *   `((y₁ + y₂) × (x₂ − x₁)) ÷ 2` with `$add`/`$subtract`/`$multiply`/`$divide`'s types (a decimal
 *   input makes a decimal area), kept in a removable sum (WindowFunctionSum, window_function_sum.h): a
 *   point with a NaN adds an area of 0 and makes the result NaN while it is in the window; a window of
 *   one point sums no area, the int 0; an empty window is null;
 * - `$derivative` (window_function_exec_derivative.cpp): (last − first input) ÷ (last − first sortBy)
 *   over the window's first and last documents only, null over one document.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typed } from '../helpers.js';

describe.each(drivers)('setWindowFields integral and derivative over sliding windows ($name)', (driver) => {
  const t = connect(driver, 'window_integral');
  const { Long, Double, Decimal128 } = driver.bson;

  /** Points `{ _id: x, x, y }`, then each document's output `op` over `window`, as typed values. */
  async function windowed(op: Record<string, unknown>, window: Record<string, unknown>) {
    const coll = t.db.collection<{ _id: number; x: number; y: unknown }>('points');
    await coll.deleteMany({});
    const ys = [1, Long.fromNumber(2), new Double(3.5), new Double(NaN), 4, Decimal128.fromString('1'), 2];
    await coll.insertMany(ys.map((y, x) => ({ _id: x, x, y })));
    const docs = await coll
      .aggregate([{ $setWindowFields: { sortBy: { x: 1 }, output: { r: { ...op, window } } } }], {
        promoteValues: false,
      })
      .toArray();
    return docs.map((doc) => typed(doc['r']));
  }

  it('slide an integral: trapezoids enter and leave, a NaN point holds the result at NaN', async () => {
    // Areas: 1.5, 2.75, 0 (NaN), 0 (NaN), decimal 2.5, decimal 1.5.
    expect(await windowed({ $integral: { input: '$y' } }, { documents: [-2, 0] })).toEqual([
      'Int32 0',
      'Double 1.5',
      'Double 4.25',
      'Double NaN',
      'Double NaN',
      'Double NaN',
      'Decimal128 4.0',
    ]);
    expect(await windowed({ $integral: { input: '$y' } }, { range: [-1, 0] })).toEqual([
      'Int32 0',
      'Double 1.5',
      'Double 2.75',
      'Double NaN',
      'Double NaN',
      'Decimal128 2.5',
      'Decimal128 1.5',
    ]);
    expect(await windowed({ $integral: { input: '$y' } }, { documents: [1, 2] })).toEqual([
      'Double 2.75',
      'Double NaN',
      'Double NaN',
      'Decimal128 2.5',
      'Decimal128 1.5',
      'Int32 0',
      null,
    ]);
  });

  it('slide a derivative over its first and last documents', async () => {
    expect(await windowed({ $derivative: { input: '$y' } }, { documents: [-2, 0] })).toEqual([
      null,
      'Double 1',
      'Double 1.25',
      'Double NaN',
      'Double 0.25',
      // A decimal minus a NaN double is a decimal NaN.
      'Decimal128 NaN',
      'Double -1',
    ]);
  });
});
