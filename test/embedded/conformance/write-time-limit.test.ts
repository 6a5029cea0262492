/**
 * `maxTimeMS` on insert, update, delete and findAndModify bounds the whole command
 * (https://www.mongodb.com/docs/manual/reference/command/update/, `maxTimeMS`): once it has passed, the
 * command fails with MaxTimeMSExpired (50) "operation exceeded time limit". MongoDB 7.0 counts 50 among
 * its interruption errors (src/mongo/base/error_codes.yml, category Interruption), and
 * src/mongo/db/ops/write_ops_exec.cpp `handleError` rethrows an interruption ("These have always failed
 * the whole batch"): the reply is a top-level `ok: 0` error, not a write error, ordered or not, and the
 * statements applied before stay applied. 50 carries no RetryableWriteError label, so drivers do not
 * retry such a write (https://www.mongodb.com/docs/manual/core/retryable-writes/).
 *
 * A statement is made slow without bound, so that only its time limit ends it: its filter (or the
 * collection's validator) computes, for the document marked `slow`, nested `$reduce`s over a million
 * steps each. The embedded database ran a retryable write, or a statement after the first of a batch,
 * with no time limit at all, and reported a 50 as a write error.
 */
import { describe, expect, it } from 'vitest';
import type { Collection, CommandStartedEvent } from 'mongodb';
import { connect, drivers, failure } from '../helpers.js';
import { maxTimeMS, slowOnMarked, threeDocuments } from './slow-statements.js';

describe.each(drivers)('maxTimeMS on write commands ($name)', (driver) => {
  // In a worker thread, so that a write that runs past its time limit fails the test by its timeout.
  const t = connect(driver, 'write_time', { worker: true });

  /** An update statement setting `done` on document `_id`, through the endless filter. */
  const setDone = (id: number) => ({ q: { _id: id, $expr: slowOnMarked }, u: { $set: { done: true } } });

  it.each([true, false])(
    'an update batch (ordered: %s) fails whole with 50 at its slow second statement, the first applied',
    async (ordered) => {
      const coll = await threeDocuments(t.db, `update_${ordered}`);
      const error = await failure(() =>
        t.db.command({
          update: coll.collectionName,
          updates: [setDone(1), setDone(2), setDone(3)],
          ordered,
          maxTimeMS,
        }),
      );
      expect(error).toMatchObject({
        code: 50,
        codeName: 'MaxTimeMSExpired',
        message: 'operation exceeded time limit',
      });
      expect(await coll.find({ done: true }).toArray()).toEqual([{ _id: 1, done: true }]);
    },
  );

  it('a multi-document delete stops with 50, not a write error, and keeps the slow document', async () => {
    const coll = await threeDocuments(t.db, 'delete_many');
    const error = await failure(() =>
      t.db.command({
        delete: coll.collectionName,
        deletes: [{ q: { $expr: slowOnMarked }, limit: 0 }],
        maxTimeMS,
      }),
    );
    expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
    // MongoDB deletes as it scans: what comes before the slow document may be gone, the rest stays.
    expect(await coll.find({ _id: { $gte: 2 } }).toArray()).toEqual([{ _id: 2, slow: true }, { _id: 3 }]);
  });

  it.each([true, false])(
    'insertMany (ordered: %s) stops with 50 at a document whose validation is slow',
    async (ordered) => {
      const coll = await threeDocuments(t.db, `insert_${ordered}`, { $expr: slowOnMarked });
      const error = await failure(() =>
        coll.insertMany([{ _id: 1 }, { _id: 2, slow: true }, { _id: 3 }], { ordered, maxTimeMS }),
      );
      expect(error).toMatchObject({ code: 50, message: 'operation exceeded time limit' });
      // A top-level error: the driver reports no write error.
      expect(error['writeErrors']).toEqual([]);
      expect(await coll.find().toArray()).toEqual([{ _id: 1 }]);
    },
  );

  it('bulkWrite, sent as a retryable write, stops with 50 at its slow second statement', async () => {
    const coll = await threeDocuments(t.db, 'bulk');
    const updateOne = (id: number) => ({
      updateOne: { filter: { _id: id, $expr: slowOnMarked }, update: { $set: { done: true } } },
    });
    const error = await failure(() =>
      coll.bulkWrite([updateOne(1), updateOne(2), updateOne(3)], { ordered: false, maxTimeMS }),
    );
    expect(error).toMatchObject({ code: 50, message: 'operation exceeded time limit' });
    expect(error['writeErrors']).toEqual([]);
    expect(await coll.find({ done: true }).toArray()).toEqual([{ _id: 1, done: true }]);
  });

  describe('a retryable write', () => {
    /** The `commandName` commands a fresh client sends while `fn` runs with its collection `name`. */
    async function sent(
      name: string,
      commandName: string,
      fn: (coll: Collection<any>) => Promise<unknown>,
    ): Promise<{ error: Record<string, any>; commands: CommandStartedEvent[] }> {
      const client = new driver.MongoClient(t.uri, { monitorCommands: true });
      const commands: CommandStartedEvent[] = [];
      client.on('commandStarted', (event) => {
        if (event.commandName === commandName) commands.push(event);
      });
      try {
        const error = await failure(() => fn(client.db(t.db.databaseName).collection<any>(name)));
        return { error, commands };
      } finally {
        await client.close();
      }
    }

    it('updateOne with a slow filter stops with 50 and is not retried', async () => {
      const coll = await threeDocuments(t.db, 'update_one');
      const { error, commands } = await sent(coll.collectionName, 'update', (c) =>
        c.updateOne({ $expr: slowOnMarked, slow: true }, { $set: { done: true } }, { maxTimeMS }),
      );
      expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
      expect(commands).toHaveLength(1);
      expect(commands[0]!.command['txnNumber']).toBeDefined();
      expect(await coll.countDocuments({ done: true })).toBe(0);
    });

    it('findOneAndUpdate with a slow filter stops with 50 and is not retried', async () => {
      const coll = await threeDocuments(t.db, 'find_and_modify');
      const { error, commands } = await sent(coll.collectionName, 'findAndModify', (c) =>
        c.findOneAndUpdate({ $expr: slowOnMarked, slow: true }, { $set: { done: true } }, { maxTimeMS }),
      );
      // MongoDB 7.0 may prefix the message with "Plan executor error during findAndModify :: caused by :: ".
      expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
      expect(error['message']).toContain('operation exceeded time limit');
      expect(commands).toHaveLength(1);
      expect(commands[0]!.command['txnNumber']).toBeDefined();
      expect(await coll.countDocuments({ done: true })).toBe(0);
    });
  });

  describe('a write waiting for an open transaction', () => {
    /** Runs `write` while a transaction holds document 2 of a fresh collection `name`, then aborts it. */
    async function whileHeld(name: string, write: (coll: Collection<any>) => Promise<unknown>) {
      const coll = await threeDocuments(t.db, name);
      const session = t.client.startSession();
      try {
        session.startTransaction();
        await coll.updateOne({ _id: 2 }, { $set: { v: 'txn' } }, { session });
        const error = await failure(() => write(coll));
        await session.abortTransaction();
        return { coll, error };
      } finally {
        await session.endSession();
      }
    }

    // The wait ends at maxTimeMS (500 ms) with 50, long before lockTimeoutMs (5 s) would end it with 112.
    it('fails with 50 at maxTimeMS when it is the second statement of a batch, the first applied', async () => {
      const { coll, error } = await whileHeld('held_batch', (c) =>
        t.db.command({
          update: c.collectionName,
          updates: [1, 2, 3].map((id) => ({ q: { _id: id }, u: { $set: { done: true } } })),
          maxTimeMS,
        }),
      );
      expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
      expect(await coll.find({ done: true }).toArray()).toEqual([{ _id: 1, done: true }]);
    });

    it('fails with 50 at maxTimeMS when it is sent as a retryable write', async () => {
      const { coll, error } = await whileHeld('held_retryable', (c) =>
        c.updateOne({ _id: 2 }, { $set: { done: true } }, { maxTimeMS }),
      );
      expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
      expect(await coll.countDocuments({ done: true })).toBe(0);
    });
  });

  it('a find scanning 20,000 documents stops at maxTimeMS 1', async () => {
    const coll = t.db.collection<any>('scan');
    await coll.insertMany(Array.from({ length: 20_000 }, (_, i) => ({ _id: i, x: i })));
    // No regex nor $reduce: only the scan itself can notice the time limit.
    const filter = { $expr: { $lt: ['$x', -1] } };
    const error = await failure(() => coll.find(filter, { maxTimeMS: 1 }).toArray());
    expect(error).toMatchObject({ code: 50, message: 'operation exceeded time limit' });
    expect(await coll.countDocuments(filter)).toBe(0);
  });
});
