/**
 * Which of equal values `$minN`/`$maxN` keep and in what order, and which of documents with equal sort
 * keys `$top`/`$bottom`/`$topN`/`$bottomN` keep, in `$group` and as array expressions, as MongoDB 7.0's
 * accumulators decide (accumulator_multi.cpp). Each keeps its values in a multiset where an entering
 * value goes after its equals, and once it holds n, a new value replaces the worst kept only when
 * strictly better ("When the sort key produces a tie we keep the first value seen"): `$minN`/`$topN`
 * drop the last of the largest, `$maxN`/`$bottomN` the first of the smallest
 * (AccumulatorMinMaxN::_processValue, AccumulatorTopBottomN::_processValue). `$minN`, `$top`, `$topN`,
 * `$bottom` and `$bottomN` answer the multiset from its start, equal ones in the order seen; `$maxN` from
 * its end (AccumulatorMinMaxN::getValue, rbegin), so of equal values the one seen last comes first. The
 * array expressions run the same accumulator over the array's elements (evaluateAccumulatorN).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typed } from '../helpers.js';

type Doc = Record<string, any>;

describe.each(drivers)('ties in the N accumulators ($name)', (driver) => {
  const t = connect(driver, 'group_ties');
  const { Long, Double } = driver.bson;

  /** `accumulators` over one group of `values` (as field v, in order), typed. */
  async function grouped(values: unknown[], accumulators: Doc): Promise<Doc> {
    const coll = t.db.collection<any>('values');
    await coll.deleteMany({});
    await coll.insertMany(values.map((v, i) => ({ _id: i + 1, v, k: i + 1 })));
    const [group] = await coll
      .aggregate([{ $sort: { _id: 1 } }, { $group: { _id: null, ...accumulators } }], {
        promoteValues: false,
      })
      .toArray();
    return Object.fromEntries(Object.keys(accumulators).map((f) => [f, typed(group![f])]));
  }

  it('$maxN keeps the first seen of equal values and lists the last seen of them first', async () => {
    const ones = [1, Long.fromNumber(1), new Double(1)];
    expect(
      await grouped(ones, { max: { $maxN: { n: 2, input: '$v' } }, min: { $minN: { n: 2, input: '$v' } } }),
    ).toEqual({ max: ['Long 1', 'Int32 1'], min: ['Int32 1', 'Long 1'] });
    // A larger value replaces the first seen of the smallest kept.
    expect(await grouped([1, Long.fromNumber(1), 2], { max: { $maxN: { n: 2, input: '$v' } } })).toEqual({
      max: ['Int32 2', 'Long 1'],
    });
    // A smaller value replaces the last seen of the largest kept.
    expect(await grouped([Long.fromNumber(1), 1, 0], { min: { $minN: { n: 2, input: '$v' } } })).toEqual({
      min: ['Int32 0', 'Long 1'],
    });
  });

  it('$bottom and $bottomN keep the first seen of documents with equal sort keys, $top and $topN too', async () => {
    const sortBy = { v: 1 };
    const got = await grouped([5, 5, 5], {
      bottom: { $bottom: { output: '$k', sortBy } },
      bottomN: { $bottomN: { n: 2, output: '$k', sortBy } },
      top: { $top: { output: '$k', sortBy } },
      topN: { $topN: { n: 2, output: '$k', sortBy } },
    });
    expect(got).toEqual({
      bottom: 'Int32 1',
      bottomN: ['Int32 1', 'Int32 2'],
      top: 'Int32 1',
      topN: ['Int32 1', 'Int32 2'],
    });
    // A greater key replaces the first seen of the smallest kept; a smaller one the last seen of the largest.
    expect(
      await grouped([5, 5, 6, 4], {
        bottomN: { $bottomN: { n: 2, output: '$k', sortBy } },
        topN: { $topN: { n: 2, output: '$k', sortBy } },
      }),
    ).toEqual({ bottomN: ['Int32 2', 'Int32 3'], topN: ['Int32 4', 'Int32 1'] });
  });

  it('the array forms of $maxN and $minN keep and order equal elements as the accumulators do', async () => {
    const coll = t.db.collection<any>('one');
    await coll.deleteMany({});
    await coll.insertOne({
      _id: 1,
      a: [1, Long.fromNumber(1), 2],
      b: [1, Long.fromNumber(1), new Double(1)],
    });
    const [doc] = await coll
      .aggregate(
        [
          {
            $project: {
              max: { $maxN: { n: 2, input: '$a' } },
              ties: { $maxN: { n: 3, input: '$b' } },
              min: { $minN: { n: 2, input: '$b' } },
            },
          },
        ],
        { promoteValues: false },
      )
      .toArray();
    expect([doc!['max'], doc!['ties'], doc!['min']].map(typed)).toEqual([
      ['Int32 2', 'Long 1'],
      ['Double 1', 'Long 1', 'Int32 1'],
      ['Int32 1', 'Long 1'],
    ]);
  });
});
