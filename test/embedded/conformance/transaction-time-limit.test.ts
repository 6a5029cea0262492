/**
 * `maxTimeMS` on the statements of a multi-document transaction and on snapshot reads.
 *
 * MongoDB 7.0 sets a command's deadline the same way inside a transaction as outside, so a statement
 * that runs past its `maxTimeMS` fails with MaxTimeMSExpired (50) "operation exceeded time limit".
 * src/mongo/db/service_entry_point_common.cpp `invokeWithSessionCheckedOut` aborts the (unprepared)
 * transaction on any error a statement throws, so what it wrote before is discarded and a later
 * commitTransaction fails with NoSuchTransaction (251). src/mongo/db/error_labels.cpp
 * `isTransientTransactionError` does not count 50 (category Interruption in
 * src/mongo/base/error_codes.yml, not RetriableError): the error carries no TransientTransactionError
 * label, so the driver's `withTransaction` does not start over
 * (https://www.mongodb.com/docs/manual/core/transactions-in-applications/). The embedded database ran
 * such a statement with no time limit at all: it never ended.
 *
 * A statement is made slow without bound as in write-time-limit.test.ts: its filter (or the
 * collection's validator) computes nested `$reduce`s for the document marked `slow`.
 */
import { describe, expect, it } from 'vitest';
import type { ClientSession, Collection } from 'mongodb';
import { connect, drivers, failure } from '../helpers.js';
import { maxTimeMS, slowOnMarked, threeDocuments } from './slow-statements.js';

describe.each(drivers)('maxTimeMS in transactions and snapshot reads ($name)', (driver) => {
  // In a worker thread, so that a statement that runs past its time limit fails the test by its timeout.
  const t = connect(driver, 'txn_time', { worker: true });

  /**
   * Starts a transaction on a fresh collection `name` that first inserts `{ _id: 'earlier' }`, then runs
   * `slow`, which must fail; returns its error and the commit's error, the transaction having ended.
   */
  async function slowInTransaction(
    name: string,
    slow: (coll: Collection<any>, session: ClientSession) => Promise<unknown>,
    validator?: object,
  ) {
    const coll = await threeDocuments(t.db, name, validator);
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await coll.insertOne({ _id: 'earlier' }, { session });
      const error = await failure(() => slow(coll, session));
      const commitError = await failure(() => session.commitTransaction());
      return { coll, error, commitError };
    } finally {
      await session.endSession();
    }
  }

  /** Checks that `error` is a time-limit error without a label and the transaction was aborted. */
  async function expectAborted(result: Awaited<ReturnType<typeof slowInTransaction>>) {
    const { coll, error, commitError } = result;
    expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
    expect(error['message']).toContain('operation exceeded time limit');
    expect(error['errorLabels'] ?? []).toEqual([]);
    expect(commitError).toMatchObject({ code: 251, codeName: 'NoSuchTransaction' });
    // The transaction's earlier insert and whatever the slow statement did are gone.
    expect(await coll.countDocuments({ _id: 'earlier' })).toBe(0);
    expect(await coll.countDocuments({ done: true })).toBe(0);
  }

  it('a find stops with 50 and aborts the transaction', async () => {
    await expectAborted(
      await slowInTransaction('find', (coll, session) =>
        coll.find({ $expr: slowOnMarked }, { session, maxTimeMS }).toArray(),
      ),
    );
  });

  it('an aggregate stops with 50 and aborts the transaction', async () => {
    await expectAborted(
      await slowInTransaction('aggregate', (coll, session) =>
        coll.aggregate([{ $match: { $expr: slowOnMarked } }], { session, maxTimeMS }).toArray(),
      ),
    );
  });

  it('an update batch stops with 50 at its slow second statement; the first is not committed', async () => {
    await expectAborted(
      await slowInTransaction('update', (coll, session) =>
        t.db.command(
          {
            update: coll.collectionName,
            updates: [1, 2, 3].map((id) => ({
              q: { _id: id, $expr: slowOnMarked },
              u: { $set: { done: true } },
            })),
            maxTimeMS,
          },
          { session },
        ),
      ),
    );
  });

  it('an insert whose validation is slow stops with 50 and aborts the transaction', async () => {
    await expectAborted(
      await slowInTransaction(
        'insert',
        (coll, session) =>
          coll.insertMany(
            [
              { _id: 1, done: true },
              { _id: 2, slow: true },
            ],
            { session, maxTimeMS },
          ),
        { $expr: slowOnMarked },
      ),
    );
  });

  it('a findOneAndUpdate stops with 50 and aborts the transaction', async () => {
    await expectAborted(
      await slowInTransaction('find_and_modify', (coll, session) =>
        coll.findOneAndUpdate(
          { $expr: slowOnMarked, slow: true },
          { $set: { done: true } },
          { session, maxTimeMS },
        ),
      ),
    );
  });

  it('withTransaction does not start over after a statement stops with 50', async () => {
    const coll = await threeDocuments(t.db, 'with_transaction');
    const session = t.client.startSession();
    let attempts = 0;
    try {
      const error = await failure(() =>
        session.withTransaction(async () => {
          attempts++;
          await coll.insertOne({ _id: 'earlier' }, { session });
          await coll.find({ $expr: slowOnMarked }, { session, maxTimeMS }).toArray();
        }),
      );
      expect(error).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
    } finally {
      await session.endSession();
    }
    expect(attempts).toBe(1);
    expect(await coll.countDocuments({ _id: 'earlier' })).toBe(0);
  });

  it('a statement within its maxTimeMS keeps the transaction, and maxCommitTimeMS is accepted', async () => {
    const coll = await threeDocuments(t.db, 'within');
    const session = t.client.startSession();
    try {
      session.startTransaction({ maxCommitTimeMS: 60_000 });
      await coll.updateOne({ _id: 1 }, { $set: { done: true } }, { session, maxTimeMS: 60_000 });
      expect(await coll.countDocuments({ done: true }, { session, maxTimeMS: 60_000 })).toBe(1);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect(await coll.find({ done: true }).toArray()).toEqual([{ _id: 1, done: true }]);
  });

  // Snapshot reads outside a transaction are held to maxTimeMS as any read is
  // (https://www.mongodb.com/docs/manual/reference/read-concern-snapshot/; maxTimeMS on find:
  // https://www.mongodb.com/docs/manual/reference/command/find/).
  it('a snapshot find and aggregate stop with 50', async () => {
    const coll = await threeDocuments(t.db, 'snapshot');
    const session = t.client.startSession({ snapshot: true });
    try {
      const found = await failure(() => coll.find({ $expr: slowOnMarked }, { session, maxTimeMS }).toArray());
      expect(found).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
      const aggregated = await failure(() =>
        coll.aggregate([{ $match: { $expr: slowOnMarked } }], { session, maxTimeMS }).toArray(),
      );
      expect(aggregated).toMatchObject({ code: 50, codeName: 'MaxTimeMSExpired' });
    } finally {
      await session.endSession();
    }
  });
});
