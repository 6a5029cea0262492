/**
 * The view catalog as MongoDB 7.0 exposes it, and `explain` of reads on views. Sources (mongodb/mongo and
 * the manual): a database with views has a `system.views` collection holding one document per view,
 * `{ _id: '<db>.<view>', viewOn, pipeline }` plus the view's full `collation` when it has one (the view
 * catalog's upsert, ViewsForDatabase::_upsertIntoCatalog / ViewCatalog::_createOrUpdateView; manual,
 * "system.views": "contains information about each view in the database"), listed by `listCollections`
 * as a collection (manual, "listCollections" output). A read on a view is explained as the aggregation it
 * becomes on the view's source: `queryPlanner.namespace` names the source (jstests/core/views/views_find.js)
 * and `command` is the expanded aggregation, the view's stages first (ResolvedView::
 * asExpandedViewAggregation; find → aggregate in query_request_conversion.cpp, count → aggregate in
 * count_command_as_aggregation_command.cpp).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

const people = [
  { _id: 1, name: 'ann', age: 31 },
  { _id: 2, name: 'bob', age: 17 },
  { _id: 3, name: 'cyd', age: 45 },
];
type Person = (typeof people)[number];
const ADULTS = [{ $match: { age: { $gte: 18 } } }];

describe.each(drivers)('system.views and explain on views ($name)', (driver) => {
  const t = connect(driver, 'sysviews');
  /** A fresh database of this test run, so each case sees only its own views. */
  const fresh = (suffix: string) => t.client.db(`${t.db.databaseName}_${suffix}`);

  it('lists system.views as a collection once the database has a view', async () => {
    const db = fresh('list');
    await db.collection<Person>('src').insertMany(people.map((p) => ({ ...p })));
    // Manual, "system.views": the collection exists only in a database with views.
    expect(await db.listCollections({ name: 'system.views' }).toArray()).toEqual([]);
    await db.createCollection('adults', { viewOn: 'src', pipeline: ADULTS });
    // Manual, "listCollections" output: an ordinary collection, with its UUID and `_id` index.
    const [info] = (await db.listCollections({ name: 'system.views' }).toArray()) as Record<string, any>[];
    expect(info).toEqual({
      name: 'system.views',
      type: 'collection',
      options: {},
      info: { readOnly: false, uuid: expect.any(driver.bson.Binary) },
      idIndex: { v: 2, key: { _id: 1 }, name: '_id_' },
    });
    const [again] = (await db.listCollections({ name: 'system.views' }).toArray()) as Record<string, any>[];
    expect(again!['info'].uuid.toString('hex')).toBe(info!['info'].uuid.toString('hex'));
    expect(await db.listCollections({ name: 'system.views' }, { nameOnly: true }).toArray()).toEqual([
      { name: 'system.views', type: 'collection' },
    ]);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
    expect(names).toEqual(['adults', 'src', 'system.views']);
    await db.dropDatabase();
  });

  it('reads the view definitions from system.views', async () => {
    const db = fresh('read');
    await db.collection<Person>('src').insertMany(people.map((p) => ({ ...p })));
    await db.createCollection('adults', { viewOn: 'src', pipeline: ADULTS });
    await db.createCollection('fr', { viewOn: 'src', pipeline: [], collation: { locale: 'fr' } });
    await db.createCollection('names', { viewOn: 'adults', pipeline: [{ $project: { name: 1 } }] });
    const ns = (view: string) => `${db.databaseName}.${view}`;
    const views = db.collection<{ _id: string }>('system.views');
    // The view catalog's upsert: { _id: '<db>.<view>', viewOn, pipeline }, and the full collation if any.
    const definitions = await views.find().sort({ _id: 1 }).toArray();
    expect(definitions).toEqual([
      { _id: ns('adults'), viewOn: 'src', pipeline: ADULTS },
      {
        _id: ns('fr'),
        viewOn: 'src',
        pipeline: [],
        collation: expect.objectContaining({ locale: 'fr', strength: 3, caseLevel: false }),
      },
      { _id: ns('names'), viewOn: 'adults', pipeline: [{ $project: { name: 1 } }] },
    ]);
    // A collection like any other: filters, projections, counts and aggregations read it.
    expect(
      await views
        .find({ viewOn: 'src' }, { projection: { _id: 1 } })
        .sort({ _id: -1 })
        .toArray(),
    ).toEqual([{ _id: ns('fr') }, { _id: ns('adults') }]);
    expect(await views.countDocuments({ viewOn: 'adults' })).toBe(1);
    expect((await views.distinct('viewOn')).sort()).toEqual(['adults', 'src']);
    const grouped = await views
      .aggregate([{ $group: { _id: '$viewOn', n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(grouped).toEqual([
      { _id: 'adults', n: 1 },
      { _id: 'src', n: 2 },
    ]);
    // collMod and drop change the catalog, and so system.views (manual, "collMod", "Views").
    await db.command({ collMod: 'adults', viewOn: 'src', pipeline: [] });
    await db.collection('names').drop();
    expect(
      await views
        .find({}, { projection: { pipeline: 1 } })
        .sort({ _id: 1 })
        .toArray(),
    ).toEqual([
      { _id: ns('adults'), pipeline: [] },
      { _id: ns('fr'), pipeline: [] },
    ]);
    await db.dropDatabase();
  });

  it('explains a find on a view as the aggregation on its source', async () => {
    const db = fresh('explain');
    await db.collection<Person>('src').insertMany(people.map((p) => ({ ...p })));
    await db.createCollection('adults', { viewOn: 'src', pipeline: ADULTS });
    const adults = db.collection('adults');
    // views_find.js: queryPlanner.namespace is the source collection's namespace.
    const planned = await adults.find({ name: 'cyd' }, { projection: { name: 1 } }).explain('queryPlanner');
    expect(planned['queryPlanner']['namespace']).toBe(`${db.databaseName}.src`);
    expect(planned['executionStats']).toBeUndefined();
    // asExpandedViewAggregation: the view's stages, then the find's ($match, then $project).
    expect(planned['command']).toMatchObject({
      aggregate: 'src',
      pipeline: [...ADULTS, { $match: { name: 'cyd' } }, { $project: { name: 1 } }],
    });
    // views_find.js: executionStats.nReturned counts what the read returns (here the two adults).
    const executed = await adults.find().explain('executionStats');
    expect(executed['queryPlanner']['namespace']).toBe(`${db.databaseName}.src`);
    expect(executed['executionStats']['nReturned']).toBe(2);
    await db.dropDatabase();
  });

  it('explains aggregate and count on a view on a view, through to the collection', async () => {
    const db = fresh('explain_chain');
    await db.collection<Person>('src').insertMany(people.map((p) => ({ ...p })));
    await db.createCollection('adults', { viewOn: 'src', pipeline: ADULTS });
    await db.createCollection('names', { viewOn: 'adults', pipeline: [{ $project: { name: 1 } }] });
    const userPipeline = [{ $sort: { name: 1 } }];
    const explained = await db.collection('names').aggregate(userPipeline).explain('queryPlanner');
    // asExpandedViewAggregation applied down the chain: the innermost view's stages come first.
    expect(explained['queryPlanner']['namespace']).toBe(`${db.databaseName}.src`);
    expect(explained['command']).toMatchObject({
      aggregate: 'src',
      pipeline: [...ADULTS, { $project: { name: 1 } }, ...userPipeline],
    });
    // count_command_as_aggregation_command.cpp: $match of the query, $skip, $limit, then $count.
    const counted = await db.command({
      explain: { count: 'adults', query: { name: 'ann' }, skip: 1, limit: 2 },
      verbosity: 'queryPlanner',
    });
    expect(counted['command']).toMatchObject({
      aggregate: 'src',
      pipeline: [...ADULTS, { $match: { name: 'ann' } }, { $skip: 1 }, { $limit: 2 }, { $count: 'count' }],
    });
    await db.dropDatabase();
  });
});
