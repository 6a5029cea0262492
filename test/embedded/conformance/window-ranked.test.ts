/**
 * `$setWindowFields` functions that pick by order — `$minN`/`$maxN`, `$top`/`$bottom`/`$topN`/
 * `$bottomN` — and `$firstN`/`$lastN` over windows documents enter and leave, as MongoDB 7.0 computes
 * them: over a window with a lower bound, a multiset of the window's values (window_function_min_max.h)
 * or documents by sort key (window_function_top_bottom_n.h, AccumulatorTopBottomN with isRemovable)
 * where each entering one goes after its equals and the leaving one is the oldest of its equals;
 * `$maxN` reads the multiset from its end, so the latest of equal values comes first; `$bottomN` answers
 * the last n in sort order. Over a window whose lower bound is `'unbounded'` the accumulator keeps n
 * and a value replaces the worst kept only when strictly better (accumulator_multi.cpp
 * AccumulatorMinMaxN::_processValue, AccumulatorTopBottomN::_processValue: "When the sort key produces a
 * tie we keep the first value seen"). `$minN`/`$maxN` ignore null and missing; `$firstN`/`$lastN` answer
 * null for a missing value (AccumulatorFirstLastN::_processValue); `n` may be any constant expression
 * and may exceed the window (manual: $minN, $topN, $firstN, "n" … "If n is greater than the number of
 * documents, return all").
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typed } from '../helpers.js';

describe.each(drivers)('setWindowFields ranked functions over moving windows ($name)', (driver) => {
  const t = connect(driver, 'window_ranked');
  const { Long, Double } = driver.bson;

  /** Seven documents: equal values of other types (1, NumberLong(1)), null, missing, a string. */
  async function mixed() {
    const coll = t.db.collection<{ _id: number; [key: string]: unknown }>('mixed');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, v: 1, k: 2 },
      { _id: 2, v: Long.fromNumber(1), k: 1 },
      { _id: 3, v: new Double(3), k: 2 },
      { _id: 4, v: null, k: 1 },
      { _id: 5, k: 2 },
      { _id: 6, v: 1, k: null },
      { _id: 7, v: 'a' },
    ]);
    return coll;
  }

  /** Each output of `output` over the mixed documents sorted by _id, as typed values by field. */
  async function outputs(output: Record<string, unknown>) {
    const coll = await mixed();
    const docs = await coll
      .aggregate([{ $setWindowFields: { sortBy: { _id: 1 }, output } }, { $sort: { _id: 1 } }], {
        promoteValues: false,
      })
      .toArray();
    return Object.fromEntries(Object.keys(output).map((f) => [f, docs.map((doc) => typed(doc[f]))]));
  }

  it('pick the n smallest and largest values of a sliding window, the latest of equal values first for $maxN', async () => {
    const window = { documents: [-2, 0] };
    const got = await outputs({
      min: { $minN: { input: '$v', n: 2 }, window },
      max: { $maxN: { input: '$v', n: { $add: [1, 1] } }, window },
      all: { $maxN: { input: '$v', n: 5 }, window },
      greatest: { $max: '$v', window },
    });
    // $max answers the multiset's last element too (WindowFunctionMinMax::getValue, rbegin).
    expect(got['greatest']).toEqual([
      'Int32 1',
      'Long 1',
      'Double 3',
      'Double 3',
      'Double 3',
      'Int32 1',
      'a',
    ]);
    expect(got['min']).toEqual([
      ['Int32 1'],
      ['Int32 1', 'Long 1'],
      ['Int32 1', 'Long 1'],
      ['Long 1', 'Double 3'],
      ['Double 3'],
      ['Int32 1'],
      ['Int32 1', 'a'],
    ]);
    expect(got['max']).toEqual([
      ['Int32 1'],
      ['Long 1', 'Int32 1'],
      ['Double 3', 'Long 1'],
      ['Double 3', 'Long 1'],
      ['Double 3'],
      ['Int32 1'],
      ['a', 'Int32 1'],
    ]);
    expect(got['all']).toEqual([
      ['Int32 1'],
      ['Long 1', 'Int32 1'],
      ['Double 3', 'Long 1', 'Int32 1'],
      ['Double 3', 'Long 1'],
      ['Double 3'],
      ['Int32 1'],
      ['a', 'Int32 1'],
    ]);
  });

  it('keep the first of equal values in a running $minN / $maxN', async () => {
    const window = { documents: ['unbounded', 'current'] };
    const got = await outputs({
      min: { $minN: { input: '$v', n: 1 }, window },
      max: { $maxN: { input: '$v', n: 2 }, window },
      greatest: { $max: '$v', window },
    });
    // AccumulatorMinMax replaces its value only with a greater one: the first of equal values stays.
    expect(got['greatest']!.slice(0, 2)).toEqual(['Int32 1', 'Int32 1']);
    expect(got['min']).toEqual(Array(7).fill(['Int32 1']));
    // 1 and NumberLong(1) are kept; the later 1 of _id 6 ties with the smallest kept and stays out.
    expect(got['max']).toEqual([
      ['Int32 1'],
      ['Long 1', 'Int32 1'],
      ['Double 3', 'Long 1'],
      ['Double 3', 'Long 1'],
      ['Double 3', 'Long 1'],
      ['Double 3', 'Long 1'],
      ['a', 'Double 3'],
    ]);
  });

  it('rank a sliding window by sort key, ties in window order, missing and null keys lowest', async () => {
    const window = { documents: [-2, 0] };
    const got = await outputs({
      top: { $topN: { sortBy: { k: 1 }, output: '$_id', n: 2 }, window },
      bottom: { $bottomN: { sortBy: { k: 1 }, output: '$_id', n: 2 }, window },
      first: { $top: { sortBy: { k: -1 }, output: '$v' }, window },
      last: { $bottom: { sortBy: { k: -1 }, output: '$v' }, window },
    });
    expect(got['top']).toEqual([
      ['Int32 1'],
      ['Int32 2', 'Int32 1'],
      ['Int32 2', 'Int32 1'],
      ['Int32 2', 'Int32 4'],
      ['Int32 4', 'Int32 3'],
      ['Int32 6', 'Int32 4'],
      ['Int32 6', 'Int32 7'],
    ]);
    expect(got['bottom']).toEqual([
      ['Int32 1'],
      ['Int32 2', 'Int32 1'],
      ['Int32 1', 'Int32 3'],
      ['Int32 4', 'Int32 3'],
      ['Int32 3', 'Int32 5'],
      ['Int32 4', 'Int32 5'],
      ['Int32 7', 'Int32 5'],
    ]);
    // $top by k descending: the first document of the highest k; its missing v answers null.
    expect(got['first']).toEqual(['Int32 1', 'Int32 1', 'Int32 1', 'Double 3', 'Double 3', null, null]);
    expect(got['last']).toEqual(['Int32 1', 'Long 1', 'Long 1', null, null, 'Int32 1', 'a']);
  });

  it('keep the first of tied documents in a running $bottomN', async () => {
    const window = { documents: ['unbounded', 'current'] };
    const got = await outputs({
      bottom: { $bottomN: { sortBy: { k: 1 }, output: '$_id', n: 1 }, window },
      top: { $topN: { sortBy: { k: 1 }, output: '$_id', n: 1 }, window },
    });
    // _id 3 and 5 tie with _id 1 on k: 2; the running $bottomN keeps _id 1, the first seen.
    expect(got['bottom']).toEqual(Array(7).fill(['Int32 1']));
    expect(got['top']).toEqual([
      ['Int32 1'],
      ['Int32 2'],
      ['Int32 2'],
      ['Int32 2'],
      ['Int32 2'],
      ['Int32 6'],
      ['Int32 6'],
    ]);
  });

  it('answer the first and last n values of each window, missing as null', async () => {
    const window = { documents: [-1, 1] };
    const got = await outputs({
      first: { $firstN: { input: '$v', n: 2 }, window },
      last: { $lastN: { input: '$v', n: Long.fromNumber(2) }, window },
      all: { $firstN: { input: '$v', n: 10 }, window: { documents: [0, 1] } },
    });
    expect(got['first']).toEqual([
      ['Int32 1', 'Long 1'],
      ['Int32 1', 'Long 1'],
      ['Long 1', 'Double 3'],
      ['Double 3', null],
      [null, null],
      [null, 'Int32 1'],
      ['Int32 1', 'a'],
    ]);
    expect(got['last']).toEqual([
      ['Int32 1', 'Long 1'],
      ['Long 1', 'Double 3'],
      ['Double 3', null],
      [null, null],
      [null, 'Int32 1'],
      ['Int32 1', 'a'],
      ['Int32 1', 'a'],
    ]);
    expect(got['all']).toEqual([
      ['Int32 1', 'Long 1'],
      ['Long 1', 'Double 3'],
      ['Double 3', null],
      [null, null],
      [null, 'Int32 1'],
      ['Int32 1', 'a'],
      ['a'],
    ]);
  });

  it('answer over 20,000 documents with a 1,000-document window', async () => {
    const N = 20_000;
    const coll = t.db.collection<{ _id: number; t: number; x: number }>('large');
    await coll.deleteMany({});
    // x falls and rises so the window's extremes change as documents leave.
    await coll.insertMany(Array.from({ length: N }, (_, i) => ({ _id: i, t: i, x: (i * 7919) % 1000 })));
    const window = { documents: [-999, 0] };
    const picked = [0, 500, 999, 12_345, N - 1];
    const rows = await coll
      .aggregate([
        {
          $setWindowFields: {
            sortBy: { t: 1 },
            output: {
              min: { $minN: { input: '$x', n: 3 }, window },
              max: { $maxN: { input: '$x', n: 3 }, window },
              top: { $topN: { sortBy: { x: -1 }, output: '$_id', n: 2 }, window },
              last: { $lastN: { input: '$x', n: 2 }, window },
            },
          },
        },
        { $match: { _id: { $in: picked } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    const xs = Array.from({ length: N }, (_, i) => (i * 7919) % 1000);
    expect(rows).toEqual(
      picked.map((i) => {
        const ids = Array.from({ length: Math.min(i + 1, 1000) }, (_, k) => i - k).reverse();
        const sorted = ids.map((id) => xs[id]!).sort((a, b) => a - b);
        const byX = [...ids].sort((a, b) => xs[b]! - xs[a]! || a - b);
        return {
          _id: i,
          t: i,
          x: xs[i],
          min: sorted.slice(0, 3),
          max: sorted.slice(-3).reverse(),
          top: byX.slice(0, 2),
          last: ids.slice(-2).map((id) => xs[id]),
        };
      }),
    );
  });
});
