/**
 * One multi-document transaction's state (its snapshot, private copies and pending writes), and the
 * WriteConflict error it fails with. Sessions and the transaction lifecycle are in transactions.ts.
 */
import type { Collection, CollectionState } from './collection.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** One pending write of a transaction. */
export type TxnWrite = { kind: 'put'; doc: Doc } | { kind: 'delete' };

/** An open (or finished) multi-document transaction. */
export class Transaction {
  readonly txnNumber: number;
  state: 'active' | 'committed' | 'aborted' = 'active';
  /** Global write sequence at the first operation. */
  startSeq: number;
  /**
   * The states it reads, by namespace, each as of its first operation: a live state it pinned, or one
   * rebuilt for it (transaction-snapshot.ts).
   */
  readonly snapshots = new Map<string, CollectionState>();
  /** Private copies the transaction has written to, by namespace. */
  readonly privates = new Map<string, CollectionState>();
  /** Writes by namespace and `_id` key, in order. */
  readonly writes = new Map<string, Map<string, TxnWrite>>();
  /**
   * The views it read through, by namespace: it holds their intent locks too (see {@link uses}).
   */
  readonly viewsRead = new Set<string>();
  /** Collections created inside the transaction (invisible to others until commit), by namespace. */
  readonly created = new Map<string, Collection>();
  /** Last touch, ms since epoch (for transactionLifetimeLimitSeconds). */
  lastUsed = Date.now();
  readonly started = Date.now();
  /** A snapshot read outside a transaction (engine/point-in-time.ts): it only reads, at `startSeq`. */
  pointInTime = false;
  /**
   * Ms since epoch past which a point-in-time reader is no longer read from, so the documents kept for
   * it may go (MongoDB's minSnapshotHistoryWindowInSeconds); a transaction does not expire this way.
   */
  readableUntil = Infinity;

  constructor(txnNumber: number, startSeq: number) {
    this.txnNumber = txnNumber;
    this.startSeq = startSeq;
  }

  /**
   * Whether the transaction has read, written or created collection `ns`, or read through view `ns`. In
   * MongoDB it then holds the namespace's intent lock until it commits or aborts (transactions take no
   * lock-free reads: supportsLockFreeRead in db_raii.cpp; a read locks the namespace it names before it
   * finds a view there), which keeps a drop or a `$out` from replacing a collection, and a `collMod`
   * from changing a view, meanwhile.
   */
  uses(ns: string): boolean {
    return (
      this.snapshots.has(ns) ||
      this.privates.has(ns) ||
      this.writes.has(ns) ||
      this.created.has(ns) ||
      this.viewsRead.has(ns)
    );
  }

  /** Unpins the live states it read (a rebuilt state has no pin and nothing else holds it). */
  release(): void {
    for (const state of this.snapshots.values()) state.pins = Math.max(0, state.pins - 1);
    this.snapshots.clear();
    this.privates.clear();
  }
}

/** The error raised when a write conflicts with another transaction or a newer write. */
export function writeConflict(): CommandError {
  return new CommandError(
    ErrorCodes.WriteConflict,
    'Write conflict during plan execution and yielding is disabled. :: Please retry your operation or multi-document transaction.',
    { labels: ['TransientTransactionError'] },
  );
}

/**
 * The WriteConflict of a transaction writing collection `ns` after it was created, dropped and created
 * again or replaced (`$out`) since the transaction started; MongoDB 7.0's message (shard_role.cpp).
 */
export function catalogChanged(ns: string): CommandError {
  return new CommandError(
    ErrorCodes.WriteConflict,
    `Caused by :: Unable to write to collection '${ns}' due to catalog changes; please retry the operation :: Please retry your operation or multi-document transaction.`,
    { labels: ['TransientTransactionError'] },
  );
}
