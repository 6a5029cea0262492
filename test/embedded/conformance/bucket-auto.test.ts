/**
 * `$bucketAuto` as MongoDB 7.0 builds buckets (src/mongo/db/pipeline/document_source_bucket_auto.cpp:
 * `populateNextBucket`, `adjustBoundariesAndGetMinForNextBucket`, `createFromBson` for the errors) and
 * rounds their bounds (granularity_rounder_preferred_numbers.cpp: a bound rounds down to the largest
 * series number strictly below it and up to the smallest strictly above it, scaled by powers of ten;
 * granularity_rounder_powers_of_two.cpp: `$pow: [2, exponent]`). Expected values are worked through
 * those steps by hand in the comments, or come from MongoDB's own jstests where named.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('$bucketAuto ($name)', (driver) => {
  const t = connect(driver, 'bucket_auto');
  const { Long } = driver.bson;
  const numbers = [{ a: 1 }, { a: 3 }, { a: 5 }];

  it('rounds the first min down and each max up to the R5 series, strictly', async () => {
    // R5 is 10 16 25 40 63 × 10^k: 1 rounds down to 0.63 (63 × 0.01), 3 up to 4, 5 up to 6.3 (63 × 0.1).
    const result = await aggregateOn(t.db, numbers, [
      { $bucketAuto: { groupBy: '$a', buckets: 2, granularity: 'R5' } },
    ]);
    expect(result).toEqual([
      { _id: { min: 0.63, max: 4 }, count: 2 },
      { _id: { min: 4, max: 63 * 0.1 }, count: 1 },
    ]);
  });

  it('rounds 0.8 in the E6 series down to 0.68 and up to 1 (the server source comments)', async () => {
    const result = await aggregateOn(
      t.db,
      [{ a: 0.8 }],
      [
        { $bucketAuto: { groupBy: '$a', buckets: 1, granularity: 'E6' } },
        { $project: { _id: 1, minType: { $type: '$_id.min' }, maxType: { $type: '$_id.max' } } },
      ],
    );
    expect(result).toEqual([{ _id: { min: 0.68, max: 1 }, minType: 'double', maxType: 'double' }]);
  });

  it('rounds the smallest subnormal (4.94e-324) down to 0 (jstests/aggregation/sources/bucketauto/granularity_near_zero.js)', async () => {
    const result = await aggregateOn(
      t.db,
      [{}],
      [
        {
          $bucketAuto: {
            groupBy: { $reduce: { input: [], initialValue: Number.MIN_VALUE, in: { $size: ['$$value'] } } },
            buckets: Long.fromNumber(8),
            granularity: 'R80',
          },
        },
      ],
    );
    expect(result).toEqual([{ _id: { min: 0, max: 1.02e-321 }, count: 1 }]);
  });

  it('rounds integers to powers of two as $pow gives them: 0.5 (a double) below 1, ints above', async () => {
    // 1 is a power of two, so it rounds down to 2^-1; 3 rounds up to 2^2 and 5 to 2^3.
    const result = await aggregateOn(t.db, numbers, [
      { $bucketAuto: { groupBy: '$a', buckets: 2, granularity: 'POWERSOF2' } },
      { $addFields: { minType: { $type: '$_id.min' }, maxType: { $type: '$_id.max' } } },
    ]);
    expect(result).toEqual([
      { _id: { min: 0.5, max: 4 }, count: 2, minType: 'double', maxType: 'int' },
      { _id: { min: 4, max: 8 }, count: 1, minType: 'int', maxType: 'int' },
    ]);
  });

  it('keeps equal values in one bucket, comparing numbers of any type by value', async () => {
    const result = await aggregateOn(
      t.db,
      [{ a: Long.fromNumber(1) }, { a: 1 }, { a: 2 }],
      [{ $bucketAuto: { groupBy: '$a', buckets: 3 } }],
    );
    expect(result).toEqual([
      { _id: { min: 1, max: 2 }, count: 2 },
      { _id: { min: 2, max: 2 }, count: 1 },
    ]);
  });

  it('sorts missing and null first, then numbers, then strings (BSON order), missing grouped as null', async () => {
    const result = await aggregateOn(
      t.db,
      [{ a: 'b' }, {}, { a: 2 }, { a: null }],
      [{ $bucketAuto: { groupBy: '$a', buckets: 4 } }],
    );
    expect(result).toEqual([
      { _id: { min: null, max: 2 }, count: 2 },
      { _id: { min: 2, max: 'b' }, count: 1 },
      { _id: { min: 'b', max: 'b' }, count: 1 },
    ]);
  });

  it('keeps nulls that $push collects, and $first takes the first document in groupBy order', async () => {
    const result = await aggregateOn(
      t.db,
      [
        { a: 5, x: 1 },
        { a: 1, x: null },
      ],
      [
        {
          $bucketAuto: {
            groupBy: '$a',
            buckets: 1,
            output: { xs: { $push: '$x' }, first: { $first: '$a' } },
          },
        },
      ],
    );
    expect(result).toEqual([{ _id: { min: 1, max: 5 }, xs: [null, 1], first: 1 }]);
  });

  it('compares strings under the collation (jstests/aggregation/sources/bucketauto/collation_bucketauto.js)', async () => {
    const docs = ['1', '2', '5', '10', '20', '50', '100', '200', '500'].map((num) => ({ num }));
    const coll = t.db.collection('collated');
    await coll.deleteMany({});
    await coll.insertMany(docs);
    const pipeline = [{ $bucketAuto: { groupBy: '$num', buckets: 3 } }, { $project: { _id: 1, count: 1 } }];
    const numeric = await coll
      .aggregate(pipeline, { collation: { locale: 'en_US', numericOrdering: true } })
      .toArray();
    expect(numeric).toEqual([
      { _id: { min: '1', max: '10' }, count: 3 },
      { _id: { min: '10', max: '100' }, count: 3 },
      { _id: { min: '100', max: '500' }, count: 3 },
    ]);
    expect(await coll.aggregate(pipeline).toArray()).toEqual([
      { _id: { min: '1', max: '2' }, count: 3 },
      { _id: { min: '2', max: '5' }, count: 3 },
      { _id: { min: '5', max: '500' }, count: 3 },
    ]);
  });

  it.each([
    [{ $bucketAuto: 1 }, 40240],
    [{ $bucketAuto: { groupBy: 'a', buckets: 2 } }, 40239],
    [{ $bucketAuto: { groupBy: '$a', buckets: 'two' } }, 40241],
    [{ $bucketAuto: { groupBy: '$a', buckets: 2.5 } }, 40242],
    [{ $bucketAuto: { groupBy: '$a', buckets: 0 } }, 40243],
    [{ $bucketAuto: { groupBy: '$a', buckets: 2, output: [] } }, 40244],
    [{ $bucketAuto: { groupBy: '$a', buckets: 2, extra: 1 } }, 40245],
    [{ $bucketAuto: { groupBy: '$a' } }, 40246],
    [{ $bucketAuto: { groupBy: '$a', buckets: 2, granularity: 'R7' } }, 40257],
    [{ $bucketAuto: { groupBy: '$s', buckets: 2, granularity: 'R5' } }, 40258],
    [{ $bucketAuto: { groupBy: { $literal: NaN }, buckets: 2, granularity: 'R5' } }, 40259],
    [{ $bucketAuto: { groupBy: { $literal: -1 }, buckets: 2, granularity: 'R5' } }, 40260],
    [{ $bucketAuto: { groupBy: '$a', buckets: 2, granularity: 5 } }, 40261],
  ])('refuses %j with %i', async (stage, code) => {
    const error = await failure(() => aggregateOn(t.db, [{ a: 1, s: 'x' }], [stage]));
    expect(error['code']).toBe(code);
  });

  it('refuses an infinite value to round instead of looping forever', async () => {
    const error = await failure(() =>
      aggregateOn(
        t.db,
        [{}],
        [{ $bucketAuto: { groupBy: { $literal: Infinity }, buckets: 2, granularity: 'R5' } }],
      ),
    );
    expect(error['message']).toMatch(/infinity/);
  });
});
