/**
 * Collections and indexes created inside a transaction. Each case names where the expected answer
 * comes from.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('DDL inside transactions conformance ($name)', (driver) => {
  const t = connect(driver, 'txnddl');

  const names = async () => (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);

  // Source: MongoDB manual, "Transactions" → "Create Collections and Indexes in a Transaction"
  // (https://www.mongodb.com/docs/manual/core/transactions/#create-collections-and-indexes-in-a-transaction)
  // and driver spec transactions/tests/unified/create-collection.yml (an insert into a missing collection
  // creates it implicitly; the collection exists for others only once the transaction commits).
  it('an implicitly created collection is invisible outside until commit', async () => {
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await t.db.collection<any>('implicit').insertOne({ _id: 1 }, { session: s });
      expect(await t.db.collection<any>('implicit').findOne({ _id: 1 }, { session: s })).toEqual({ _id: 1 });
      expect(await names()).not.toContain('implicit');
      expect(await t.db.collection('implicit').countDocuments()).toBe(0);
      await s.commitTransaction();
    } finally {
      await s.endSession();
    }
    expect(await names()).toContain('implicit');
    expect(await t.db.collection('implicit').find().toArray()).toEqual([{ _id: 1 }]);
  });

  // Source: driver spec transactions/tests/unified/create-collection.yml and create-index.yml (createCollection
  // and createIndex in a transaction; after abort neither exists, after commit both do).
  it('an explicitly created collection and its index are gone on abort and live after commit', async () => {
    for (const outcome of ['abort', 'commit'] as const) {
      const s = t.client.startSession();
      try {
        s.startTransaction();
        const coll = await t.db.createCollection<any>('explicit', { session: s });
        await coll.createIndex({ email: 1 }, { unique: true, session: s });
        await coll.insertOne({ _id: 1, email: 'a@x' }, { session: s });
        expect(await names()).not.toContain('explicit');
        if (outcome === 'abort') await s.abortTransaction();
        else await s.commitTransaction();
      } finally {
        await s.endSession();
      }
      if (outcome === 'abort') expect(await names()).not.toContain('explicit');
    }
    const coll = t.db.collection<any>('explicit');
    expect(await coll.find().toArray()).toEqual([{ _id: 1, email: 'a@x' }]);
    const indexes = await coll.listIndexes().toArray();
    expect(indexes.map((i) => i['name'])).toEqual(['_id_', 'email_1']);
    expect((await failure(() => coll.insertOne({ _id: 2, email: 'a@x' })))['code']).toBe(11000);
  });

  // Source: MongoDB manual, "Transactions" → "Create Collections and Indexes in a Transaction": an index
  // can be created in a transaction only on a collection that does not exist yet or was created earlier
  // in the same transaction (OperationNotSupportedInTransaction otherwise).
  it('refuses a new index on a collection that existed before the transaction', async () => {
    const coll = t.db.collection<any>('existing');
    await coll.insertOne({ _id: 1, a: 1 });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      const error = await failure(() => coll.createIndex({ a: 1 }, { session: s }));
      expect(error['codeName']).toBe('OperationNotSupportedInTransaction');
      await s.abortTransaction().catch(() => undefined);
    } finally {
      await s.endSession();
    }
    expect((await coll.listIndexes().toArray()).map((i) => i['name'])).toEqual(['_id_']);
  });
});
