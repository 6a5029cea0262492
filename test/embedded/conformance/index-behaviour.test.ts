/**
 * Index behaviour applications rely on: hints to sparse/partial indexes, clustered collections, collMod's
 * unique conversion, and duplicate-key details on every write path. Each case names its source.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('index behaviour conformance ($name)', (driver) => {
  const t = connect(driver, 'idxbehave');

  // Source: MongoDB manual, "Sparse Indexes" (https://www.mongodb.com/docs/manual/core/index-sparse/),
  // "Sparse Index On A Collection Cannot Return Complete Results": find().hint() and count with a hint
  // to the sparse index return only the documents that have the field.
  it('a hint to a sparse index returns only the documents it holds', async () => {
    const scores = t.db.collection<any>('scores');
    await scores.insertMany([
      { _id: 1, userid: 'newbie' },
      { _id: 2, userid: 'abby', score: 82 },
      { _id: 3, userid: 'nina', score: 90 },
    ]);
    await scores.createIndex({ score: 1 }, { sparse: true });
    const hinted = await scores.find().sort({ score: -1 }).hint({ score: 1 }).toArray();
    expect(hinted.map((d) => d['_id'])).toEqual([3, 2]);
    expect(await scores.countDocuments({}, { hint: { score: 1 } })).toBe(2);
    expect((await t.db.command({ count: 'scores', hint: { score: 1 } }))['n']).toBe(2);
    expect(await scores.countDocuments({})).toBe(3);
  });

  // Source: MongoDB manual, "Partial Indexes" (https://www.mongodb.com/docs/manual/core/index-partial/):
  // a partial index only holds the documents that meet its filter expression, so a query answered from
  // it (here forced by hint) sees only those.
  it('a hint to a partial index returns only the documents it holds', async () => {
    const restaurants = t.db.collection<any>('restaurants');
    await restaurants.insertMany([
      { _id: 1, cuisine: 'Italian', rating: 6 },
      { _id: 2, cuisine: 'Italian', rating: 3 },
      { _id: 3, cuisine: 'Thai', rating: 9 },
    ]);
    await restaurants.createIndex(
      { cuisine: 1 },
      { name: 'good', partialFilterExpression: { rating: { $gt: 5 } } },
    );
    const hinted = await restaurants.find({}).hint('good').sort({ _id: 1 }).toArray();
    expect(hinted.map((d) => d['_id'])).toEqual([1, 3]);
    expect(await restaurants.find({}).toArray()).toHaveLength(3);
  });

  // Source: MongoDB manual, "Sparse Indexes": "text indexes are always sparse"; a text index holds one
  // key per term (src/mongo/db/fts/fts_index_format.cpp FTSIndexFormat::getKeys), and a hint to an index
  // the query cannot use scans it whole (query_planner.cpp buildWholeIXSoln). So a document without a
  // term (a stop word, a number, no field) is not read, with or without the sparse option.
  it('a hint to a text index returns only the documents with a term', async () => {
    const notes = t.db.collection<any>('notes');
    await notes.insertMany([
      { _id: 1, body: 'hello' },
      { _id: 2, body: 'the' },
      { _id: 3, body: 5 },
      { _id: 4 },
      { _id: 5, body: [['nested words']] },
    ]);
    await notes.createIndex({ body: 'text' });
    const hinted = await notes.find({}).hint('body_text').sort({ _id: 1 }).toArray();
    expect(hinted.map((d) => d['_id'])).toEqual([1, 5]);
    expect(await notes.countDocuments({})).toBe(5);
  });

  // Source: MongoDB manual, "Clustered Collections" (https://www.mongodb.com/docs/manual/core/clustered-collections/)
  // and "listCollections" output: options.clusteredIndex { v, key: { _id: 1 }, name, unique: true } and no
  // separate idIndex; listIndexes reports the clustered index with clustered: true.
  it('reports clusteredIndex collections in listCollections and listIndexes', async () => {
    await t.db.createCollection('stocks', {
      clusteredIndex: { key: { _id: 1 }, unique: true, name: 'stocks clustered key' },
    });
    const [info] = (await t.db.listCollections({ name: 'stocks' }).toArray()) as any[];
    expect(info!['options']).toEqual({
      clusteredIndex: { v: 2, key: { _id: 1 }, name: 'stocks clustered key', unique: true },
    });
    expect(info).not.toHaveProperty('idIndex');
    const indexes = await t.db.collection('stocks').listIndexes().toArray();
    expect(indexes).toEqual([
      { v: 2, key: { _id: 1 }, name: 'stocks clustered key', unique: true, clustered: true },
    ]);
    const bad = await failure(() =>
      t.db.createCollection('badclustered', { clusteredIndex: { key: { a: 1 } } } as any),
    );
    expect(bad['name']).toBe('MongoServerError');
  });

  // Source: MongoDB manual, "Convert an Existing Index to a Unique Index"
  // (https://www.mongodb.com/docs/manual/core/index-unique/convert-to-unique/) and driver spec
  // collection-management/modifyCollection-errorResponse.yml (CannotConvertIndexToUnique, 359, with violations).
  it('collMod prepareUnique refuses new duplicates, unique converts once they are resolved', async () => {
    const apples = t.db.collection<any>('apples');
    await apples.insertMany([
      { _id: 1, type: 'Delicious', quantity: 12 },
      { _id: 2, type: 'Macintosh', quantity: 13 },
      { _id: 3, type: 'Delicious', quantity: 13 },
      { _id: 4, type: 'Fuji', quantity: 15 },
    ]);
    await apples.createIndex({ type: 1 });
    const prepared = await t.db.command({
      collMod: 'apples',
      index: { keyPattern: { type: 1 }, prepareUnique: true },
    });
    expect(prepared).toMatchObject({ prepareUnique_old: false, prepareUnique_new: true, ok: 1 });
    const dup = await failure(() => apples.insertOne({ _id: 5, type: 'Delicious', quantity: 20 }));
    expect(dup['code']).toBe(11000);
    expect(dup['message']).toContain('index: type_1 dup key: { type: "Delicious" }');
    await apples.updateOne({ _id: 1 }, { $inc: { quantity: 1 } });
    const dry = await failure(() =>
      t.db.command({ collMod: 'apples', index: { keyPattern: { type: 1 }, unique: true }, dryRun: true }),
    );
    expect(dry['code']).toBe(359);
    expect(dry['codeName']).toBe('CannotConvertIndexToUnique');
    const violations = dry['errorResponse']?.['violations'] ?? dry['violations'];
    expect(violations).toHaveLength(1);
    expect([...violations[0].ids].sort()).toEqual([1, 3]);
    await apples.deleteOne({ _id: 3 });
    expect(
      await t.db.command({
        collMod: 'apples',
        index: { keyPattern: { type: 1 }, unique: true },
        dryRun: true,
      }),
    ).toMatchObject({ ok: 1 });
    expect(
      await t.db.command({ collMod: 'apples', index: { keyPattern: { type: 1 }, unique: true } }),
    ).toMatchObject({ unique_new: true, ok: 1 });
    const [, typeIndex] = await apples.listIndexes().toArray();
    expect(typeIndex).toMatchObject({ key: { type: 1 }, unique: true });
  });

  // Source: MongoDB manual, "Unique Indexes" / error reference (https://www.mongodb.com/docs/manual/core/index-unique/),
  // and driver spec crud/tests/unified/bulkWrite-errorResponse … : a DuplicateKey error carries keyPattern
  // and keyValue, whatever write produced it.
  it('duplicate-key errors carry keyPattern and keyValue on every path', async () => {
    const users = t.db.collection<any>('dupusers');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertMany([
      { _id: 1, email: 'a@x' },
      { _id: 2, email: 'b@x' },
    ]);
    const expected = { keyPattern: { email: 1 }, keyValue: { email: 'a@x' } };
    const fam = await failure(() => users.findOneAndUpdate({ _id: 2 }, { $set: { email: 'a@x' } }));
    expect(fam['code']).toBe(11000);
    expect(fam).toMatchObject(expected);
    // The driver keeps only code and errmsg of each bulk write error: the server reply is read raw.
    for (const command of [
      {
        insert: 'dupusers',
        documents: [
          { _id: 3, email: 'c@x' },
          { _id: 4, email: 'a@x' },
        ],
        ordered: false,
      },
      { update: 'dupusers', updates: [{ q: { _id: 2 }, u: { $set: { email: 'a@x' } } }] },
    ]) {
      const reply = await t.db.command(command);
      expect(reply['writeErrors'][0]).toMatchObject({ code: 11000, ...expected });
    }
    const src = t.db.collection<any>('dupsource');
    await src.insertMany([{ _id: 9, email: 'a@x' }]);
    const merged = await failure(() =>
      src
        .aggregate([
          { $project: { _id: 0, email: 1 } },
          { $merge: { into: 'dupusers', on: '_id', whenMatched: 'merge', whenNotMatched: 'insert' } },
        ])
        .toArray(),
    );
    expect(merged['code']).toBe(11000);
    expect(merged).toMatchObject(expected);
    await src.insertOne({ _id: 1, email: 'z@x' });
    const failed = await failure(() =>
      src
        .aggregate([{ $match: { _id: 1 } }, { $merge: { into: 'dupusers', whenMatched: 'fail' } }])
        .toArray(),
    );
    expect(failed['code']).toBe(11000);
    expect(failed).toMatchObject({ keyPattern: { _id: 1 }, keyValue: { _id: 1 } });
  });
});
