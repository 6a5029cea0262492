/**
 * Commands that drop, rename or change a collection's catalog entry, outside a transaction, against a
 * collection an open transaction uses: they wait for it to commit or abort. MongoDB 7.0 takes the
 * collection's exclusive lock for them, which the transaction's intent lock (held from its first read
 * or write of the collection to its end) holds back: the manual's "Production Considerations" for
 * transactions ("DDL operations … wait until the transaction holding the lock completes") and
 * transactions_block_ddl.js. A drop went ahead at once, and the transaction's commit then created the
 * collection again holding only the transaction's writes; createIndexes and collMod changed the
 * collection under the transaction.
 */
import type { ClientSession, Document } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { connect, drivers, external, failure, type Connected } from '../helpers.js';

/**
 * Runs `body` while a transaction of `t`'s client that has written `{ _id: 'txn' }` into `name` (which
 * holds `{ _id: 1 }`) stays open; `body` gets the transaction's session.
 */
async function whileWritten(
  t: Connected,
  name: string,
  body: (s: ClientSession) => Promise<void>,
  end: 'commit' | 'abort' = 'commit',
): Promise<void> {
  await t.db.collection<any>(name).insertOne({ _id: 1 });
  const s = t.client.startSession();
  try {
    s.startTransaction();
    await t.db.collection<any>(name).insertOne({ _id: 'txn' }, { session: s });
    await body(s);
    if (end === 'commit') await s.commitTransaction();
    else await s.abortTransaction();
  } finally {
    await s.endSession();
  }
}

/**
 * Sends `command` to `t`'s database while the transaction is open, and returns its answer (in an object,
 * as an answer that is awaited later). The ping after it gives it time to reach the server, so that it
 * is waiting when the transaction ends (were it to come after, it would simply run: the test then
 * checks less than it means to).
 */
async function sendWhileOpen(t: Connected, command: Document): Promise<{ answer: Promise<Document> }> {
  const answer = t.db.command(command);
  answer.catch(() => undefined);
  await t.db.command({ ping: 1 });
  return { answer };
}

describe.each(drivers)('catalog changes wait for open transactions ($name)', (driver) => {
  const t = connect(driver, 'ddlwait');

  const names = async (): Promise<string[]> =>
    (await t.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();

  it('keeps a drop waiting until its maxTimeMS passes (50), the collection untouched', async () => {
    await whileWritten(t, 'drop_timeout', async () => {
      const error = await failure(() => t.db.command({ drop: 'drop_timeout', maxTimeMS: 200 }));
      expect(error['code']).toBe(50);
    });
    expect(await t.db.collection('drop_timeout').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1 },
      { _id: 'txn' },
    ]);
  });

  it('drops after the transaction ends, so its commit does not bring the collection back', async () => {
    let dropped: Promise<Document> | undefined;
    await whileWritten(t, 'drop_after', async () => {
      ({ answer: dropped } = await sendWhileOpen(t, { drop: 'drop_after' }));
    });
    await dropped;
    expect(await names()).not.toContain('drop_after');
  });

  it('keeps renameCollection, dropIndexes and dropDatabase waiting too', async () => {
    await t.db.collection('ddl_other').createIndex({ a: 1 });
    await whileWritten(
      t,
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

  const indexNames = async (name: string): Promise<string[]> =>
    (await t.db.collection(name).indexes()).map((i) => String(i.name)).sort();

  // jstests/core/txns/noop_createIndexes_not_blocked_by_txn.js and transactions_block_ddl.js: a new
  // index takes the collection's exclusive lock (index_builds_coordinator.cpp).
  it('keeps createIndexes of a new index waiting until its maxTimeMS passes (50), creating nothing', async () => {
    await t.db.collection('ci_timeout').createIndex({ a: 1 });
    await whileWritten(t, 'ci_timeout', async () => {
      const newIndex = { key: { b: 1 }, name: 'b_1' };
      for (const indexes of [[newIndex], [{ key: { a: 1 }, name: 'a_1' }, newIndex]]) {
        const error = await failure(() =>
          t.db.command({ createIndexes: 'ci_timeout', indexes, maxTimeMS: 200 }),
        );
        expect(error['code']).toBe(50);
      }
    });
    expect(await indexNames('ci_timeout')).toEqual(['_id_', 'a_1']);
  });

  it('answers createIndexes of existing or conflicting indexes at once, under the intent lock', async () => {
    await t.db.collection('ci_noop').createIndex({ a: 1 });
    await whileWritten(t, 'ci_noop', async () => {
      // Without a maxTimeMS, a wait would end only after lockTimeoutMs, with LockTimeout.
      const noop = await t.db.command({
        createIndexes: 'ci_noop',
        indexes: [{ key: { a: 1 }, name: 'a_1' }],
      });
      expect(noop).toMatchObject({
        numIndexesBefore: 2,
        numIndexesAfter: 2,
        note: 'all indexes already exist',
      });
      const conflict = { createIndexes: 'ci_noop', indexes: [{ key: { a: 1 }, name: 'other' }] };
      expect((await failure(() => t.db.command(conflict)))['code']).toBe(85);
    });
  });

  /**
   * Sends a unique index on `k` while a transaction that inserted `{ _id: 'dup', k: 'dup' }` into `name`,
   * where `{ _id: 0, k: 'dup' }` is already, stays open; ends it with `end`, then resolves to the
   * createIndexes answer (rejects with its error).
   */
  async function uniqueIndexAcross(name: string, end: 'commit' | 'abort'): Promise<Document> {
    await t.db.collection<any>(name).insertOne({ _id: 0, k: 'dup' });
    let created: { answer: Promise<Document> } | undefined;
    await whileWritten(
      t,
      name,
      async (s) => {
        await t.db.collection<any>(name).insertOne({ _id: 'dup', k: 'dup' }, { session: s });
        const indexes = [{ key: { k: 1 }, name: 'k_1', unique: true }];
        created = await sendWhileOpen(t, { createIndexes: name, indexes });
      },
      end,
    );
    return created!.answer;
  }

  it('builds the new index once the transaction commits, over what it committed', async () => {
    // Built before the commit, the index would have held one 'dup' and the commit would have failed.
    const error = await failure(() => uniqueIndexAcross('ci_commit', 'commit'));
    expect(error['code']).toBe(11000);
    expect(await t.db.collection('ci_commit').countDocuments({ k: 'dup' })).toBe(2);
    expect(await indexNames('ci_commit')).toEqual(['_id_']);
  });

  it('builds the new index once the transaction aborts', async () => {
    expect(await uniqueIndexAcross('ci_abort', 'abort')).toMatchObject({
      numIndexesBefore: 1,
      numIndexesAfter: 2,
    });
    expect(await indexNames('ci_abort')).toEqual(['_id_', 'k_1']);
  });

  // coll_mod.cpp: collMod runs under the collection's exclusive lock.
  it('keeps collMod waiting until its maxTimeMS passes (50), changing nothing', async () => {
    await whileWritten(t, 'mod_timeout', async () => {
      const collMod = { collMod: 'mod_timeout', validator: { a: { $exists: true } }, maxTimeMS: 200 };
      expect((await failure(() => t.db.command(collMod)))['code']).toBe(50);
    });
    const [info] = await t.db.listCollections({ name: 'mod_timeout' }).toArray();
    expect((info as { options?: Document } | undefined)?.options).toEqual({});
    await t.db.collection<any>('mod_timeout').insertOne({ _id: 2 });
  });

  it('applies collMod once the transaction commits, not to the writes the transaction makes', async () => {
    let modified: { answer: Promise<Document> } | undefined;
    await whileWritten(t, 'mod_after', async (s) => {
      modified = await sendWhileOpen(t, { collMod: 'mod_after', validator: { a: { $exists: true } } });
      // Applied now, the validator would refuse this write of the transaction.
      await t.db.collection<any>('mod_after').insertOne({ _id: 'late' }, { session: s });
    });
    await modified!.answer;
    const error = await failure(() => t.db.collection<any>('mod_after').insertOne({ _id: 2 }));
    expect(error['code']).toBe(121);
    const ids = (await t.db.collection('mod_after').find().toArray()).map((d) => d['_id']);
    expect(ids.sort()).toEqual([1, 'late', 'txn']);
  });

  /** Runs `body` while a transaction that read through view `<name>_v` (on `<name>`) stays open. */
  async function whileViewRead(name: string, body: () => Promise<void>): Promise<void> {
    await t.db.collection<any>(name).insertOne({ _id: 1, a: 1, b: 2 });
    await t.db.createCollection(`${name}_v`, { viewOn: name, pipeline: [{ $project: { a: 1 } }] });
    const s = t.client.startSession();
    try {
      s.startTransaction();
      expect(await t.db.collection(`${name}_v`).find({}, { session: s }).toArray()).toEqual([
        { _id: 1, a: 1 },
      ]);
      await body();
      await s.commitTransaction();
    } finally {
      await s.endSession();
    }
  }

  // coll_mod.cpp takes the namespace's exclusive lock for a view too (views permitted), and a read
  // through a view locks the view's namespace before it finds the view (db_raii.cpp).
  it('keeps collMod of a view waiting while a transaction that read through it is open', async () => {
    let modified: { answer: Promise<Document> } | undefined;
    await whileViewRead('viewmod', async () => {
      const timedOut = {
        collMod: 'viewmod_v',
        viewOn: 'viewmod',
        pipeline: [{ $project: { b: 1 } }],
        maxTimeMS: 200,
      };
      expect((await failure(() => t.db.command(timedOut)))['code']).toBe(50);
      const [info] = await t.db.listCollections({ name: 'viewmod_v' }).toArray();
      expect((info as { options?: Document } | undefined)?.options?.['pipeline']).toEqual([
        { $project: { a: 1 } },
      ]);
      modified = await sendWhileOpen(t, {
        collMod: 'viewmod_v',
        viewOn: 'viewmod',
        pipeline: [{ $project: { b: 1 } }],
      });
    });
    await modified!.answer;
    expect(await t.db.collection('viewmod_v').find().toArray()).toEqual([{ _id: 1, b: 2 }]);
  });

  // drop_collection.cpp `_dropView` locks the view's namespace in MODE_IX only (and system.views in
  // MODE_X), which the transaction's intent lock does not hold back.
  it('drops a view at once though a transaction read through it', async () => {
    await whileViewRead('viewdrop', async () => {
      await t.db.command({ drop: 'viewdrop_v', maxTimeMS: 1000 });
      expect(await names()).not.toContain('viewdrop_v');
    });
  });

  // validate_state.cpp: a foreground validate takes the collection's exclusive lock, a background one
  // an intent lock.
  it('keeps a foreground validate waiting until its maxTimeMS passes (50), not a background one', async () => {
    await whileWritten(t, 'validate_wait', async () => {
      const validate = { validate: 'validate_wait', maxTimeMS: 200 };
      expect((await failure(() => t.db.command(validate)))['code']).toBe(50);
      const background = await t.db.command({ validate: 'validate_wait', background: true });
      // It reads the last checkpoint in MongoDB, so only its verdict is compared.
      expect(background).toMatchObject({ valid: true });
    });
    expect(await t.db.command({ validate: 'validate_wait' })).toMatchObject({ valid: true, nrecords: 2 });
  });

  // jstests/core/txns/create_collection_parallel.js ("duplicate createCollections, one inside and one
  // outside a txn"): the create outside does not wait; the transaction's commit fails instead.
  it('lets create go ahead of a transaction that created the same collection, whose commit then fails', async () => {
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await t.db.createCollection('create_both', { session: s });
      await t.db.collection<any>('create_both').insertOne({ _id: 'txn' }, { session: s });
      await t.db.command({ create: 'create_both', maxTimeMS: 1000 });
      await t.db.collection<any>('create_both').insertOne({ _id: 1 });
      const error = await failure(() => s.commitTransaction());
      expect(error['code']).toBe(112);
    } finally {
      await s.endSession();
    }
    expect(await t.db.collection('create_both').find().toArray()).toEqual([{ _id: 1 }]);
  });
});

// A server that bounds every lock wait: MongoDB answers a lock request whose deadline passes with
// LockTimeout (lock_state.cpp's _lockComplete); MongoDB itself has no such bound outside transactions.
describe.skipIf(external).each(drivers)('a catalog change that waits too long ($name)', (driver) => {
  const t = connect(driver, 'ddllock', { lockTimeoutMs: 100 });

  it('fails with LockTimeout (24) naming the lock it waited for, having changed nothing', async () => {
    const ns = () => `${t.db.databaseName}.lock_timeout`;
    await t.db.collection('lock_timeout').createIndex({ a: 1 });
    await whileWritten(t, 'lock_timeout', async () => {
      for (const command of [
        { drop: 'lock_timeout' },
        { createIndexes: 'lock_timeout', indexes: [{ key: { b: 1 }, name: 'b_1' }] },
        { dropIndexes: 'lock_timeout', index: 'a_1' },
        { collMod: 'lock_timeout', validator: { a: { $exists: true } } },
      ]) {
        const error = await failure(() => t.db.command(command));
        expect(error).toMatchObject({
          code: 24,
          codeName: 'LockTimeout',
          message: `Unable to acquire X lock on '{Collection : ${ns()}}' within 100ms.`,
        });
      }
      const error = await failure(() => t.db.command({ dropDatabase: 1 }));
      expect(error).toMatchObject({
        code: 24,
        message: `Unable to acquire X lock on '{Database : ${t.db.databaseName}}' within 100ms.`,
      });
    });
    expect(await t.db.collection('lock_timeout').find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1 },
      { _id: 'txn' },
    ]);
    const indexes = (await t.db.collection('lock_timeout').indexes()).map((i) => i.name);
    expect(indexes.sort()).toEqual(['_id_', 'a_1']);
  });
});
