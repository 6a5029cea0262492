/**
 * `$bucket`'s checks, as MongoDB 7.0's document_source_bucket.cpp `createFromBson` makes them (codes and
 * messages from there): boundaries of one canonical type in strictly ascending order, and a `default`
 * of that type outside them. Before, the embedded database bucketed such stages in whatever order it
 * found, or failed later with a `$switch` error. MongoDB parses a `$lookup`, `$unionWith` or `$facet`
 * sub-pipeline with the same DocumentSource parsers, so a `$bucket` there is checked and answers alike;
 * the embedded database ran those with mingo's own `$bucket`, which leaked a JavaScript error
 * ("expr.boundaries.slice is not a function", found by the wire fuzzer).
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('bucket stage checks ($name)', (driver) => {
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

  const nestings: [string, (stage: Record<string, unknown>) => Record<string, unknown>[]][] = [
    ['$facet', (stage) => [{ $facet: { f: [stage] } }]],
    ['$unionWith', (stage) => [{ $unionWith: { coll: 'bucket_other', pipeline: [stage] } }]],
    ['$lookup', (stage) => [{ $lookup: { from: 'bucket_other', pipeline: [stage], as: 'l' } }]],
  ];

  it.each(nestings)('checks a $bucket inside %s the same way', async (_name, nest) => {
    for (const [stage, code] of [
      [{ $bucket: { groupBy: '$n', boundaries: new Date(0) } }, 40200],
      [{ $bucket: { groupBy: '$n', boundaries: [10, 1] } }, 40194],
      [{ $bucket: { groupBy: 'n', boundaries: [0, 1] } }, 40202],
      [{ $bucket: { groupBy: '$n', boundaries: [0, 1], extra: 1 } }, 40197],
    ] as const) {
      const error = await failure(() => aggregateOn(t.db, rows, nest(stage)));
      expect([JSON.stringify(stage), error['code']]).toEqual([JSON.stringify(stage), code]);
    }
  });

  it('buckets inside a $facet, with the collation of the aggregation, as at the top level', async () => {
    const coll = t.db.collection('bucket_facet');
    await coll.deleteMany({});
    await coll.insertMany([{ n: 5 }, { n: 6.5 }, { n: 'x' }, { s: 'B' }, { s: 'q' }]);
    const numbers = { $bucket: { groupBy: '$n', boundaries: [0, 6, 10.5], default: 'other' } };
    const [row] = await coll
      .aggregate([{ $facet: { f: [{ $match: { n: { $exists: true } } }, numbers] } }])
      .toArray();
    expect(row!['f']).toEqual([
      { _id: 0, count: 1 },
      { _id: 6, count: 1 },
      { _id: 'other', count: 1 },
    ]);
    // Strength 1 compares 'B' as 'b', inside ['a', 'm'); without the collation it sorts before 'a'.
    const letters = { $bucket: { groupBy: '$s', boundaries: ['a', 'm', 'z'], default: 'zzz' } };
    const facet = [{ $match: { s: { $exists: true } } }, { $facet: { f: [letters] } }];
    const [folded] = await coll.aggregate(facet, { collation: { locale: 'en', strength: 1 } }).toArray();
    expect(folded!['f']).toEqual([
      { _id: 'a', count: 1 },
      { _id: 'm', count: 1 },
    ]);
    const [plain] = await coll.aggregate(facet).toArray();
    expect(plain!['f']).toEqual([
      { _id: 'm', count: 1 },
      { _id: 'zzz', count: 1 },
    ]);
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
