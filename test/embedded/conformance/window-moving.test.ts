/**
 * `$setWindowFields` running windows (`['unbounded', 'current']`) and sliding windows (`[-k, 0]`,
 * `range: [-r, 0]`) keep each function's state from one document to the next, as MongoDB 7.0 does
 * (WindowFunctionExecNonRemovable in window_function_exec_non_removable.h adds each document once;
 * window_function_exec_removable_document.cpp and …_range.cpp add the documents that enter the window and
 * remove those that leave, from states such as RemovableSum in window_function_sum.h, which counts the
 * doubles and decimals it holds so the result's type follows the values still in the window). The
 * embedded database recomputed every window from scratch: a running `$sum` over 20,000 documents took
 * minutes. The expected values follow the manual's definitions (docs.mongodb.com, $setWindowFields,
 * $sum, $avg, $min, $max, $count, $push): non-numbers are ignored by `$sum`/`$avg`, `$sum` is an int while
 * every value is, a long once one is, a double once one is; `$min`/`$max` compare values of any type in
 * BSON order and ignore null and missing; `$push` leaves out missing values and keeps nulls.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typed } from '../helpers.js';

/** Documents in the large partition. */
const N = 20_000;

/** Typed values as one line: `'Int32 1, Long 3'`. */
const listed = (values: unknown): string => (values as unknown[]).join(', ');

describe.each(drivers)('setWindowFields running and sliding windows ($name)', (driver) => {
  const t = connect(driver, 'window_moving');
  const { Long, Double } = driver.bson;

  /** Seven documents of one partition: ints, a long, a double, a string, a null, a missing value. */
  async function mixed() {
    const coll = t.db.collection<{ _id: number; [key: string]: unknown }>('mixed');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, t: 1, v: 1 },
      { _id: 2, t: 2, v: Long.fromNumber(2) },
      { _id: 3, t: 2 },
      { _id: 4, t: 3, v: 1.5 },
      { _id: 5, t: 4, v: 'x' },
      { _id: 6, t: 5, v: 4 },
      { _id: 7, t: 5, v: null },
    ]);
    return coll;
  }

  /** Each output of `window` over the mixed documents, by `_id`, as typed values. */
  async function outputs(window: Record<string, unknown>, sortBy: Record<string, number>) {
    const coll = await mixed();
    const out = (op: string) => ({ [op]: op === '$count' ? {} : '$v', window });
    const fields = ['$sum', '$avg', '$min', '$max', '$count', '$push'];
    const docs = await coll
      .aggregate(
        [
          {
            $setWindowFields: {
              sortBy,
              output: Object.fromEntries(fields.map((op) => [op.slice(1), out(op)])),
            },
          },
          { $sort: { _id: 1 } },
        ],
        { promoteValues: false },
      )
      .toArray();
    return Object.fromEntries(fields.map((op) => [op.slice(1), docs.map((doc) => typed(doc[op.slice(1)]))]));
  }

  it('compute running windows over mixed types and missing values', async () => {
    const got = await outputs({ documents: ['unbounded', 'current'] }, { t: 1, _id: 1 });
    expect(listed(got['sum'])).toBe(
      'Int32 1, Long 3, Long 3, Double 4.5, Double 4.5, Double 8.5, Double 8.5',
    );
    expect(listed(got['avg'])).toBe(
      'Double 1, Double 1.5, Double 1.5, Double 1.5, Double 1.5, Double 2.125, Double 2.125',
    );
    expect(got['min']).toEqual(Array(7).fill('Int32 1'));
    expect(got['max']).toEqual(['Int32 1', 'Long 2', 'Long 2', 'Long 2', 'x', 'x', 'x']);
    expect(got['count']).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `Int32 ${n}`));
    const pushed = ['Int32 1', 'Long 2', 'Double 1.5', 'x', 'Int32 4', null];
    expect(got['push']).toEqual([1, 2, 2, 3, 4, 5, 6].map((n) => pushed.slice(0, n)));
  });

  it('compute sliding document windows, the result type following the values still in the window', async () => {
    const got = await outputs({ documents: [-1, 0] }, { t: 1, _id: 1 });
    // [1], [1, 2L], [2L, missing], [missing, 1.5], [1.5, 'x'], ['x', 4], [4, null]. A removable sum
    // narrows a long that fits 32 bits to an int (RemovableSum::getValue, window_function_sum.cpp;
    // window_function_sum_test.cpp NarrowestType3), where a running sum keeps the long.
    expect(listed(got['sum'])).toBe('Int32 1, Int32 3, Int32 2, Double 1.5, Double 1.5, Int32 4, Int32 4');
    expect(listed(got['avg'])).toBe(
      'Double 1, Double 1.5, Double 2, Double 1.5, Double 1.5, Double 4, Double 4',
    );
    expect(listed(got['min'])).toBe('Int32 1, Int32 1, Long 2, Double 1.5, Double 1.5, Int32 4, Int32 4');
    expect(got['max']).toEqual(['Int32 1', 'Long 2', 'Long 2', 'Double 1.5', 'x', 'x', 'Int32 4']);
    expect(got['count']).toEqual([1, 2, 2, 2, 2, 2, 2].map((n) => `Int32 ${n}`));
    expect(got['push']).toEqual([
      ['Int32 1'],
      ['Int32 1', 'Long 2'],
      ['Long 2'],
      ['Double 1.5'],
      ['Double 1.5', 'x'],
      ['x', 'Int32 4'],
      ['Int32 4', null],
    ]);
  });

  it('compute sliding range windows that take in every document tied on the sortBy value', async () => {
    const got = await outputs({ range: [-1, 0] }, { t: 1 });
    // t ∈ [t − 1, t]: {1}, {1, 2L, missing} twice, {2L, missing, 1.5}, {1.5, 'x'}, {'x', 4, null} twice
    expect(listed(got['sum'])).toBe('Int32 1, Int32 3, Int32 3, Double 3.5, Double 1.5, Int32 4, Int32 4');
    expect(listed(got['avg'])).toBe(
      'Double 1, Double 1.5, Double 1.5, Double 1.75, Double 1.5, Double 4, Double 4',
    );
    expect(listed(got['min'])).toBe('Int32 1, Int32 1, Int32 1, Double 1.5, Double 1.5, Int32 4, Int32 4');
    expect(got['max']).toEqual(['Int32 1', 'Long 2', 'Long 2', 'Long 2', 'x', 'x', 'x']);
    expect(got['count']).toEqual([1, 3, 3, 3, 2, 3, 3].map((n) => `Int32 ${n}`));
  });

  /** The collection of N documents `{ _id: i, t: i, x: i }`, created once. */
  async function large() {
    const coll = t.db.collection<{ _id: number; t: number; x: number }>('large');
    if ((await coll.estimatedDocumentCount()) === 0) {
      await coll.insertMany(Array.from({ length: N }, (_, i) => ({ _id: i, t: i, x: i })));
    }
    return coll;
  }

  it('answer running and sliding windows over a large partition', async () => {
    const coll = await large();
    const picked = [0, 99, 100, 12_345, N - 1];
    const rows = await coll
      .aggregate([
        {
          $setWindowFields: {
            sortBy: { t: 1 },
            output: {
              running: { $sum: '$x', window: { documents: ['unbounded', 'current'] } },
              rangeRunning: { $sum: '$x', window: { range: ['unbounded', 'current'] } },
              sliding: { $avg: '$x', window: { documents: [-100, 0] } },
              rangeSliding: { $max: '$x', window: { range: [-100, 0] } },
            },
          },
        },
        { $match: { _id: { $in: picked } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual(
      picked.map((i) => ({
        _id: i,
        t: i,
        x: i,
        running: (i * (i + 1)) / 2,
        rangeRunning: (i * (i + 1)) / 2,
        sliding: i < 100 ? i / 2 : i - 50,
        rangeSliding: i,
      })),
    );
  });

  it('sum the doubles of each sliding window as if alone, after a large value has left', async () => {
    const coll = t.db.collection<{ _id: number; [key: string]: unknown }>('doubles');
    await coll.deleteMany({});
    await coll.insertMany([1e16, 1, 1, 0.5].map((v, i) => ({ _id: i, v: new Double(v) })));
    const window = { documents: [-1, 0] };
    const docs = await coll
      .aggregate([
        { $setWindowFields: { sortBy: { _id: 1 }, output: { s: { $sum: '$v', window } } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    // 1e16 + 1 rounds to 1e16, but MongoDB's double-double total keeps the 1 it misses, so taking
    // 1e16 off again leaves 1 + 1 exactly (DoubleDoubleSummation, summation.h).
    expect(docs.map((doc) => doc['s'])).toEqual([1e16, 1e16 + 1, 2, 1.5]);
  });
});
