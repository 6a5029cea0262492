/**
 * A transaction's snapshot: every collection as it was at the transaction's first operation (its
 * `startSeq`), as MongoDB reads all of a transaction's operations from one point in time (manual, Read
 * Concern "snapshot"), whichever collection it touches first.
 *
 * Pinning every collection's state when a transaction starts would be the plain way, but a pinned state
 * is copied by the next write to it (collection.ts `writable`), and a copy costs O(documents + index
 * keys): each transaction would make the next write to every large collection copy it, whether the
 * transaction ever reads that collection or not. So a collection is pinned when the transaction first
 * reads it, as before, and while some open transaction has not read a collection yet, each committed
 * write to it keeps the document it replaced (`Collection.replaced`). The first read of a collection
 * that changed after `startSeq` then copies its live state and puts those documents back, newest first:
 * the transaction pays for the copy, once per such collection, and plain writes pay only for keeping a
 * reference. Snapshot reads outside transactions (point-in-time.ts) read the same way, each point in time
 * as a reader that never writes.
 */
import type { Collection } from './collection.js';
import { CollectionState } from './collection.js';
import type { Transaction } from './transaction.js';
import type { Doc } from './values.js';

/**
 * The state of `coll` as of `txn`'s first operation: empty for a collection that appeared under its name
 * after it (created, renamed to, replaced by `$out`); the live state, pinned, when no committed write has
 * changed it since; else a copy of the live state with the later writes undone. The result is recorded
 * in `txn.snapshots`, so later reads see the same state. Throws nothing.
 */
export function snapshotAtStart(coll: Collection, txn: Transaction): CollectionState {
  let state: CollectionState;
  const later = coll.replaced.findIndex((r) => r.seq > txn.startSeq);
  if (coll.createdSeq > txn.startSeq) state = new CollectionState();
  else if (later === -1) {
    state = coll.state;
    state.pins++;
  } else {
    state = coll.state.clone();
    for (let i = coll.replaced.length - 1; i >= later; i--) {
      const { idKey, prior } = coll.replaced[i]!;
      // A unique index built after the transaction started may refuse an older document: the snapshot
      // then goes without that index, which did not exist at its point in time anyway.
      if (prior) state.put(coll.ns, prior, state.docs.has(idKey) ? idKey : undefined, () => undefined);
      else state.remove(idKey);
    }
  }
  txn.snapshots.set(coll.ns, state);
  return state;
}

/**
 * What of the engine this file reads: its open transactions, its snapshot reads' points in time and its
 * collections by database (the Engine itself is not imported, as its file imports this one).
 */
export interface Catalog {
  readonly openTransactions: Iterable<Transaction>;
  readonly pointsInTime: Iterable<Transaction>;
  readonly databases: ReadonlyMap<string, ReadonlyMap<string, Collection>>;
}

/**
 * Everything that reads as of a point in the past: the active transactions and the snapshot reads'
 * points in time that are still readable. Throws nothing.
 */
export function* snapshotReaders(engine: Catalog): Generator<Transaction> {
  for (const txn of engine.openTransactions) if (txn.state === 'active') yield txn;
  const now = Date.now();
  for (const point of engine.pointsInTime) if (point.readableUntil >= now) yield point;
}

/**
 * The oldest `startSeq` of the readers that have not read `coll` yet (undefined when there is none): the
 * writes after it are the ones such a reader may have to undo.
 */
function oldestReader(engine: Catalog, coll: Collection): number | undefined {
  let oldest: number | undefined;
  for (const txn of snapshotReaders(engine))
    if (!txn.snapshots.has(coll.ns) && (oldest === undefined || txn.startSeq < oldest)) oldest = txn.startSeq;
  return oldest;
}

/** Drops the entries of `coll.replaced` that no open transaction reading from `oldest` on can need. */
function trim(coll: Collection, oldest: number | undefined): void {
  const keep = oldest === undefined ? -1 : coll.replaced.findIndex((r) => r.seq > oldest);
  if (keep < 0) coll.replaced.length = 0;
  else if (keep > 0) coll.replaced.splice(0, keep);
}

/**
 * Records that the committed write numbered `seq` replaced `prior` (undefined: it inserted) as document
 * `idKey` of `coll`, when an open transaction that has not read `coll` yet may need it. Throws nothing.
 */
export function keepReplaced(
  engine: Catalog,
  coll: Collection,
  seq: number,
  idKey: string,
  prior: Doc | undefined,
): void {
  const oldest = oldestReader(engine, coll);
  trim(coll, oldest);
  if (oldest !== undefined) coll.replaced.push({ seq, idKey, prior });
}

/**
 * When a transaction ends or a point in time is released: drops the replaced documents no reader needs.
 * Throws nothing.
 */
export function forgetReplaced(engine: Catalog): void {
  for (const colls of engine.databases.values())
    for (const coll of colls.values()) if (coll.replaced.length > 0) trim(coll, oldestReader(engine, coll));
}
