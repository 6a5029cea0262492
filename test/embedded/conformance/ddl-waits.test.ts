/**
 * Commands that drop, rename or change a collection's catalog entry, outside a transaction, against a
 * collection an open transaction uses: they wait for it to commit or abort. MongoDB 7.0 takes the
 * collection's exclusive lock for them, which the transaction's intent lock (held from its first read
 * or write of the collection to its end) holds back: the manual's "Production Considerations" for
 * transactions ("DDL operations … wait until the transaction holding the lock completes") and
 * transactions_block_ddl.js. A drop went ahead at once, and the transaction's commit then created the
 * collection again holding only the transaction's writes.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('catalog changes wait for open transactions ($name)', (driver) => {
  const t = connect(driver, 'ddlwait');

  /** Runs `body` while a transaction that has written `{ _id: 'txn' }` into `name` stays open. */
  async function whileWritten(name: string, body: () => Promise<void>, end: 'commit' | 'abort' = 'commit') {
    await t.db.collection<any>(name).insertOne({ _id: 1 });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await t.db.collection<any>(name).insertOne({ _id: 'txn' }, { session: s });
      await body();
      if (end === 'commit') await s.commitTransaction();
      else await s.abortTransaction();
    } finally {
      await s.endSession();
    }
  }

  const names = async (): Promise<string[]> =>
    (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();

  it('keeps a drop waiting until its maxTimeMS passes (50), the collection untouched', async () => {
    await whileWritten('drop_timeout', async () => {
      const error = await failure(() => t.db.command({ drop: 'drop_timeout', maxTimeMS: 200 }));
      expect(error['code']).toBe(50);
    });
    expect(await t.db.collection('drop_timeout').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1 },
      { _id: 'txn' },
    ]);
  });

  it('drops after the transaction ends, so its commit does not bring the collection back', async () => {
    let dropped: Promise<unknown> | undefined;
    await whileWritten('drop_after', async () => {
      dropped = t.db.command({ drop: 'drop_after' });
      // Gives the drop time to reach the server before the commit (were it to come after, it would
      // simply drop: the test then checks nothing more than the first one).
      await t.db.command({ ping: 1 });
    });
    await dropped;
    expect(await names()).not.toContain('drop_after');
  });

  it('keeps renameCollection, dropIndexes and dropDatabase waiting too', async () => {
    await t.db.collection('ddl_other').createIndex({ a: 1 });
    await whileWritten(
      'ddl_other',
      async () => {
        const ns = `${t.db.databaseName}.ddl_other`;
        const rename = { renameCollection: ns, to: `${ns}_renamed`, maxTimeMS: 200 };
        expect((await failure(() => t.client.db('admin').command(rename)))['code']).toBe(50);
        const dropIndexes = { dropIndexes: 'ddl_other', index: 'a_1', maxTimeMS: 200 };
        expect((await failure(() => t.db.command(dropIndexes)))['code']).toBe(50);
        const dropDatabase = { dropDatabase: 1, maxTimeMS: 200 };
        expect((await failure(() => t.db.command(dropDatabase)))['code']).toBe(50);
      },
      'abort',
    );
    expect(await names()).toContain('ddl_other');
    expect(await names()).not.toContain('ddl_other_renamed');
    const indexes = await t.db.collection('ddl_other').indexes();
    expect(indexes.map((i) => i.name)).toContain('a_1');
    expect(await t.db.collection('ddl_other').find().toArray()).toEqual([{ _id: 1 }]);
  });
});
