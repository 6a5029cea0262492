/**
 * `$bucket`'s checks, as MongoDB 7.0's document_source_bucket.cpp `createFromBson` makes them (codes and
 * messages from there): boundaries of one canonical type in strictly ascending order, and a `default`
 * of that type outside them. Before, the embedded database bucketed such stages in whatever order it
 * found, or failed later with a `$switch` error.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('$bucket checks ($name)', (driver) => {
  const t = connect(driver, 'bucket_checks');
  const rows = [{ n: 5 }, { n: 6 }];
  const refuse = async (stage: Record<string, unknown>) => {
    const error = await failure(() => aggregateOn(t.db, rows, [stage]));
    return [error['code'], error['message']];
  };

  it('refuses boundaries out of order, of mixed types, or a default inside them', async () => {
    expect(await refuse({ $bucket: { groupBy: '$n', boundaries: [10, 1] } })).toEqual([
      40194,
      "The 'boundaries' option to $bucket must be sorted, but elements 0 and 1 are not in ascending order (10 is not less than 1).",
    ]);
    expect(await refuse({ $bucket: { groupBy: '$n', boundaries: [1, 'a'] } })).toEqual([
      40193,
      "All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types int and string.",
    ]);
    expect(await refuse({ $bucket: { groupBy: '$n', boundaries: [0, 6], default: 3 } })).toEqual([
      40199,
      "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary.",
    ]);
  });

  it.each([
    [{ $bucket: 1 }, 40201],
    [{ $bucket: { groupBy: 'n', boundaries: [0, 1] } }, 40202],
    [{ $bucket: { groupBy: '$n', boundaries: 1 } }, 40200],
    [{ $bucket: { groupBy: '$n', boundaries: ['$n', 1] } }, 40191],
    [{ $bucket: { groupBy: '$n', boundaries: [1] } }, 40192],
    [{ $bucket: { groupBy: '$n', boundaries: [0, 1], default: '$n' } }, 40195],
    [{ $bucket: { groupBy: '$n', boundaries: [0, 1], output: 1 } }, 40196],
    [{ $bucket: { groupBy: '$n', boundaries: [0, 1], extra: 1 } }, 40197],
    [{ $bucket: { groupBy: '$n' } }, 40198],
  ])('refuses %j with %i', async (stage, code) => {
    expect((await refuse(stage))[0]).toBe(code);
  });

  it('still buckets, a default of another type and numbers of mixed types included', async () => {
    const result = await aggregateOn(
      t.db,
      [{ n: 5 }, { n: 6.5 }, { n: 'x' }],
      [{ $bucket: { groupBy: '$n', boundaries: [0, 6, 10.5], default: 'other' } }],
    );
    expect(result).toEqual([
      { _id: 0, count: 1 },
      { _id: 6, count: 1 },
      { _id: 'other', count: 1 },
    ]);
  });
});
