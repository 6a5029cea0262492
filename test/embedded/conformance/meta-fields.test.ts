/**
 * `{ $meta: <name> }` answered as MongoDB 7.0 answers it without the stage that sets the metadata, or
 * refused with its codes. Sources (mongodb/mongo): expression.cpp ExpressionMeta::parse (17307 for a
 * name that is not a string, 17308 for an unknown one); depends.h DepsTracker::setNeedsMetadata (40218
 * "query requires <what> metadata, but it is not available", skipped for sortKey and randVal, and
 * ExpressionMeta adds no dependency for the $search names) with document_metadata_fields.cpp
 * typeNameToDebugString ("text score", "$geoNear distance", "$geoNear point"); ExpressionMeta::evaluate
 * (missing where the document has no such metadata); sort_pattern.cpp SortPattern (only textScore,
 * randVal and geoNearDistance sort; 31218/31219 for searchScore/searchHighlights, 31138 "Illegal $meta
 * sort: $meta: …" for the rest, FailedToParse for a second key).
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, external, failure } from '../helpers.js';

describe.each(drivers)('meta fields ($name)', (driver) => {
  const t = connect(driver, 'meta_fields');
  const docs = [
    { _id: 1, a: 'tea' },
    { _id: 2, a: 'coffee' },
  ];
  const run = (pipeline: Record<string, unknown>[]) => aggregateOn(t.db, docs, pipeline);

  it('answers missing for metadata the documents do not carry', async () => {
    for (const name of [
      'randVal',
      'searchScore',
      'searchHighlights',
      'searchScoreDetails',
      'indexKey',
      'sortKey',
    ]) {
      expect(await run([{ $project: { m: { $meta: name } } }])).toEqual([{ _id: 1 }, { _id: 2 }]);
      expect(await run([{ $addFields: { m: { $meta: name } } }])).toEqual(docs);
    }
    // randVal sorts (by nothing here); the documents keep their order.
    expect(await run([{ $sort: { r: { $meta: 'randVal' } } }])).toEqual(docs);
  });

  it('refuses names and arguments MongoDB does not parse', async () => {
    const project = (meta: unknown) => failure(() => run([{ $project: { m: { $meta: meta } } }]));
    expect(await project('bogus')).toMatchObject({
      code: 17308,
      message: 'Unsupported argument to $meta: bogus',
    });
    expect(await project(1)).toMatchObject({ code: 17307, message: '$meta only supports string arguments' });
  });

  it('refuses metadata that needs a $text query or a $geoNear stage (40218)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ $project: { m: { $meta: 'textScore' } } }, 'text score'],
      [{ $sort: { m: { $meta: 'textScore' } } }, 'text score'],
      [{ $addFields: { m: { $meta: 'geoNearDistance' } } }, '$geoNear distance'],
      [{ $addFields: { m: { $meta: 'geoNearPoint' } } }, '$geoNear point'],
    ];
    for (const [stage, what] of cases) {
      expect(await failure(() => run([stage]))).toMatchObject({
        code: 40218,
        message: `query requires ${what} metadata, but it is not available`,
      });
    }
    const coll = t.db.collection('meta_find');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ a: 1 });
    const find = failure(() => coll.find({}, { projection: { m: { $meta: 'textScore' } } }).toArray());
    expect(await find).toMatchObject({ code: 40218 });
  });

  it('sorts only by the metadata MongoDB sorts by', async () => {
    const sort = (meta: unknown) => failure(() => run([{ $sort: { m: { $meta: meta } } }]));
    expect(await sort('searchScore')).toMatchObject({
      code: 31218,
      message: "$meta sort by 'searchScore' metadata is not supported",
    });
    expect(await sort('searchHighlights')).toMatchObject({ code: 31219 });
    expect(await sort('indexKey')).toMatchObject({
      code: 31138,
      message: 'Illegal $meta sort: $meta: "indexKey"',
    });
    const extra = await failure(() => run([{ $sort: { m: { $meta: 'randVal', x: 1 } } }]));
    expect(extra).toMatchObject({
      code: 9,
      message: 'Cannot have additional keys in a $meta sort specification',
    });
  });

  it.skipIf(external)(
    'refuses the metadata the embedded database does not keep (NotImplemented)',
    async () => {
      for (const pipeline of [
        [{ $project: { m: { $meta: 'recordId' } } }],
        [{ $sample: { size: 1 } }, { $project: { m: { $meta: 'randVal' } } }],
        [{ $sort: { a: 1 } }, { $project: { m: { $meta: 'sortKey' } } }],
      ]) {
        expect(await failure(() => run(pipeline))).toMatchObject({ code: 238 });
      }
    },
  );
});
