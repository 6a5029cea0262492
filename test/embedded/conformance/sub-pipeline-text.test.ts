/**
 * `$text` in `$lookup` and `$unionWith` pipelines as MongoDB 7.0 answers it: a pipeline's first `$match`
 * is the query on the collection it reads, so `$text` there searches that collection's text index, with
 * its own scores (jstests/aggregation/sources/lookup/lookup_contains_text.js), and fails with 27
 * IndexNotFound without one (jstests/aggregation/sources/match/text_search_requires_index.js). The outer
 * pipeline's scores do not reach a sub-pipeline, nor a sub-pipeline's the outer pipeline: textScore
 * there is 40218. Anywhere but first in any pipeline a `$match` holding `$text`, at any depth of its
 * filter, is 17313 "$match with $text is only allowed as the first pipeline stage"
 * (Pipeline::validateCommon and DocumentSourceMatch::isTextQuery, pipeline.cpp and
 * document_source_match.cpp).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

describe.each(drivers)('text search in sub-pipelines ($name)', (driver) => {
  const t = connect(driver, 'sub_pipeline_text');

  /** The jstest's collections: outer { a: 'foo' } and inner { a: 'bar apple banana' }, with `indexed` text indexes. */
  async function collections(indexed: { outer: boolean; inner: boolean }) {
    const outer = t.db.collection<any>('outer');
    const inner = t.db.collection<any>('inner');
    await outer.drop().catch(() => undefined);
    await inner.drop().catch(() => undefined);
    await outer.insertOne({ _id: 100, a: 'foo' });
    await inner.insertOne({ _id: 100, a: 'bar apple banana' });
    if (indexed.outer) await outer.createIndex({ a: 'text' });
    if (indexed.inner) await inner.createIndex({ a: 'text' });
    return outer;
  }

  async function code(run: () => Promise<unknown>) {
    return (await failure(run))['code'];
  }

  const innerSearch = { $match: { $text: { $search: 'bar apple banana hello' } } };
  const score = { $project: { score: { $meta: 'textScore' } } };

  it('a $lookup pipeline starting with $text searches the foreign collection, with its own scores', async () => {
    const outer = await collections({ outer: true, inner: true });
    const looked = await outer
      .aggregate([{ $lookup: { from: 'inner', as: 'as', pipeline: [innerSearch] } }])
      .toArray();
    expect(looked).toEqual([{ _id: 100, a: 'foo', as: [{ _id: 100, a: 'bar apple banana' }] }]);
    // The scores are each search's own: those of the same searches run at the top level (the jstest
    // pins MongoDB's 2 and 1.1; the engine scores by its own formula, docs/embedded.md).
    const inner = t.db.collection<any>('inner');
    const [innerScored] = await inner.aggregate([innerSearch, score]).toArray();
    const [outerScored] = await outer.aggregate([{ $match: { $text: { $search: 'foo' } } }, score]).toArray();
    const both = await outer
      .aggregate([
        { $match: { $text: { $search: 'foo' } } },
        { $lookup: { from: 'inner', as: 'as', pipeline: [innerSearch, score] } },
        { $project: { score: { $meta: 'textScore' }, as: 1 } },
      ])
      .toArray();
    expect(both).toEqual([{ _id: 100, as: [innerScored], score: outerScored!['score'] }]);
    expect(innerScored!['score']).toBeGreaterThan(0);
    // $unionWith reads its collection the same way; the rest of the $match filters what it found.
    const appleSearch = { $match: { $text: { $search: 'apple' } } };
    const [appleScored] = await inner.aggregate([appleSearch, score]).toArray();
    const unioned = await outer
      .aggregate([
        { $unionWith: { coll: 'inner', pipeline: [{ $match: { ...appleSearch.$match, _id: 100 } }, score] } },
        { $unionWith: { coll: 'inner', pipeline: [{ $match: { ...appleSearch.$match, _id: 1 } }] } },
      ])
      .toArray();
    expect(unioned).toEqual([{ _id: 100, a: 'foo' }, appleScored]);
  });

  it('a $lookup or $unionWith pipeline starting with $search searches the collection it reads', async () => {
    // Manual: $lookup "Atlas Search Support" and $unionWith (6.0+) take $search as the pipeline's first stage.
    const outer = await collections({ outer: true, inner: true });
    const search = { $search: { text: { query: 'apple', path: 'a' } } };
    const scored = { $project: { s: { $meta: 'searchScore' } } };
    const [alone] = await t.db.collection<any>('inner').aggregate([search, scored]).toArray();
    const looked = await outer
      .aggregate([{ $lookup: { from: 'inner', as: 'as', pipeline: [search, scored] } }])
      .toArray();
    expect(looked).toEqual([{ _id: 100, a: 'foo', as: [alone] }]);
    const unioned = await outer.aggregate([{ $unionWith: { coll: 'inner', pipeline: [search] } }]).toArray();
    expect(unioned).toEqual([
      { _id: 100, a: 'foo' },
      { _id: 100, a: 'bar apple banana' },
    ]);
    const late = [{ $lookup: { from: 'inner', as: 'as', pipeline: [{ $limit: 1 }, search] } }];
    const error = await failure(() => outer.aggregate(late).toArray());
    expect([error['code'], error['errmsg']]).toEqual([
      40602,
      '$search is only valid as the first stage in a pipeline',
    ]);
  });

  it('needs a text index on the foreign collection (27)', async () => {
    const outer = await collections({ outer: true, inner: false });
    expect(
      await code(() =>
        outer.aggregate([{ $lookup: { from: 'inner', as: 'c', pipeline: [innerSearch] } }]).toArray(),
      ),
    ).toBe(27);
    expect(
      await code(() =>
        outer.aggregate([{ $unionWith: { coll: 'inner', pipeline: [innerSearch] } }]).toArray(),
      ),
    ).toBe(27);
  });

  it('scores do not cross into or out of a sub-pipeline (40218)', async () => {
    const outer = await collections({ outer: true, inner: true });
    const outerSearch = { $match: { $text: { $search: 'foo' } } };
    expect(
      await code(() =>
        outer.aggregate([outerSearch, { $lookup: { from: 'inner', as: 'as', pipeline: [score] } }]).toArray(),
      ),
    ).toBe(40218);
    expect(
      await code(() =>
        outer.aggregate([{ $lookup: { from: 'inner', as: 'as', pipeline: [innerSearch] } }, score]).toArray(),
      ),
    ).toBe(40218);
  });

  it('a $match holding $text anywhere but first is 17313, in sub-pipelines too', async () => {
    const outer = await collections({ outer: true, inner: true });
    const late: Doc[][] = [
      [{ $project: { a: 1 } }, { $match: { $text: { $search: 'foo' } } }],
      [{ $lookup: { from: 'inner', as: 'as', pipeline: [{ $limit: 1 }, innerSearch] } }],
      [{ $unionWith: { coll: 'inner', pipeline: [{ $limit: 1 }, innerSearch] } }],
      [{ $facet: { f: [{ $limit: 1 }, { $match: { $and: [{ $text: { $search: 'foo' } }] } }] } }],
    ];
    for (const pipeline of late) {
      const error = await failure(() => outer.aggregate(pipeline).toArray());
      expect([error['code'], error['errmsg']]).toEqual([
        17313,
        '$match with $text is only allowed as the first pipeline stage',
      ]);
    }
  });
});
