/**
 * The `_id` index of a collection created with a default collation holds its strings under that
 * collation, as every index created without one inherits it (manual, Case Insensitive Indexes,
 * https://www.mongodb.com/docs/manual/core/index-case-insensitive/ "If a collection has defined a
 * collation, all queries and indexes inherit that collation unless they explicitly specify a different
 * collation"; SERVER-26514 "If "collation" is not present, the _id index inherits the collection
 * default collation"). So under `{ locale: 'en', strength: 2 }` the `_id`s 'a' and 'A' are one key: the
 * second is a DuplicateKey (11000), whose message names the index's collation after the index
 * (buildDupKeyErrorStatus, src/mongo/db/storage/index_entry_comparison.cpp).
 */
import { describe, expect, it } from 'vitest';
import { acrossRestarts, connect, drivers, external, failure } from '../helpers.js';

const caseless = { locale: 'en', strength: 2 };

type Row = { _id: string; n?: number };

describe.each(drivers)('_id under the collection default collation ($name)', (driver) => {
  const t = connect(driver, 'id_collation');

  /** A fresh collection `name` with the caseless default collation, holding `docs`. */
  async function collated(name: string, docs: Row[] = []) {
    await t.db.dropCollection(name).catch(() => undefined);
    const coll = await t.db.createCollection<Row>(name, { collation: caseless });
    if (docs.length > 0) await coll.insertMany(docs);
    return coll;
  }

  const ids = (docs: Row[]) => docs.map((doc) => doc._id).sort();

  it('refuses an _id equal to a stored one under the collation, keeps one differing in accent', async () => {
    const coll = await collated('ids', [{ _id: 'a', n: 1 }]);
    const error = await failure(() => coll.insertOne({ _id: 'A', n: 2 }));
    expect(error['code']).toBe(11000);
    expect(error['message']).toMatch(
      new RegExp(
        `^E11000 duplicate key error collection: ${t.db.databaseName}\\.ids index: _id_ collation: \\{ locale: "en"`,
      ),
    );
    expect(error['keyPattern']).toEqual({ _id: 1 });
    // Strength 2 compares accents: 'á' is another key.
    await coll.insertOne({ _id: 'á', n: 3 });
    expect(ids(await coll.find({}).toArray())).toEqual(['a', 'á']);
  });

  it('names the collation of a unique secondary index it inherits in its duplicate key error', async () => {
    await collated('unique_names');
    const coll = t.db.collection<{ _id: string; n: number; s: string }>('unique_names');
    await coll.createIndex({ n: 1, s: 1 }, { unique: true });
    await coll.insertOne({ _id: '1', n: 1, s: 'x' });
    const error = await failure(() => coll.insertOne({ _id: '2', n: 1, s: 'X' }));
    expect(error['code']).toBe(11000);
    expect(error['message']).toMatch(
      / index: n_1_s_1 collation: \{ locale: "en", caseLevel: false, caseFirst: "off", strength: 2,/,
    );
    expect(error['keyPattern']).toEqual({ n: 1, s: 1 });
  });

  it('finds, updates, deletes and upserts by an _id equal under the collation', async () => {
    const coll = await collated('acts', [{ _id: 'a', n: 1 }]);
    expect(await coll.find({ _id: 'A' }).toArray()).toEqual([{ _id: 'a', n: 1 }]);
    expect((await coll.updateOne({ _id: 'A' }, { $set: { n: 2 } })).modifiedCount).toBe(1);
    const upsert = await coll.updateOne({ _id: 'A' }, { $set: { n: 3 } }, { upsert: true });
    expect([upsert.matchedCount, upsert.upsertedCount]).toEqual([1, 0]);
    expect(await coll.find({}).toArray()).toEqual([{ _id: 'a', n: 3 }]);
    expect((await coll.deleteOne({ _id: 'A' })).deletedCount).toBe(1);
    expect(await coll.countDocuments()).toBe(0);
  });

  it("reads an _id equality under the index's collation through the _id index", async () => {
    // An index serves string comparisons under its own collation (jstests/core/collation.js: with
    // "Matching collations" the plan is an IXSCAN); the _id index holds the collection's.
    const coll = await collated('examined', [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]);
    const explained = await coll.find({ _id: 'B' }).explain('executionStats');
    expect(Number(explained['executionStats']['totalDocsExamined'])).toBe(1);
    expect(await coll.find({ _id: 'B' }, { collation: { locale: 'simple' } }).toArray()).toEqual([]);
    expect(ids(await coll.find({ _id: 'B' }).toArray())).toEqual(['b']);
    expect(ids(await coll.find({ _id: { $eq: 'Z' } }).toArray())).toEqual([]);
  });

  it("refuses an upsert whose { locale: 'simple' } query misses the stored _id it equals", async () => {
    // The query matches nothing binary, so the upsert inserts 'A', which the _id index refuses
    // (manual, Collation: "simple binary comparison"; the insert meets the caseless _id index).
    const coll = await collated('simple_upsert', [{ _id: 'a', n: 1 }]);
    const simple = { locale: 'simple' };
    expect(await coll.find({ _id: 'A' }, { collation: simple }).toArray()).toEqual([]);
    const error = await failure(() =>
      coll.updateOne({ _id: 'A' }, { $set: { n: 2 } }, { upsert: true, collation: simple }),
    );
    expect(error['code']).toBe(11000);
    expect(await coll.find({}).toArray()).toEqual([{ _id: 'a', n: 1 }]);
  });

  it('stops an ordered insertMany at the duplicate, an unordered one inserts the rest', async () => {
    // manual, db.collection.insertMany() "Error Handling": ordered stops at the first error,
    // unordered continues with the remaining documents.
    const ordered = await collated('ordered');
    const stop = await failure(() => ordered.insertMany([{ _id: 'b' }, { _id: 'B' }, { _id: 'c' }]));
    expect(stop['code']).toBe(11000);
    expect(stop['writeErrors'].map((e: { index: number }) => e.index)).toEqual([1]);
    expect(ids(await ordered.find({}).toArray())).toEqual(['b']);
    const unordered = await collated('unordered');
    const rest = await failure(() =>
      unordered.insertMany([{ _id: 'b' }, { _id: 'B' }, { _id: 'c' }], { ordered: false }),
    );
    expect(rest['writeErrors'].map((e: { index: number; code: number }) => [e.index, e.code])).toEqual([
      [1, 11000],
    ]);
    expect(ids(await unordered.find({}).toArray())).toEqual(['b', 'c']);
  });

  it('refuses $out of two _ids equal under the target collation, leaving the target as it was', async () => {
    // document_source_out.cpp writes into a temporary collection created with the target's options,
    // whose _id index has the target's collation, and replaces the target only when all are in.
    const target = await collated('out_target', [{ _id: 'kept' }]);
    const source = t.db.collection<Row>('out_source');
    await source.drop().catch(() => undefined);
    await source.insertMany([{ _id: 'x' }, { _id: 'X' }]);
    const error = await failure(() => source.aggregate([{ $out: 'out_target' }]).toArray());
    expect(error['code']).toBe(11000);
    expect(ids(await target.find({}).toArray())).toEqual(['kept']);
    await source.deleteOne({ _id: 'X' });
    await source.aggregate([{ $out: 'out_target' }]).toArray();
    expect(ids(await target.find({ _id: 'X' }).toArray())).toEqual(['x']);
  });

  it('refuses a $merge insert of an _id equal to a stored one under the target collation', async () => {
    // $merge on _id upserts with the aggregation's collation (document_source_merge.cpp): from a
    // collection without one the query is binary, misses 'a', and the insert of 'A' is a duplicate.
    const target = await collated('merge_target', [{ _id: 'a', n: 1 }]);
    const source = t.db.collection<Row>('merge_source');
    await source.drop().catch(() => undefined);
    await source.insertMany([{ _id: 'A', n: 2 }]);
    const error = await failure(() => source.aggregate([{ $merge: { into: 'merge_target' } }]).toArray());
    expect(error['code']).toBe(11000);
    expect(await target.find({}).toArray()).toEqual([{ _id: 'a', n: 1 }]);
  });

  it("matches a $merge's documents under the aggregation's collation", async () => {
    // constructUpdateEntries (document_source_merge.cpp) sends each upsert with the aggregation's
    // collation: its own, else the source collection's default.
    const target = await collated('merge_collated', [{ _id: 'a', n: 1 }]);
    const source = await collated('merge_collated_source', [{ _id: 'A', n: 2 }]);
    await source.aggregate([{ $merge: { into: 'merge_collated' } }]).toArray();
    expect(await target.find({}).toArray()).toEqual([{ _id: 'a', n: 2 }]);
    const plain = t.db.collection<Row>('merge_plain_source');
    await plain.drop().catch(() => undefined);
    await plain.insertOne({ _id: 'A', n: 3 });
    await plain.aggregate([{ $merge: { into: 'merge_collated' } }], { collation: caseless }).toArray();
    expect(await target.find({}).toArray()).toEqual([{ _id: 'a', n: 3 }]);
  });

  it('keeps the _id collation across renameCollection', async () => {
    const coll = await collated('before_rename', [{ _id: 'a' }]);
    await t.db.dropCollection('after_rename').catch(() => undefined);
    await coll.rename('after_rename');
    const renamed = t.db.collection<Row>('after_rename');
    expect((await failure(() => renamed.insertOne({ _id: 'A' })))['code']).toBe(11000);
    expect(ids(await renamed.find({ _id: 'A' }).toArray())).toEqual(['a']);
  });

  it('refuses in a transaction an _id equal to one stored before it or written in it', async () => {
    const coll = await collated('txn', [{ _id: 'a' }]);
    const session = t.client.startSession();
    try {
      session.startTransaction();
      expect((await failure(() => coll.insertOne({ _id: 'A' }, { session })))['code']).toBe(11000);
      await session.abortTransaction().catch(() => undefined);
      session.startTransaction();
      await coll.insertOne({ _id: 'b' }, { session });
      expect((await failure(() => coll.insertOne({ _id: 'B' }, { session })))['code']).toBe(11000);
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
    expect(ids(await coll.find({}).toArray())).toEqual(['a']);
  });
});

describe.skipIf(external)('_id under the collection default collation in the data files', () => {
  it('is still collated after the server restarts', async () => {
    await acrossRestarts('id_collation_restart', 2, async (db, round) => {
      if (round === 1) {
        const coll = await db.createCollection<Row>('names', { collation: caseless });
        await coll.insertOne({ _id: 'a', n: 1 });
        return;
      }
      const coll = db.collection<Row>('names');
      expect((await failure(() => coll.insertOne({ _id: 'A' })))['code']).toBe(11000);
      expect(await coll.find({ _id: 'A' }).toArray()).toEqual([{ _id: 'a', n: 1 }]);
    });
  });
});
