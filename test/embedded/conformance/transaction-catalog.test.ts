/**
 * A transaction reads the catalog as of its first operation too: a collection another client drops,
 * renames away or drops and creates again after that, which the transaction had not touched yet (so the
 * drop did not wait for it), still reads as it was. Sources: MongoDB 7.0 reads a collection in a
 * transaction from the catalog at the read timestamp (db_raii.cpp `AutoGetCollectionForReadPITCatalog`
 * takes it from `CollectionCatalog::establishConsistentCollection(opCtx, nss, readTimestamp)`;
 * SERVER-71957 "Trigger Collection instantiation in multi-document transaction read path");
 * jstests/core/txns/concurrent_drops_and_creates.js ("We can perform reads on the dropped collection
 * as it existed when we started the transaction. However, trying to perform a write will cause a write
 * conflict"); SERVER-91680 (6.0 did not keep snapshot isolation across a drop, "fixed on v7.0+").
 * A view's definition is looked up in the latest catalog (`lookupView` in the same function), its
 * source read as of the transaction's start.
 */
import { describe, expect, it } from 'vitest';
import type { ClientSession, Collection, Db } from 'mongodb';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('a transaction reads the catalog as of its start ($name)', (driver) => {
  const t = connect(driver, 'txncatalog');

  const before = [
    { _id: 1, v: 'old', w: 'x' },
    { _id: 2, v: 'two', w: 'y' },
  ];

  /** Fresh `<prefix>_a` (one document pointing at B's `_id: 1`) and `<prefix>_b` holding {@link before}. */
  async function seed(db: Db, prefix: string): Promise<{ a: Collection<any>; b: Collection<any> }> {
    const a = db.collection<any>(`${prefix}_a`);
    const b = db.collection<any>(`${prefix}_b`);
    await a.insertOne({ _id: 1, ref: 1 });
    await b.insertMany(before);
    return { a, b };
  }

  /** Runs `body` in a transaction whose first operation reads A, after `change` (another client's). */
  async function inTransaction(
    a: Collection<any>,
    change: () => Promise<unknown>,
    body: (s: ClientSession) => Promise<void>,
  ): Promise<void> {
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await a.findOne({}, { session: s });
      await change();
      await body(s);
    } finally {
      await s.abortTransaction().catch(() => undefined);
      await s.endSession();
    }
  }

  /** Every read of B the brief names, each as it reads B as of the transaction's start. */
  async function expectOldB(a: Collection<any>, b: Collection<any>, s: ClientSession): Promise<void> {
    expect(await b.find({}, { session: s }).sort({ _id: 1 }).toArray()).toEqual(before);
    expect(await b.aggregate([{ $sort: { _id: 1 } }], { session: s }).toArray()).toEqual(before);
    expect(await b.countDocuments({ v: 'old' }, { session: s })).toBe(1);
    const joined = await a
      .aggregate(
        [
          { $lookup: { from: b.collectionName, localField: 'ref', foreignField: '_id', as: 'b' } },
          { $project: { b: 1 } },
        ],
        { session: s },
      )
      .toArray();
    expect(joined).toEqual([{ _id: 1, b: [before[0]] }]);
  }

  it('reads a collection dropped after its start as it was, and may not write it (112)', async () => {
    const { a, b } = await seed(t.db, 'dropped');
    await inTransaction(
      a,
      () => b.drop(),
      async (s) => {
        await expectOldB(a, b, s);
        const error = await failure(() =>
          b.findOneAndUpdate({ _id: 3 }, { $set: { v: 'mine' } }, { upsert: true, session: s }),
        );
        expect(error['code']).toBe(112);
        expect(error['errorLabels']).toContain('TransientTransactionError');
        // The conflict aborted the transaction (the jstest's abortTransaction answers NoSuchTransaction).
        expect((await failure(() => b.find({}, { session: s }).toArray()))['code']).toBe(251);
      },
    );
    // The transaction neither brought it back nor kept it for the next one.
    const names = (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).not.toContain('dropped_b');
    await inTransaction(
      a,
      async () => undefined,
      async (s) => expect(await b.find({}, { session: s }).toArray()).toEqual([]),
    );
  });

  it('reads a collection dropped and created again after its start as the one that was there', async () => {
    const { a, b } = await seed(t.db, 'recreated');
    await inTransaction(
      a,
      async () => {
        await b.drop();
        await b.insertOne({ _id: 9, v: 'new' });
      },
      (s) => expectOldB(a, b, s),
    );
    expect(await b.find({}).toArray()).toEqual([{ _id: 9, v: 'new' }]);
  });

  it('reads a renamed collection under its old name, and not under its new one', async () => {
    const { a, b } = await seed(t.db, 'renamed');
    const c = t.db.collection<any>('renamed_c');
    await inTransaction(
      a,
      async () => {
        await b.rename('renamed_c');
        // The new name's first write must not change what the transaction reads under the old one.
        await c.updateOne({ _id: 1 }, { $set: { v: 'changed' } });
      },
      async (s) => {
        await expectOldB(a, b, s);
        expect(await c.find({}, { session: s }).toArray()).toEqual([]);
      },
    );
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, v: 'changed', w: 'x' });
  });

  it('reads a collection of a database dropped after its start as it was', async () => {
    const { a } = await seed(t.db, 'dbdropped');
    const other = t.client.db(`${t.db.databaseName}_other`);
    const b = other.collection<any>('b');
    await b.insertMany(before);
    await inTransaction(
      a,
      () => other.dropDatabase(),
      async (s) => expect(await b.find({}, { session: s }).sort({ _id: 1 }).toArray()).toEqual(before),
    );
  });

  it('reads a view through the definition it has now, over its source as of the start', async () => {
    const { a, b } = await seed(t.db, 'view');
    await t.db.createCollection('view_v', { viewOn: 'view_b', pipeline: [{ $project: { v: 1 } }] });
    const v = t.db.collection<any>('view_v');
    await inTransaction(
      a,
      async () => {
        await t.db.command({ collMod: 'view_v', viewOn: 'view_b', pipeline: [{ $project: { w: 1 } }] });
        await b.updateOne({ _id: 1 }, { $set: { w: 'changed' } });
      },
      async (s) =>
        expect(await v.find({}, { session: s }).sort({ _id: 1 }).toArray()).toEqual([
          { _id: 1, w: 'x' },
          { _id: 2, w: 'y' },
        ]),
    );
  });

  it('reads a view dropped after its start as missing', async () => {
    const { a } = await seed(t.db, 'viewdropped');
    await t.db.createCollection('viewdropped_v', { viewOn: 'viewdropped_b', pipeline: [] });
    const v = t.db.collection<any>('viewdropped_v');
    await inTransaction(
      a,
      () => v.drop(),
      async (s) => expect(await v.find({}, { session: s }).toArray()).toEqual([]),
    );
  });
});
