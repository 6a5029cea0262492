/**
 * Logical sessions and multi-document transactions.
 * A transaction reads from a snapshot (every collection as of its first operation, see
 * transaction-snapshot.ts) and writes to private copies; commit replays its writes onto the live
 * collections.
 * Writing a document that another session changed since the snapshot, or that another open transaction
 * has written, fails with WriteConflict (112) labelled TransientTransactionError.
 */
import type { Collection } from './collection.js';
import type { Change, Engine } from './database.js';
import { splitNs } from './namespace.js';
import { Transaction, writeConflict } from './transaction.js';
import { publishCreated } from './transaction-ddl.js';
import { forgetReplaced } from './transaction-snapshot.js';
import { forgetRetired } from './retired-collections.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** A logical session (`lsid`). */
export class Session {
  readonly id: string;
  lastUsed = Date.now();
  /** Highest txnNumber seen. */
  txnNumber = -1;
  transaction: Transaction | undefined;
  /** Replies of retryable writes by txnNumber (only the latest is kept). */
  retryReply: { txnNumber: number; reply: Doc } | undefined;

  constructor(id: string) {
    this.id = id;
  }
}

/** The error for an unknown or finished transaction number. */
export function noSuchTransaction(txnNumber: number, transient = true): CommandError {
  return new CommandError(
    ErrorCodes.NoSuchTransaction,
    `Transaction with { txnNumber: ${txnNumber} } has been aborted.`,
    {
      labels: transient ? ['TransientTransactionError'] : [],
    },
  );
}

/** Starts a transaction on a session: its first operation, whose point in time it reads. */
export function beginTransaction(engine: Engine, session: Session, txnNumber: number): Transaction {
  if (session.transaction?.state === 'active') abortTransaction(engine, session.transaction);
  const txn = new Transaction(txnNumber, engine.seq);
  session.transaction = txn;
  engine.openTransactions.add(txn);
  return txn;
}

/** Ends a transaction without applying its writes. */
export function abortTransaction(engine: Engine, txn: Transaction): void {
  if (txn.state === 'active') txn.state = 'aborted';
  end(engine, txn);
}

/** Unpins what `txn` read, drops what only it needed, and wakes the writers it held back. */
function end(engine: Engine, txn: Transaction): void {
  txn.release();
  engine.openTransactions.delete(txn);
  forgetReplaced(engine);
  forgetRetired(engine);
  engine.wake();
}

/**
 * Applies a transaction's writes to the live collections atomically (all or nothing).
 * @throws CommandError WriteConflict (TransientTransactionError) when a unique index or a newer write
 *   makes the commit impossible; the transaction is then aborted.
 */
export function commitTransaction(engine: Engine, txn: Transaction): void {
  if (txn.state === 'committed') return;
  // The collections the transaction creates are logged with its writes: a crash keeps all or none.
  engine.atomically(() => commitNow(engine, txn));
}

function commitNow(engine: Engine, txn: Transaction): void {
  const undo: { coll: Collection; idKey: string; prior: Doc | undefined }[] = [];
  const changes: Change[] = [];
  try {
    publishCreated(engine, txn);
    for (const [ns, writes] of txn.writes) {
      const [db, name] = splitNs(ns);
      const coll = engine.collection(db, name) ?? engine.create(db, name);
      for (const idKey of writes.keys())
        if ((coll.writeSeq.get(idKey) ?? -1) > txn.startSeq) throw writeConflict();
      const state = coll.writable();
      for (const [idKey, write] of writes) {
        const prior = state.docs.get(idKey);
        if (write.kind === 'put') {
          state.put(ns, write.doc, prior ? idKey : undefined);
          changes.push({ op: 'put', ns, doc: write.doc });
        } else if (prior) {
          state.remove(idKey);
          changes.push({ op: 'delete', ns, id: prior['_id'] });
        }
        undo.push({ coll, idKey, prior });
      }
    }
  } catch (error) {
    for (const { coll, idKey, prior } of undo.reverse()) {
      const state = coll.writable();
      if (prior) state.put(coll.ns, prior, state.docs.has(idKey) ? idKey : undefined);
      else state.remove(idKey);
    }
    abortTransaction(engine, txn);
    if (error instanceof CommandError && error.code === ErrorCodes.DuplicateKey) throw writeConflict();
    throw error;
  }
  for (const { coll, idKey, prior } of undo) engine.touched(coll, idKey, prior);
  txn.state = 'committed';
  engine.emit(changes);
  end(engine, txn);
}
