/**
 * The paths `$lookup` and `$graphLookup` join on, read as MongoDB 7.0 reads them.
 *
 * - The local side (`localField`, and `$graphLookup`'s `connectFromField`) is read by
 *   `document_path_support::visitAllValuesAtPath` (src/mongo/db/pipeline/document_path_support.cpp):
 *   numeric parts right after an array are positions, a field name steps into the documents of one array
 *   level ("we do not expand arrays within arrays"), and an array at the end gives its elements. For
 *   `$lookup`, no value at all is null ("Missing values are treated as null",
 *   document_source_lookup.cpp `makeMatchStageFromInput`).
 * - The foreign side is a filter, `{ <foreignField>: { $in: [values] } }` (`$eq` for one value), so it
 *   follows the matcher's paths (src/mongo/db/matcher/path.cpp), where null also matches a missing field.
 *   `$graphLookup` adds `{ <connectToField>: { $exists: true } }` when its frontier holds null
 *   (document_source_graph_lookup.cpp `makeMatchStageFromFrontier`: "We never want to see documents where
 *   the 'connectToField' is missing").
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

type Row = { _id: unknown; [field: string]: unknown };

describe.each(drivers)('lookup and graphLookup join paths ($name)', (driver) => {
  const t = connect(driver, 'lookup_paths');

  /** Fills `name` with `docs` and returns it. */
  async function filled(name: string, docs: Row[]) {
    const coll = t.db.collection<Row>(name);
    await coll.deleteMany({});
    await coll.insertMany(docs);
    return coll;
  }

  /** Each local document's `_id` → the `_id`s it joined in `j`, sorted. */
  async function joins(local: string, stage: Record<string, unknown>): Promise<Record<string, unknown[]>> {
    const rows = await t.db
      .collection<Row>(local)
      .aggregate<Row>([stage, { $sort: { _id: 1 } }])
      .toArray();
    return Object.fromEntries(
      rows.map((row) => [String(row._id), (row['j'] as Row[]).map((d) => d._id).sort()]),
    );
  }

  const FOREIGN_K: Row[] = [
    { _id: 'a', k: 1 },
    { _id: 'b', k: [2] },
    { _id: 'c', k: 3 },
    { _id: 'd', k: [3] },
    { _id: 'e', k: [[3]] },
    { _id: 'f', k: null },
    { _id: 'g' },
  ];

  it('$lookup reads localField through one array level, by element at its end, null when it reaches nothing', async () => {
    await filled('foreign', FOREIGN_K);
    await filled('local', [
      // An array nested in an array is not entered by 'y': no value, so null.
      { _id: 1, x: [[{ y: 1 }]] },
      // 1, then the elements of [2, [3]]: 2 and [3] (which matches [3] whole and [[3]] by element).
      { _id: 2, x: [{ y: 1 }, { y: [2, [3]] }] },
      // An empty array gives no value: null.
      { _id: 3, x: { y: [] } },
      { _id: 4 },
    ]);
    const stage = { $lookup: { from: 'foreign', localField: 'x.y', foreignField: 'k', as: 'j' } };
    expect(await joins('local', stage)).toEqual({
      '1': ['f', 'g'],
      '2': ['a', 'b', 'd', 'e'],
      '3': ['f', 'g'],
      '4': ['f', 'g'],
    });
  });

  it('$lookup reads numeric parts of localField as positions after an array', async () => {
    await filled('foreign', FOREIGN_K);
    await filled('local', [
      { _id: 1, x: [{ y: 5 }, { y: 3 }] },
      { _id: 2, x: [[7, 1]] },
    ]);
    const byPosition = (localField: string) => ({
      $lookup: { from: 'foreign', localField, foreignField: 'k', as: 'j' },
    });
    expect((await joins('local', byPosition('x.1.y')))['1']).toEqual(['c', 'd']);
    expect((await joins('local', byPosition('x.0.1')))['2']).toEqual(['a']);
  });

  it('$lookup matches foreignField as a filter does: no nested arrays, null for missing', async () => {
    await filled('foreign', [
      { _id: 'a', k: [[{ y: 1 }]] },
      { _id: 'b', k: [{ y: 1 }] },
      { _id: 'c', k: { y: [[1]] } },
      { _id: 'd', k: [{ y: null }, { z: 1 }] },
      { _id: 'e', k: { z: 1 } },
      { _id: 'f', k: { y: [1, 2] } },
    ]);
    await filled('local', [{ _id: 1, v: 1 }, { _id: 2, v: null }, { _id: 3 }, { _id: 4, v: [[1, 2]] }]);
    const stage = { $lookup: { from: 'foreign', localField: 'v', foreignField: 'k.y', as: 'j' } };
    expect(await joins('local', stage)).toEqual({
      '1': ['b', 'f'],
      '2': ['d', 'e'],
      '3': ['d', 'e'],
      // The element [1, 2] equals 'f''s array whole.
      '4': ['f'],
    });
  });

  it('$lookup joins on localField/foreignField, then runs its pipeline with let (5.0+)', async () => {
    await filled('foreign', [
      { _id: 'a', k: 1, n: 1 },
      { _id: 'b', k: 1, n: 3 },
      { _id: 'c', k: 2, n: 1 },
      { _id: 'd', n: 1 },
    ]);
    await filled('local', [
      { _id: 1, x: [{ y: 1 }], lim: 2 },
      { _id: 2, x: [[{ y: 1 }]], lim: 2 },
    ]);
    const stage = {
      $lookup: {
        from: 'foreign',
        localField: 'x.y',
        foreignField: 'k',
        let: { lim: '$lim' },
        pipeline: [{ $match: { $expr: { $lt: ['$n', '$$lim'] } } }],
        as: 'j',
      },
    };
    expect(await joins('local', stage)).toEqual({ '1': ['a'], '2': ['d'] });
  });

  it('$graphLookup reads connectFromField like localField and connectToField as a filter with $exists', async () => {
    await filled('nodes', [
      // 'next.n' reaches 'c' only: [{ n: 'b' }] is an array in an array.
      { _id: 1, name: { k: 'a' }, next: [[{ n: 'b' }], { n: 'c' }] },
      { _id: 2, name: { k: 'b' } },
      { _id: 3, name: [{ k: 'c' }], next: { n: null } },
      // null reaches a null 'name.k', not a missing one.
      { _id: 4, name: { k: null } },
      { _id: 5, other: 1 },
      // 'name.k' does not reach 'c' here.
      { _id: 6, name: [[{ k: 'c' }]] },
    ]);
    await filled('start', [{ _id: 0, s: 'a' }, { _id: 1, s: null }, { _id: 2 }]);
    const rows = await t.db
      .collection<Row>('start')
      .aggregate<Row>([
        {
          $graphLookup: {
            from: 'nodes',
            startWith: '$s',
            connectFromField: 'next.n',
            connectToField: 'name.k',
            depthField: 'depth',
            as: 'j',
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    const found = rows.map((row) =>
      (row['j'] as Row[]).map((d) => [d._id, Number(d['depth'])]).sort((x, y) => Number(x[0]) - Number(y[0])),
    );
    expect(found).toEqual([
      [
        [1, 0],
        [3, 1],
        [4, 2],
      ],
      [[4, 0]],
      [],
    ]);
  });

  it("$graphLookup restrictSearchWithMatch is a filter with a find's syntax, regexes included", async () => {
    await filled('nodes', [
      { _id: 1, n: 'a', to: 'b', tag: 'abc' },
      { _id: 2, n: 'b', to: 'c', tag: 'xyz' },
      { _id: 3, n: 'c', tag: 'abd' },
    ]);
    await filled('start', [{ _id: 0, s: 'a' }]);
    const search = async (restrict: Record<string, unknown>) => {
      const [row] = await t.db
        .collection<Row>('start')
        .aggregate<Row>([
          {
            $graphLookup: {
              from: 'nodes',
              startWith: '$s',
              connectFromField: 'to',
              connectToField: 'n',
              restrictSearchWithMatch: restrict,
              as: 'j',
            },
          },
        ])
        .toArray();
      return (row!['j'] as Row[]).map((d) => d._id).sort();
    };
    // Node 2 fails the filter, so node 3 is never reached.
    expect(await search({ tag: new driver.bson.BSONRegExp('^a', '') })).toEqual([1]);
    expect(await search({ tag: { $regex: '^[ax]' } })).toEqual([1, 2, 3]);
  });
});
