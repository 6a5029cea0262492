/**
 * `distinct` on a view. MongoDB 7.0 runs it as an aggregation over the view's pipeline
 * (src/mongo/db/query/parsed_distinct.cpp, asAggregationCommand: `$match` of the query, `$replaceRoot`
 * with `$_internalFindAllValuesAtPath` of the key, which reads the values a collection's distinct reads,
 * then `$unwind` and `$group` with `$addToSet`), under the view's default collation; a view on a view
 * runs both pipelines. Building that pipeline makes the key a FieldPath, so a key a collection's
 * distinct answers with no values (`''`, `'$a'`, `'a..b'`) fails on a view with FieldPath's codes
 * (src/mongo/db/pipeline/field_path.cpp: 40352, 16410, 15998). A key holding a NUL character is 31032
 * on both (ParsedDistinct::parse). `$addToSet` keeps no order, so values are compared sorted.
 * Manual: https://www.mongodb.com/docs/manual/core/views/ ("Supported Operations").
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('distinct on views ($name)', (driver) => {
  const t = connect(driver, 'distinct_views');

  const docs = [
    { _id: 1, name: 'Ann', team: 'red', tags: [{ k: 'x' }, { k: 'y' }], scores: [5, 6] },
    { _id: 2, name: 'ann', team: 'blue', tags: [{ k: 'y' }], scores: [[7], 8] },
    { _id: 3, name: 'Bob', team: 'red', tags: [], scores: { 0: 9 } },
  ];

  async function setUp(): Promise<void> {
    await t.db.dropDatabase();
    await t.db.collection<any>('people').insertMany(docs);
    await t.db.createCollection('reds', { viewOn: 'people', pipeline: [{ $match: { team: 'red' } }] });
    await t.db.createCollection('redNames', { viewOn: 'reds', pipeline: [{ $project: { name: 1 } }] });
    await t.db.createCollection('folded', {
      viewOn: 'people',
      pipeline: [{ $project: { name: 1, team: 1 } }],
      collation: { locale: 'en', strength: 2 },
    });
  }

  const sorted = async (values: Promise<unknown[]>) =>
    (await values).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

  it('reads the values of a view and of a view on a view as a collection distinct does', async () => {
    // Sorted by their JSON text: numbers, then arrays, then documents.
    await setUp();
    const reds = t.db.collection<any>('reds');
    expect(await sorted(reds.distinct('tags.k'))).toEqual(['x', 'y']);
    // Positional parts and arrays are read as a collection's distinct reads them.
    expect(await sorted(reds.distinct('scores.0'))).toEqual([5, 9]);
    expect(await sorted(reds.distinct('scores'))).toEqual([5, 6, { 0: 9 }]);
    expect(await sorted(t.db.collection<any>('people').distinct('scores'))).toEqual([5, 6, 8, [7], { 0: 9 }]);
    expect(await sorted(reds.distinct('name', { _id: { $gt: 1 } }))).toEqual(['Bob']);
    const redNames = t.db.collection<any>('redNames');
    expect(await sorted(redNames.distinct('name'))).toEqual(['Ann', 'Bob']);
    expect(await redNames.distinct('team')).toEqual([]);
  });

  it("dedups under the view's collation and refuses another one", async () => {
    await setUp();
    const folded = t.db.collection<any>('folded');
    const names = await folded.distinct('name');
    expect(names.map((n: string) => n.toLowerCase()).sort()).toEqual(['ann', 'bob']);
    // The view's own collation may be given again; another is OptionNotSupportedOnView (167).
    expect((await folded.distinct('team', {}, { collation: { locale: 'en', strength: 2 } })).sort()).toEqual([
      'blue',
      'red',
    ]);
    const other = await failure(() => folded.distinct('name', {}, { collation: { locale: 'fr' } }));
    expect([other['code'], other['errmsg']]).toEqual([167, "Cannot override a view's default collation"]);
  });

  it('refuses a key that is not a field path on a view, and a NUL in a key anywhere', async () => {
    await setUp();
    const cases: [string, number, string][] = [
      ['', 40352, 'FieldPath cannot be constructed with empty string'],
      [
        '$name',
        16410,
        "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
      ],
      ['tags..k', 15998, 'FieldPath field names may not be empty strings.'],
    ];
    for (const [key, code, message] of cases) {
      const error = await failure(() => t.db.command({ distinct: 'redNames', key }));
      expect([error['code'], error['errmsg']]).toEqual([code, message]);
      expect((await t.db.command({ distinct: 'people', key }))['values']).toEqual([]);
    }
    for (const target of ['people', 'reds']) {
      const error = await failure(() => t.db.command({ distinct: target, key: 'na\0me' }));
      expect([error['code'], error['errmsg']]).toEqual([
        31032,
        'Key field cannot contain an embedded null byte',
      ]);
    }
  });
});
