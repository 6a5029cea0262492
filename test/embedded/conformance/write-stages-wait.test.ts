/**
 * `$merge` and `$out` outside a transaction, against a target an open transaction holds: they wait for
 * it to commit or abort, writing nothing meanwhile, then run (MongoDB's transactions_block_ddl.js and
 * the manual's "Transactions and Operations": a write outside a transaction waits for the lock the
 * transaction holds). A blocked `$merge` failed at once with BadValue (2), after part of its documents
 * were written; a `$out` went ahead unless the transaction held one of its own `_id`s.
 */
import type { AggregateOptions, Db } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { connect, drivers, external, failure, type Connected } from '../helpers.js';

/** The server's count of commands so far (serverStatus `opcounters.command`; the server counts aggregates). */
async function commandCount(db: Db): Promise<number> {
  return Number((await db.admin().command({ serverStatus: 1 }))['opcounters'].command);
}

/**
 * Resolves once the server has started a command sent after `before` was counted. The server counts an
 * aggregate as it starts it and runs it up to its first wait before it answers another command.
 */
async function started(db: Db, before: number): Promise<void> {
  while ((await commandCount(db)) <= before) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * The error of a `$merge` (with aggregate options `options`) into `${name}_target` while a transaction
 * holds the second of the two documents it would write and stays open; checks that it wrote nothing.
 */
async function mergeHeldUntilTimeout(
  t: Connected,
  name: string,
  options: AggregateOptions = {},
): Promise<Record<string, any>> {
  const target = t.db.collection<any>(`${name}_target`);
  await target.insertMany([{ _id: 1 }, { _id: 2 }]);
  await t.db.collection<any>(`${name}_source`).insertMany([
    { _id: 1, m: 1 },
    { _id: 2, m: 2 },
  ]);
  const s = t.client.startSession();
  let error: Record<string, any>;
  try {
    s.startTransaction();
    await target.updateOne({ _id: 2 }, { $set: { v: 'txn' } }, { session: s });
    error = await failure(() =>
      t.db
        .collection(`${name}_source`)
        .aggregate([{ $sort: { _id: 1 } }, { $merge: { into: target.collectionName } }], options)
        .toArray(),
    );
    await s.abortTransaction();
  } finally {
    await s.endSession();
  }
  expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
  return error;
}

describe.each(drivers)('write stages wait for open transactions ($name)', (driver) => {
  const t = connect(driver, 'stagewait');

  /** A source `name` holding `docs`, merged in `_id` order by the returned pipeline's `$merge`. */
  async function source(name: string, docs: object[], merge: object): Promise<() => Promise<unknown>> {
    await t.db.collection<any>(name).insertMany(docs as any[]);
    return () =>
      t.db
        .collection(name)
        .aggregate([{ $sort: { _id: 1 } }, { $merge: merge }])
        .toArray();
  }

  it.each(['commit', 'abort'] as const)(
    'makes $merge wait for a transaction holding one of its documents, then merge all (%s)',
    async (end) => {
      const target = t.db.collection<any>(`merge_target_${end}`);
      await target.insertMany([
        { _id: 1, v: 'old' },
        { _id: 2, v: 'old' },
      ]);
      const merge = await source(
        `merge_source_${end}`,
        [
          { _id: 1, m: 1 },
          { _id: 2, m: 2 },
          { _id: 3, m: 3 },
        ],
        { into: target.collectionName },
      );
      const s = t.client.startSession();
      try {
        s.startTransaction();
        await target.updateOne({ _id: 2 }, { $set: { v: 'txn' } }, { session: s });
        const before = await commandCount(t.db);
        const merging = merge();
        await started(t.db, before);
        // Waiting, it has written nothing: not even the document before the held one.
        expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([
          { _id: 1, v: 'old' },
          { _id: 2, v: 'old' },
        ]);
        if (end === 'commit') await s.commitTransaction();
        else await s.abortTransaction();
        await merging;
      } finally {
        await s.endSession();
      }
      const v = end === 'commit' ? 'txn' : 'old';
      expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 'old', m: 1 },
        { _id: 2, v, m: 2 },
        { _id: 3, m: 3 },
      ]);
    },
  );

  it('fails a waiting $merge with MaxTimeMSExpired (50) once its maxTimeMS passes, having written nothing', async () => {
    // transactions_block_ddl.js: a command waiting for a transaction's lock fails with MaxTimeMSExpired.
    expect((await mergeHeldUntilTimeout(t, 'merge_maxtime', { maxTimeMS: 200 }))['code']).toBe(50);
  });

  it('makes a $merge read from a view wait too', async () => {
    const target = t.db.collection<any>('merge_view_target');
    await target.insertOne({ _id: 1, v: 'old' });
    await t.db.collection<any>('merge_view_source').insertOne({ _id: 1, m: 1 });
    await t.db.command({ create: 'merge_view', viewOn: 'merge_view_source', pipeline: [] });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await target.updateOne({ _id: 1 }, { $set: { v: 'txn' } }, { session: s });
      const before = await commandCount(t.db);
      const merging = t.db
        .collection('merge_view')
        .aggregate([{ $merge: { into: target.collectionName } }])
        .toArray();
      await started(t.db, before);
      await s.commitTransaction();
      await merging;
    } finally {
      await s.endSession();
    }
    expect(await target.find().toArray()).toEqual([{ _id: 1, v: 'txn', m: 1 }]);
  });

  it('keeps a $merge that fails for a real reason as MongoDB does while a transaction holds a document', async () => {
    // Manual, "$merge": it is not atomic; the documents it wrote before an error stay written. The
    // duplicate comes before the held document, so MongoDB never reaches it and does not wait.
    const target = t.db.collection<any>('merge_fail_target');
    await target.insertMany([{ _id: 2 }, { _id: 9 }]);
    const merge = await source('merge_fail_source', [{ _id: 1 }, { _id: 2 }, { _id: 9, m: 9 }], {
      into: target.collectionName,
      whenMatched: 'fail',
    });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await target.updateOne({ _id: 9 }, { $set: { v: 'txn' } }, { session: s });
      const error = await failure(merge);
      expect(error['code']).toBe(11000);
      expect(await target.find().sort({ _id: 1 }).toArray()).toEqual([{ _id: 1 }, { _id: 2 }, { _id: 9 }]);
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
  });

  it.each([
    ['wrote another document of', 'commit'],
    ['wrote another document of', 'abort'],
    // A transaction's reads take the collection's intent lock too, held until it ends (MongoDB's
    // supportsLockFreeRead, db_raii.cpp: no lock-free reads in multi-document transactions).
    ['has only read', 'commit'],
  ] as const)(
    'makes $out wait for a transaction that %s its target, then replace it (%s)',
    async (use, end) => {
      // The rename over the target needs the collection's exclusive lock, which the transaction's intent
      // lock holds back until it ends; what it commits is then replaced with the rest of the target.
      const name = `out_${use === 'has only read' ? 'read' : 'write'}_${end}`;
      const target = t.db.collection<any>(`${name}_target`);
      await target.insertOne({ _id: 1, v: 'old' });
      await t.db.collection<any>(`${name}_source`).insertOne({ _id: 1, v: 'new' });
      const s = t.client.startSession();
      try {
        s.startTransaction();
        if (use === 'has only read')
          expect(await target.find({}, { session: s }).toArray()).toEqual([{ _id: 1, v: 'old' }]);
        else await target.insertOne({ _id: 'txn' }, { session: s });
        const before = await commandCount(t.db);
        const out = t.db
          .collection(`${name}_source`)
          .aggregate([{ $out: target.collectionName }])
          .toArray();
        await started(t.db, before);
        expect(await target.find().toArray()).toEqual([{ _id: 1, v: 'old' }]);
        if (end === 'commit') await s.commitTransaction();
        else await s.abortTransaction();
        await out;
      } finally {
        await s.endSession();
      }
      expect(await target.find().toArray()).toEqual([{ _id: 1, v: 'new' }]);
    },
  );

  it('fails a transaction write into a target $out replaced after the transaction started', async () => {
    // MongoDB compares the collection the transaction's snapshot holds under that name with the latest
    // one and answers WriteConflict (shard_role.cpp: "Unable to write to collection … due to catalog
    // changes"), so withTransaction starts over. The write was taken, and committed into the new target.
    const target = t.db.collection<any>('out_late_target');
    await target.insertOne({ _id: 1, v: 'old' });
    await t.db.collection<any>('out_late_source').insertOne({ _id: 1, v: 'new' });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await t.db.collection<any>('out_late_other').insertOne({ _id: 1 }, { session: s });
      await t.db
        .collection('out_late_source')
        .aggregate([{ $out: target.collectionName }])
        .toArray();
      const error = await failure(() => target.insertOne({ _id: 'txn' }, { session: s }));
      expect(error['code']).toBe(112);
      expect(error['hasErrorLabel']('TransientTransactionError')).toBe(true);
      await s.abortTransaction().catch(() => undefined);
    } finally {
      await s.endSession();
    }
    expect(await target.find().toArray()).toEqual([{ _id: 1, v: 'new' }]);
  });
});

describe.skipIf(external).each(drivers)('a write stage that waits too long ($name)', (driver) => {
  const t = connect(driver, 'stagewaitlong', { lockTimeoutMs: 100 });

  it('fails a $merge with WriteConflict (112) once the lock timeout passes, having written nothing', async () => {
    expect((await mergeHeldUntilTimeout(t, 'merge_long'))['code']).toBe(112);
  });

  it('fails an $out with LockTimeout (24) once the lock timeout passes, the target untouched', async () => {
    // $out waits for the target's exclusive lock; MongoDB answers a lock request whose deadline
    // passes with LockTimeout (lock_state.cpp's _lockComplete).
    const target = t.db.collection<any>('out_long_target');
    await target.insertOne({ _id: 1, v: 'old' });
    await t.db.collection<any>('out_long_source').insertOne({ _id: 1, v: 'new' });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await target.insertOne({ _id: 'txn' }, { session: s });
      const out = () =>
        t.db
          .collection('out_long_source')
          .aggregate([{ $out: target.collectionName }])
          .toArray();
      expect(await failure(out)).toMatchObject({
        code: 24,
        message: `Unable to acquire X lock on '{Collection : ${target.namespace}}' within 100ms.`,
      });
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
    expect(await target.find().toArray()).toEqual([{ _id: 1, v: 'old' }]);
  });
});
