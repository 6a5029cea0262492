/**
 * The storage engine: databases → collections, namespace operations, and the read/write state
 * resolution that gives transactions their snapshot and private copies.
 */
import { defaultQueryKnobs } from './query-knobs.js';
import type { QueryKnobs } from './query-knobs.js';
import { ChangeHistory } from './change-history.js';
import { Collection, CollectionState } from './collection.js';
import type { CollectionOptions } from './collection.js';
import type { IndexSpec } from './indexes.js';
import { checkCollectionName, checkDbName, splitNs } from './namespace.js';
import type { Transaction } from './transaction.js';
import { catalogChanged, writeConflict } from './transaction.js';
import { keepReplaced, snapshotAtStart } from './transaction-snapshot.js';
import { retire } from './retired-collections.js';
import { cloneValue } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** A change the engine reports to its listener (persistence). */
export type Change =
  | { op: 'put'; ns: string; doc: Doc }
  | { op: 'delete'; ns: string; id: unknown }
  | { op: 'create'; ns: string; options: CollectionOptions }
  | { op: 'drop'; ns: string }
  | { op: 'createIndex'; ns: string; spec: IndexSpec }
  | { op: 'dropIndex'; ns: string; name: string }
  | { op: 'rename'; ns: string; to: string }
  | { op: 'dropDatabase'; db: string };

/** All databases and collections of one server. */
export class Engine {
  readonly databases = new Map<string, Map<string, Collection>>();
  /** Global write sequence, incremented by every committed document write. */
  seq = 0;
  /** Open transactions (for cross-transaction conflict checks). */
  readonly openTransactions = new Set<Transaction>();
  /** The readers of snapshot reads outside transactions, one per point in time kept (point-in-time.ts). */
  readonly pointsInTime = new Set<Transaction>();
  /** Collections that left the catalog while a reader may still read them (retired-collections.ts). */
  retired: Collection[] = [];
  /**
   * True while persistence.ts loads a data directory: the names it restores were checked when they were
   * written, and a rule that changed since must not make the directory unloadable.
   */
  loading = false;
  /** Persistence hook: called synchronously with each committed batch of changes. */
  onChanges: ((changes: Change[]) => void) | undefined;
  /** Called when a transaction ends (blocked writers retry). */
  readonly waiters = new Set<() => void>();
  /** Committed changes, read by change streams. */
  history = new ChangeHistory();
  /** The memory knobs `setParameter` changes (query-knobs.ts), for this server only. */
  readonly queryKnobs: QueryKnobs = defaultQueryKnobs();

  /** Changes held back by {@link atomically}, logged together when it ends. */
  private batch: Change[] | undefined;

  emit(changes: Change[]): void {
    if (this.batch) this.batch.push(...changes);
    else if (changes.length > 0 && this.onChanges) this.onChanges(changes);
  }

  /**
   * Runs `fn` with every change it makes logged as one batch, which a crash keeps whole or loses whole
   * (one journal record). Whatever `fn` changed before throwing is logged too: the log must follow memory.
   */
  atomically<T>(fn: () => T): T {
    if (this.batch) return fn();
    const batch: Change[] = (this.batch = []);
    try {
      return fn();
    } finally {
      this.batch = undefined;
      this.emit(batch);
    }
  }

  collection(db: string, name: string): Collection | undefined {
    return this.databases.get(db)?.get(name);
  }

  /**
   * Creates a collection.
   * @throws CommandError NamespaceExists (48) when `mustNotExist` and it exists.
   */
  create(db: string, name: string, options: CollectionOptions = {}, mustNotExist = false): Collection {
    if (!this.loading) {
      checkDbName(db);
      checkCollectionName(name);
    }
    let colls = this.databases.get(db);
    if (!colls) this.databases.set(db, (colls = new Map<string, Collection>()));
    const existing = colls.get(name);
    if (existing) {
      if (mustNotExist)
        throw new CommandError(ErrorCodes.NamespaceExists, `Collection ${db}.${name} already exists.`);
      return existing;
    }
    const coll = new Collection(db, name, options);
    coll.createdSeq = ++this.seq;
    colls.set(name, coll);
    this.emit([{ op: 'create', ns: coll.ns, options }]);
    return coll;
  }

  drop(db: string, name: string): boolean {
    const colls = this.databases.get(db);
    const coll = colls?.get(name);
    if (!colls || !coll) return false;
    this.retire(coll);
    colls.delete(name);
    if (colls.size === 0) this.databases.delete(db);
    this.emit([{ op: 'drop', ns: coll.ns }]);
    this.history.append([{ op: 'drop', db, coll: name }]);
    return true;
  }

  dropDatabase(db: string): void {
    const names = [...(this.databases.get(db)?.keys() ?? [])];
    for (const coll of this.databases.get(db)?.values() ?? []) this.retire(coll);
    if (!this.databases.delete(db)) return;
    this.history.append([
      ...names.map((coll) => ({ op: 'drop' as const, db, coll })),
      { op: 'dropDatabase', db },
    ]);
    this.emit([{ op: 'dropDatabase', db }]);
  }

  /**
   * Renames `from` to `to` (namespaces `db.coll`).
   * @throws CommandError NamespaceNotFound (26) / NamespaceExists (48).
   */
  rename(from: string, to: string, dropTarget: boolean): void {
    // Dropping the target and moving the source are one change on disk: a crash between the two would
    // lose the target of a rename that never happened (MongoDB logs them as one oplog entry).
    this.atomically(() => this.renameNow(from, to, dropTarget));
  }

  private renameNow(from: string, to: string, dropTarget: boolean): void {
    const [fdb, fname] = splitNs(from);
    const [tdb, tname] = splitNs(to);
    if (!this.loading) {
      checkDbName(tdb);
      checkCollectionName(tname);
    }
    const source = this.collection(fdb, fname);
    if (!source)
      throw new CommandError(ErrorCodes.NamespaceNotFound, 'Source collection ' + from + ' does not exist');
    if (this.collection(tdb, tname)) {
      if (!dropTarget) throw new CommandError(ErrorCodes.NamespaceExists, 'target namespace exists');
      this.drop(tdb, tname);
    }
    this.retire(source);
    this.databases.get(fdb)!.delete(fname);
    if (this.databases.get(fdb)!.size === 0) this.databases.delete(fdb);
    const moved = new Collection(tdb, tname, source.options, source.state);
    for (const [k, v] of source.writeSeq) moved.writeSeq.set(k, v);
    moved.createdSeq = ++this.seq;
    let colls = this.databases.get(tdb);
    if (!colls) this.databases.set(tdb, (colls = new Map<string, Collection>()));
    colls.set(tname, moved);
    this.emit([{ op: 'rename', ns: from, to }]);
    this.history.append([{ op: 'rename', db: fdb, coll: fname, to: { db: tdb, coll: tname } }]);
  }

  /**
   * Keeps `coll`, leaving the catalog now, for the transactions and snapshot reads that started while it
   * was there (retired-collections.ts); views are looked up in the latest catalog, so none is kept.
   */
  private retire(coll: Collection): void {
    // views.ts's isView, inlined: views.ts reads the catalog through transaction-ddl.ts, which needs Engine.
    if (typeof coll.options['viewOn'] !== 'string') retire(this, coll, ++this.seq);
  }

  /**
   * The state a reader sees: a transaction's private copy, else its snapshot (every collection as of
   * the transaction's first operation, or a snapshot read's point in time, see
   * transaction-snapshot.ts), else the live state.
   */
  readState(coll: Collection, txn: Transaction | undefined): CollectionState {
    if (!txn) return coll.state;
    const priv = txn.privates.get(coll.ns);
    if (priv) return priv;
    const snap = txn.snapshots.get(coll.ns);
    if (snap) return snap;
    return snapshotAtStart(coll, txn);
  }

  /** The state a writer changes: a transaction's private copy (made on first write), else the live state. */
  writeState(coll: Collection, txn: Transaction | undefined): CollectionState {
    if (!txn) return coll.writable();
    let priv = txn.privates.get(coll.ns);
    if (!priv) {
      priv = this.readState(coll, txn).clone();
      txn.privates.set(coll.ns, priv);
    }
    return priv;
  }

  /**
   * Checks that `txn` (or a plain write when undefined) may write document `idKey`.
   * @throws CommandError WriteConflict (112, TransientTransactionError) for transactions, among them
   *   one that started before the collection appeared under its name (MongoDB compares the collection
   *   the transaction's snapshot holds with the latest one: shard_role.cpp);
   *   BlockedByTransaction for plain writes to a document an open transaction has written.
   */
  checkWrite(coll: Collection, idKey: string, txn: Transaction | undefined): void {
    if (txn && coll.createdSeq > txn.startSeq) throw catalogChanged(coll.ns);
    for (const other of this.openTransactions) {
      if (other === txn || other.state !== 'active') continue;
      if (other.writes.get(coll.ns)?.has(idKey)) {
        if (txn) throw writeConflict();
        throw new BlockedByTransaction();
      }
    }
    if (txn && (coll.writeSeq.get(idKey) ?? -1) > txn.startSeq) throw writeConflict();
  }

  /**
   * Checks that a plain command may replace or change collection `ns` (MongoDB: take its exclusive
   * lock). `resource` names the lock it waits for in the error of a wait that times out (MongoDB's
   * `ResourceId` as its error messages print it): the collection's, or the database's for
   * `dropDatabase`.
   * @throws BlockedByTransaction while an open transaction uses it (see {@link Transaction.uses}).
   */
  checkExclusive(ns: string, resource = `{Collection : ${ns}}`): void {
    for (const txn of this.openTransactions)
      if (txn.state === 'active' && txn.uses(ns)) throw new BlockedByTransaction(resource);
  }

  /**
   * Records a committed write of `idKey`, which replaced `prior` (undefined: an insert). Only
   * transactions compare against these sequence numbers, only they and snapshot reads read the replaced
   * documents, and only writes made while one is open can matter to them, so nothing is recorded when
   * none is.
   */
  touched(coll: Collection, idKey: string, prior: Doc | undefined): void {
    ++this.seq;
    if (this.openTransactions.size > 0 || this.pointsInTime.size > 0) {
      coll.writeSeq.set(idKey, this.seq);
      keepReplaced(this, coll, this.seq, idKey, prior);
    } else {
      if (coll.writeSeq.size > 0) coll.writeSeq.clear();
      if (coll.replaced.length > 0) coll.replaced.length = 0;
    }
  }

  /** Wakes writers blocked by a transaction. */
  wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const w of waiters) w();
  }

  /** Resolves when some transaction ends, or after `ms`. */
  waitForTransactions(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiters;
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
  }

  /** A deep copy of every document of a collection as a reader sees it. */
  documents(coll: Collection, txn: Transaction | undefined): Doc[] {
    return [...this.readState(coll, txn).docs.values()].map((d) => cloneValue(d));
  }
}

/**
 * Thrown when a plain write or command must wait for an open transaction. `exclusiveLock` names the
 * lock a catalog change waits for (see {@link Engine.checkExclusive}); undefined when a document write
 * waits for a document the transaction holds.
 */
export class BlockedByTransaction extends Error {
  constructor(readonly exclusiveLock?: string) {
    super('blocked by an open transaction');
  }
}
