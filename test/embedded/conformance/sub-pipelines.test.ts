/**
 * A sub-pipeline (`$lookup`'s, `$unionWith`'s, each `$facet` branch) is parsed by MongoDB 7.0 with the
 * same DocumentSource parsers as a top-level one, then checked by its stage's validator, so a stage it
 * may not hold fails the command before a document is read:
 * - every stage object must have exactly one field, 40323 (DocumentSource::parse, document_source.cpp);
 * - `$lookup` refuses `$out` and `$merge` with 51047 "… is not allowed within a $lookup's sub-pipeline"
 *   (lookupPipeValidator, src/mongo/db/pipeline/document_source_lookup.cpp);
 * - `$unionWith` refuses them with 31441 "… is not allowed within a $unionWith's sub-pipeline"
 *   (document_source_union_with.cpp);
 * - `$facet` refuses them, `$facet` itself and `$search` with 40600 "… is not allowed to be used within
 *   a $facet stage" (DocumentSourceFacet::createFromBson, document_source_facet.cpp).
 * A nested `$out`/`$merge` was silently dropped before; it must never write.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const inLookup = (pipeline: unknown[]): unknown[] => [{ $lookup: { from: 'o', pipeline, as: 'x' } }];
const inUnionWith = (pipeline: unknown[]): unknown[] => [{ $unionWith: { coll: 'o', pipeline } }];
const inFacet = (pipeline: unknown[]): unknown[] => [{ $facet: { f: pipeline } }];

for (const driver of drivers) {
  describe(`sub-pipelines (${driver.name})`, () => {
    const ctx = connect(driver, 'subpipe');

    const refusal = async (pipeline: unknown[]): Promise<[number, string]> => {
      await ctx.db.collection<any>('c').updateOne({ _id: 1 }, { $set: { a: 1 } }, { upsert: true });
      const error = await failure(() =>
        ctx.db
          .collection('c')
          .aggregate(pipeline as any[])
          .toArray(),
      );
      return [error['code'], error['errmsg'] ?? error['message']];
    };

    it.each([
      ['$lookup', inLookup],
      ['$unionWith', inUnionWith],
      ['$facet', inFacet],
    ])('refuses a stage with two fields inside %s (40323)', async (_stage, wrap) => {
      expect(await refusal(wrap([{ $match: {}, $limit: 1 }]))).toEqual([
        40323,
        'A pipeline stage specification object must contain exactly one field.',
      ]);
    });

    it.each([
      ['$out', { $out: 'written' }],
      ['$merge', { $merge: { into: 'written' } }],
    ])('refuses %s in every sub-pipeline, and writes nothing', async (name, stage) => {
      expect(await refusal(inLookup([stage]))).toEqual([
        51047,
        `${name} is not allowed within a $lookup's sub-pipeline`,
      ]);
      expect(await refusal(inUnionWith([{ $match: {} }, stage]))).toEqual([
        31441,
        `${name} is not allowed within a $unionWith's sub-pipeline`,
      ]);
      expect(await refusal(inFacet([stage]))).toEqual([
        40600,
        `${name} is not allowed to be used within a $facet stage`,
      ]);
      // Nested deeper: the $facet inside a $lookup refuses it as a $facet does.
      expect(await refusal(inLookup(inFacet([stage])))).toEqual([
        40600,
        `${name} is not allowed to be used within a $facet stage`,
      ]);
      const names = (await ctx.db.listCollections().toArray()).map((c) => c.name);
      expect(names).not.toContain('written');
    });

    // extractRawPipelines (document_source_facet.cpp) checks every branch before parsing any.
    it('refuses a malformed $facet specification (40169-40171)', async () => {
      expect((await refusal([{ $facet: {} }]))[0]).toBe(40169);
      expect((await refusal([{ $facet: 5 }]))[0]).toBe(40169);
      expect(await refusal([{ $facet: { f: [{ $limit: -1 }], g: 'x' } }])).toEqual([
        40170,
        'arguments to $facet must be arrays, g is type string',
      ]);
      const [code, message] = await refusal([{ $facet: { f: [{ $limit: -1 }], g: [5] } }]);
      expect(code).toBe(40171);
      expect(message).toMatch(
        /^elements of arrays in \$facet spec must be non-empty objects, g argument contained an element of type int/,
      );
    });

    it('refuses $facet and $search inside $facet (40600)', async () => {
      expect(await refusal(inFacet([{ $facet: { g: [] } }]))).toEqual([
        40600,
        '$facet is not allowed to be used within a $facet stage',
      ]);
      expect(await refusal(inFacet([{ $search: { text: { query: 'a', path: 'a' } } }]))).toEqual([
        40600,
        '$search is not allowed to be used within a $facet stage',
      ]);
    });

    it('checks the sub-pipeline stages before the validator, in stage order', async () => {
      // The $limit is parsed (and refused) before the validator looks at the $out after it.
      expect((await refusal(inLookup([{ $limit: -1 }, { $out: 'written' }])))[0]).toBe(5107201);
    });

    // A $text score is metadata, not a field (https://www.mongodb.com/docs/manual/reference/operator/aggregation/meta/):
    // a $facet branch reads the documents with it, and no document nested by $facet or $$ROOT shows it.
    it('keeps $text scores as metadata through $facet and $$ROOT', async () => {
      const texts = ctx.db.collection<any>('texts');
      await texts.insertMany([
        { _id: 1, t: 'apple pear plum fig' },
        { _id: 2, t: 'apple apple' },
        { _id: 3, t: 'apple pear' },
      ]);
      await texts.createIndex({ t: 'text' });
      const match = { $match: { $text: { $search: 'apple' } } };
      const byScore = { $sort: { s: { $meta: 'textScore' } } };
      const top = await texts.aggregate([match, byScore, { $project: { _id: 1 } }]).toArray();
      const [faceted] = await texts
        .aggregate([
          match,
          { $facet: { f: [byScore, { $project: { _id: 1 } }], all: [{ $sort: { _id: 1 } }] } },
        ])
        .toArray();
      expect(faceted!['f']).toEqual(top);
      expect(faceted!['all']).toEqual([
        { _id: 1, t: 'apple pear plum fig' },
        { _id: 2, t: 'apple apple' },
        { _id: 3, t: 'apple pear' },
      ]);
      const [grouped] = await texts
        .aggregate([match, { $sort: { _id: 1 } }, { $group: { _id: null, d: { $push: '$$ROOT' } } }])
        .toArray();
      expect(grouped!['d']).toEqual(faceted!['all']);
    });

    it('runs valid sub-pipelines', async () => {
      await ctx.db.collection<any>('o').updateOne({ _id: 1 }, { $set: { b: 2 } }, { upsert: true });
      const [doc] = await ctx.db
        .collection('c')
        .aggregate([
          { $match: { _id: 1 } },
          { $lookup: { from: 'o', pipeline: [{ $facet: { n: [{ $count: 'n' }] } }], as: 'x' } },
        ])
        .toArray();
      expect(doc!['x']).toEqual([{ n: [{ n: 1 }] }]);
    });
  });
}
