/**
 * An invalid `$merge` `whenMatched` pipeline fails when MongoDB 7.0 fails it. When the aggregate is parsed,
 * MongoDB only lite-parses that pipeline (DocumentSourceMerge::LiteParsed::parse builds a
 * LiteParsedPipeline, document_source_merge.cpp), so an unknown stage name fails at once with 40324,
 * even on an empty source. The rest — a stage spec of the wrong shape, a stage an update may not hold,
 * an unknown expression, an undefined variable — fails as the update `$merge` sends for the first
 * document, whether or not that document matches (UpdateDriver::parse runs before the update looks for
 * it), and an empty source reports nothing (jstests/aggregation/sources/merge/pipeline_validation.js:
 * `{ $addFields: 2 }` does not throw on an empty source, and fails with 40272 once it has a document).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

/** [case, whenMatched, code, message] — what the update command answers for the same pipeline. */
const updateErrors: [string, unknown[], number, string][] = [
  [
    'a spec of the wrong type',
    [{ $addFields: 2 }],
    40272,
    '$addFields specification stage must be an object, got int',
  ],
  ['a stage updates do not allow', [{ $match: {} }], 72, '$match is not allowed to be used within an update'],
  [
    'an unknown expression',
    [{ $set: { x: { $nope: 1 } } }],
    168,
    "Invalid $set :: caused by :: Unrecognized expression '$nope'",
  ],
  [
    'an undefined variable',
    [{ $set: { x: '$$nope' } }],
    17276,
    'Invalid $set :: caused by :: Use of undefined variable: nope',
  ],
];

describe.each(drivers)('an invalid whenMatched pipeline of a merge stage ($name)', (driver) => {
  const state = connect(driver, 'merge_pipeline_errors');

  it('refuses an unknown stage name when the aggregate is parsed, even on an empty source', async () => {
    const error = await failure(() =>
      state.db
        .collection('none')
        .aggregate([{ $merge: { into: 'unknownStage', whenMatched: [{ $bogus: 1 }] } }])
        .toArray(),
    );
    expect([error['code'], error['message']]).toEqual([40324, "Unrecognized pipeline stage name: '$bogus'"]);
  });

  // The stage's let values are parsed with it (DocumentSourceMerge's constructor parses each one).
  it('refuses an unknown expression in the stage let when the aggregate is parsed', async () => {
    const error = await failure(() =>
      state.db
        .collection('none')
        .aggregate([
          { $merge: { into: 'badLet', let: { v: { $nope: 1 } }, whenMatched: [{ $set: { v: '$$v' } }] } },
        ])
        .toArray(),
    );
    expect([error['code'], error['message']]).toEqual([168, "Unrecognized expression '$nope'"]);
  });

  it.each(updateErrors)('accepts %s on an empty source', async (_case, whenMatched) => {
    const result = await state.db
      .collection('none')
      .aggregate([{ $merge: { into: 'emptySource', whenMatched } }])
      .toArray();
    expect(result).toEqual([]);
  });

  it.each(updateErrors)(
    'refuses %s for a document that matches nothing, writing nothing',
    async (_case, whenMatched, code, message) => {
      const source = state.db.collection<{ _id: number; a?: number; b?: number }>('source');
      await source.deleteMany({});
      await source.insertOne({ _id: 1, a: 1 });
      const target = state.db.collection('unmatched');
      const error = await failure(() =>
        source.aggregate([{ $merge: { into: 'unmatched', whenMatched } }]).toArray(),
      );
      // MongoDB may put "PlanExecutor error during aggregation :: caused by :: " before the update's message.
      expect(error['code']).toBe(code);
      expect(error['message']).toContain(message);
      expect(await target.countDocuments()).toBe(0);
    },
  );

  it.each(updateErrors)(
    'refuses %s for a matched document, leaving it unchanged',
    async (_case, whenMatched, code, message) => {
      const source = state.db.collection<{ _id: number; a?: number; b?: number }>('source');
      await source.deleteMany({});
      await source.insertOne({ _id: 1, a: 1 });
      const target = state.db.collection<{ _id: number; a?: number; b?: number }>('matched');
      await target.deleteMany({});
      await target.insertOne({ _id: 1, b: 2 });
      const error = await failure(() =>
        source.aggregate([{ $merge: { into: 'matched', whenMatched } }]).toArray(),
      );
      expect(error['code']).toBe(code);
      expect(error['message']).toContain(message);
      expect(await target.find().toArray()).toEqual([{ _id: 1, b: 2 }]);
    },
  );

  it('lets the pipeline read $$new, and the stage let names, for an unmatched document', async () => {
    const source = state.db.collection<{ _id: number; a?: number; b?: number }>('source');
    await source.deleteMany({});
    await source.insertOne({ _id: 1, a: 1 });
    await source
      .aggregate([
        {
          $merge: { into: 'withLet', let: { v: '$a' }, whenMatched: [{ $set: { x: '$$v', y: '$$new.a' } }] },
        },
      ])
      .toArray();
    expect(await state.db.collection('withLet').find().toArray()).toEqual([{ _id: 1, a: 1 }]);
  });
});
