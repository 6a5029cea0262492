/**
 * What MongoDB 7.0 refuses, refused with its code: each case names where the expected answer comes from.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('refusals conformance ($name)', (driver) => {
  const t = connect(driver, 'refusals');

  // Source: driver spec crud/tests/unified/updateOne-sort.yml and replaceOne-sort.yml (sort on an update
  // statement needs minServerVersion 8.0; MongoDB 7.0's strict IDL parser refuses the unknown field, 40415).
  it('refuses sort on update and replace statements (arrived in 8.0)', async () => {
    const coll = t.db.collection<any>('sorted');
    await coll.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    for (const u of [{ $set: { y: 1 } }, { y: 1 }]) {
      const error = await failure(() =>
        t.db.command({ update: 'sorted', updates: [{ q: {}, u, sort: { x: -1 } }] }),
      );
      expect(error['code']).toBe(40415);
      expect(error['message']).toBe("BSON field 'update.updates.sort' is an unknown field.");
    }
    expect(await coll.find({ y: 1 }).toArray()).toEqual([]);
  });

  // Source: MongoDB manual, "insert" command (https://www.mongodb.com/docs/manual/reference/command/insert/):
  // the fields are insert, documents, ordered, maxTimeMS, writeConcern, bypassDocumentValidation, comment;
  // the server's IDL parser refuses any other with 40415.
  it('refuses unknown fields on insert (e.g. collation)', async () => {
    const error = await failure(() =>
      t.db.command({ insert: 'unknownfield', documents: [{ _id: 1 }], collation: { locale: 'en' } }),
    );
    expect(error['code']).toBe(40415);
    expect(error['message']).toBe("BSON field 'insert.collation' is an unknown field.");
    expect(await t.db.collection('unknownfield').countDocuments()).toBe(0);
  });

  // Source: driver spec crud/tests/unified/insertOne-dots_and_dollars.yml, "Inserting document with
  // dollar-prefixed key in _id yields server-side error" (5.0+ kept the restriction for _id).
  it('refuses an _id containing $-prefixed keys (DollarPrefixedFieldName)', async () => {
    const coll = t.db.collection<any>('dollarid');
    const error = await failure(() => coll.insertOne({ _id: { $a: 1 } }));
    expect(error['code']).toBe(52);
    expect(error['message']).toBe(
      "_id fields may not contain '$'-prefixed fields: $a is not valid for storage.",
    );
    const upsert = await failure(() =>
      coll.updateOne({ _id: { $eq: { $b: 1 } } } as any, { $set: { v: 1 } }, { upsert: true }),
    );
    expect(upsert['code']).toBe(52);
    expect(await coll.countDocuments()).toBe(0);
  });

  // Source: driver spec transactions/tests/unified/count.yml (count in a transaction fails with
  // OperationNotSupportedInTransaction, without the TransientTransactionError label).
  it('refuses count inside a transaction (OperationNotSupportedInTransaction)', async () => {
    await t.db.collection<any>('counted').insertOne({ _id: 1 });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      const error = await failure(() =>
        t.db.command({ count: 'counted', query: { _id: 1 } }, { session: s }),
      );
      expect(error['codeName']).toBe('OperationNotSupportedInTransaction');
      expect(error['code']).toBe(263);
      expect(error['hasErrorLabel']('TransientTransactionError')).toBe(false);
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
  });

  // Source: driver spec crud/tests/unified/aggregate-out-readConcern.yml, "readConcern linearizable with
  // out stage" expects an error (InvalidOptions: "$out cannot be used with a 'linearizable' read concern level").
  it("refuses $out with readConcern 'linearizable'", async () => {
    const coll = t.db.collection<any>('outsource');
    await coll.insertMany([{ _id: 1 }, { _id: 2 }]);
    const error = await failure(() =>
      coll.aggregate([{ $out: 'outtarget' }], { readConcern: { level: 'linearizable' } }).toArray(),
    );
    expect(error['code']).toBe(72);
    expect(error['message']).toBe("$out cannot be used with a 'linearizable' read concern level");
    const names = (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).not.toContain('outtarget');
    await coll.aggregate([{ $out: 'outtarget' }], { readConcern: { level: 'majority' } }).toArray();
    expect(await t.db.collection('outtarget').countDocuments()).toBe(2);
  });

  // Source: driver spec sessions/tests/unified/snapshot-sessions-unsupported-ops.yml (insertOne, insertMany,
  // updateOne, deleteOne, findOneAndUpdate in a snapshot session: server-side error, nothing written).
  it('refuses writes inside a snapshot session', async () => {
    const coll = t.db.collection<any>('snapwrites');
    await coll.insertOne({ _id: 1, x: 11 });
    const s = t.client.startSession({ snapshot: true });
    try {
      const attempts = [
        () => coll.insertOne({ _id: 22 }, { session: s }),
        () => coll.insertMany([{ _id: 23 }, { _id: 24 }], { session: s }),
        () => coll.updateOne({ _id: 1 }, { $inc: { x: 1 } }, { session: s }),
        () => coll.deleteOne({}, { session: s }),
        () => coll.findOneAndUpdate({ _id: 1 }, { $inc: { x: 1 } }, { session: s }),
      ];
      for (const attempt of attempts) {
        const error = await failure(attempt);
        // A server error (insertMany's MongoBulkWriteError is a MongoServerError too).
        expect(error).toBeInstanceOf(driver.MongoServerError);
        expect(error['code']).toBe(72);
      }
    } finally {
      await s.endSession();
    }
    expect(await coll.find().toArray()).toEqual([{ _id: 1, x: 11 }]);
  });

  // Source: MongoDB manual, "Write Concern" (https://www.mongodb.com/docs/manual/reference/write-concern/):
  // w: <number> asks for that many data-bearing members; a one-member replica set applies the write and
  // answers writeConcernError UnsatisfiableWriteConcern (100), "Not enough data-bearing nodes".
  it('reports a write-concern error for w greater than the number of members', async () => {
    const coll = t.db.collection<any>('wc');
    const error = await failure(() => coll.insertOne({ _id: 1 }, { writeConcern: { w: 3 } }));
    expect(error['code']).toBe(100);
    expect(error['codeName'] ?? error['result']?.['writeConcernError']?.['codeName']).toBe(
      'UnsatisfiableWriteConcern',
    );
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1 });
    await coll.insertOne({ _id: 2 }, { writeConcern: { w: 'majority' } });
    await coll.insertOne({ _id: 3 }, { writeConcern: { w: 1 } });
    expect(await coll.countDocuments()).toBe(3);
  });
});
