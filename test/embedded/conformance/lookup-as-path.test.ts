/**
 * A dotted `as` of `$lookup` and `$graphLookup` (and a dotted `depthField`) is a path, set as MongoDB 7.0
 * sets it: DocumentSourceLookUp and DocumentSourceGraphLookUp write their results with
 * `MutableDocument::setNestedField(_as, …)` (src/mongo/db/pipeline/document_source_lookup.cpp,
 * document_source_graph_lookup.cpp), which merges into an existing sub-document and replaces a level that
 * is not a document, an array included, with one (MutableValue::getDocPtr,
 * src/mongo/db/exec/document_value/document.h).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('$lookup and $graphLookup with a dotted as ($name)', (driver) => {
  const target = connect(driver, 'lookup_as_path');

  const setUp = async () => {
    const local = target.db.collection<any>('local');
    const foreign = target.db.collection<any>('foreign');
    await local.deleteMany({});
    await foreign.deleteMany({});
    await local.insertMany([
      { _id: 1, k: 1, x: { q: 1 } },
      { _id: 2, k: 1, x: [{ q: 2 }, 3] },
      { _id: 3, k: 1, x: 'text' },
      { _id: 4, k: 1 },
    ]);
    await foreign.insertMany([{ _id: 10, k: 1 }]);
    return local;
  };

  const joined = [{ _id: 10, k: 1 }];
  const expected = [
    { _id: 1, k: 1, x: { q: 1, m: joined } },
    { _id: 2, k: 1, x: { m: joined } },
    { _id: 3, k: 1, x: { m: joined } },
    { _id: 4, k: 1, x: { m: joined } },
  ];

  it('$lookup with localField/foreignField sets the path', async () => {
    const local = await setUp();
    const rows = await local
      .aggregate([
        { $lookup: { from: 'foreign', localField: 'k', foreignField: 'k', as: 'x.m' } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual(expected);
  });

  it('$lookup with a pipeline, with and without a join, sets the path', async () => {
    const local = await setUp();
    for (const join of [{ localField: 'k', foreignField: 'k' }, {}]) {
      const rows = await local
        .aggregate([
          { $lookup: { from: 'foreign', ...join, pipeline: [{ $match: {} }], as: 'x.m' } },
          { $sort: { _id: 1 } },
        ])
        .toArray();
      expect(rows).toEqual(expected);
    }
  });

  it('$graphLookup sets the path of as and of depthField', async () => {
    const local = await setUp();
    const rows = await local
      .aggregate([
        {
          $graphLookup: {
            from: 'foreign',
            startWith: '$k',
            connectFromField: 'k',
            connectToField: 'k',
            as: 'x.m',
            depthField: 'd.n',
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    const withDepth = [{ _id: 10, k: 1, d: { n: 0 } }];
    expect(rows).toEqual(expected.map((row) => ({ ...row, x: { ...row.x, m: withDepth } })));
  });
});
