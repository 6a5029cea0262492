import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('transaction conformance ($name)', (driver) => {
  const t = connect(driver, 'txn');

  it('reads its own writes; others see them only after commit', async () => {
    const coll = t.db.collection<any>('own');
    await coll.insertOne({ _id: 1, v: 0 });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await coll.updateOne({ _id: 1 }, { $set: { v: 1 } }, { session: s });
      await coll.insertOne({ _id: 2 }, { session: s });
      expect(await coll.findOne({ _id: 1 }, { session: s })).toEqual({ _id: 1, v: 1 });
      expect(await coll.countDocuments({}, { session: s })).toBe(2);
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, v: 0 });
      expect(await coll.countDocuments({})).toBe(1);
      await s.commitTransaction();
      expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, v: 1 });
      expect(await coll.countDocuments({})).toBe(2);
    } finally {
      await s.endSession();
    }
  });

  it('reads from a snapshot: later commits by others stay invisible', async () => {
    const coll = t.db.collection<any>('snap');
    await coll.insertOne({ _id: 1, v: 'old' });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      expect((await coll.findOne({ _id: 1 }, { session: s }))!['v']).toBe('old');
      await coll.insertOne({ _id: 2, v: 'new' });
      expect(await coll.countDocuments({}, { session: s })).toBe(1);
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
  });

  it('abort undoes inserts, updates and deletes', async () => {
    const coll = t.db.collection<any>('abort');
    await coll.insertMany([
      { _id: 1, v: 1 },
      { _id: 2, v: 2 },
    ]);
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await coll.insertOne({ _id: 3 }, { session: s });
      await coll.updateOne({ _id: 1 }, { $set: { v: 100 } }, { session: s });
      await coll.deleteOne({ _id: 2 }, { session: s });
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 1 },
      { _id: 2, v: 2 },
    ]);
  });

  it('fails a conflicting write with WriteConflict (112) labelled TransientTransactionError', async () => {
    const coll = t.db.collection<any>('conflict');
    await coll.insertOne({ _id: 1, n: 0 });
    const s1 = t.client.startSession();
    const s2 = t.client.startSession();
    try {
      s1.startTransaction();
      s2.startTransaction();
      await coll.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: s1 });
      const error = await failure(() => coll.updateOne({ _id: 1 }, { $inc: { n: 10 } }, { session: s2 }));
      expect(error['code']).toBe(112);
      expect(error['hasErrorLabel']('TransientTransactionError')).toBe(true);
      await s1.commitTransaction();
      await s2.abortTransaction().catch(() => undefined);
    } finally {
      await s1.endSession();
      await s2.endSession();
    }
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, n: 1 });
  });

  it('withTransaction retries after a WriteConflict and then commits', async () => {
    const coll = t.db.collection<any>('retry');
    await coll.insertOne({ _id: 1, n: 0 });
    const blocker = t.client.startSession();
    const s = t.client.startSession();
    let attempts = 0;
    try {
      blocker.startTransaction();
      await coll.updateOne({ _id: 1 }, { $inc: { n: 100 } }, { session: blocker });
      await s.withTransaction(async () => {
        attempts++;
        if (attempts === 2) await blocker.commitTransaction();
        await coll.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: s });
      });
    } finally {
      await blocker.endSession();
      await s.endSession();
    }
    expect(attempts).toBe(2);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, n: 101 });
  });

  it('makes a plain write wait for the transaction that holds the document', async () => {
    const coll = t.db.collection<any>('waits');
    await coll.insertOne({ _id: 1, n: 0 });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await coll.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: s });
      const outside = coll.updateOne({ _id: 1 }, { $inc: { n: 10 } });
      await new Promise((r) => setTimeout(r, 50));
      await s.commitTransaction();
      await outside;
    } finally {
      await s.endSession();
    }
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, n: 11 });
  });

  it('aborts the transaction on a duplicate key inside it', async () => {
    const coll = t.db.collection<any>('dup_txn');
    await coll.insertOne({ _id: 1 });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await coll.insertOne({ _id: 2 }, { session: s });
      expect((await failure(() => coll.insertOne({ _id: 1 }, { session: s })))['code']).toBe(11000);
      await s.abortTransaction().catch(() => undefined);
    } finally {
      await s.endSession();
    }
    expect(await coll.countDocuments()).toBe(1);
  });

  it('runs a multi-collection transaction atomically', async () => {
    const a = t.db.collection<any>('acct_a');
    const b = t.db.collection<any>('acct_b');
    await a.insertOne({ _id: 'x', bal: 100 });
    await b.insertOne({ _id: 'y', bal: 0 });
    const s = t.client.startSession();
    try {
      await s.withTransaction(async () => {
        await a.updateOne({ _id: 'x' }, { $inc: { bal: -30 } }, { session: s });
        await b.updateOne({ _id: 'y' }, { $inc: { bal: 30 } }, { session: s });
      });
    } finally {
      await s.endSession();
    }
    expect((await a.findOne({ _id: 'x' }))!['bal']).toBe(70);
    expect((await b.findOne({ _id: 'y' }))!['bal']).toBe(30);
  });

  it('runs aggregate and findOneAndUpdate inside a transaction', async () => {
    const coll = t.db.collection<any>('txn_ops');
    await coll.insertMany([
      { _id: 1, g: 'a' },
      { _id: 2, g: 'a' },
    ]);
    const s = t.client.startSession();
    try {
      await s.withTransaction(async () => {
        await coll.findOneAndUpdate({ _id: 1 }, { $set: { g: 'b' } }, { session: s });
        const groups = await coll
          .aggregate([{ $group: { _id: '$g', n: { $sum: 1 } } }, { $sort: { _id: 1 } }], { session: s })
          .toArray();
        expect(groups).toEqual([
          { _id: 'a', n: 1 },
          { _id: 'b', n: 1 },
        ]);
      });
    } finally {
      await s.endSession();
    }
  });
});
