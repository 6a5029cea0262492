/**
 * Collections and indexes created inside a transaction: they live in the transaction until it commits
 * (other sessions see neither), and vanish with it on abort. Only collections that do not exist yet may
 * get new indexes in a transaction, as in MongoDB.
 */
import { checkCollectionName, checkDbName, splitNs } from './namespace.js';
import { Collection } from './collection.js';
import type { Engine } from './database.js';
import type { CollectionOptions } from './collection.js';
import type { Transaction } from './transaction.js';
import { catalogChanged, writeConflict } from './transaction.js';
import { retiredFor } from './retired-collections.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The collection a command in `txn` (or outside any, when undefined) sees under `db.name`. */
export function collectionIn(
  engine: Engine,
  db: string,
  name: string,
  txn: Transaction | undefined,
): Collection | undefined {
  return engine.collection(db, name) ?? txn?.created.get(`${db}.${name}`);
}

/**
 * The collection a read in `txn` (a transaction or a snapshot read; a plain read when undefined) finds
 * under `db.name`: the one there when `txn` started, though it was dropped, renamed away or replaced
 * since, as MongoDB 7.0 reads the catalog as of the read timestamp (retired-collections.ts); else what
 * {@link collectionIn} finds (a collection that appeared later then reads empty, see
 * transaction-snapshot.ts). Throws nothing.
 */
export function collectionAt(
  engine: Engine,
  db: string,
  name: string,
  txn: Transaction | undefined,
): Collection | undefined {
  const live = engine.collection(db, name);
  if (!txn || (live && live.createdSeq <= txn.startSeq)) return live ?? txn?.created.get(`${db}.${name}`);
  return retiredFor(engine, `${db}.${name}`, txn) ?? live ?? txn.created.get(`${db}.${name}`);
}

/**
 * The collection `db.name`, created when missing: inside a transaction, privately to it.
 * @throws CommandError NamespaceExists (48) when `mustNotExist` and it exists; WriteConflict (112) in a
 *   transaction when the collection there at its start has left the name since (MongoDB 7.0:
 *   jstests/core/txns/concurrent_drops_and_creates.js, a write to a collection dropped after the
 *   transaction started conflicts).
 */
export function createIn(
  engine: Engine,
  db: string,
  name: string,
  txn: Transaction | undefined,
  options: CollectionOptions = {},
  mustNotExist = false,
): Collection {
  if (!txn || engine.collection(db, name)) return engine.create(db, name, options, mustNotExist);
  const ns = `${db}.${name}`;
  if (retiredFor(engine, ns, txn)) throw catalogChanged(ns);
  const pending = txn.created.get(ns);
  if (pending) {
    if (mustNotExist) throw new CommandError(ErrorCodes.NamespaceExists, `Collection ${ns} already exists.`);
    return pending;
  }
  checkDbName(db);
  checkCollectionName(name);
  const coll = new Collection(db, name, options);
  txn.created.set(ns, coll);
  return coll;
}

/**
 * Refuses new indexes in a transaction on a collection that existed before it.
 * @throws CommandError OperationNotSupportedInTransaction (263).
 */
export function checkIndexableIn(
  engine: Engine,
  db: string,
  name: string,
  txn: Transaction | undefined,
): void {
  if (txn && engine.collection(db, name))
    throw new CommandError(
      ErrorCodes.OperationNotSupportedInTransaction,
      `Cannot create new indexes on existing collection ${db}.${name} in a multi-document transaction.`,
    );
}

/**
 * At commit: makes the transaction's collections (with their indexes) live, before its writes apply.
 * @throws CommandError WriteConflict when another session created one of them meanwhile.
 */
export function publishCreated(engine: Engine, txn: Transaction): void {
  for (const ns of txn.created.keys()) {
    const [db, name] = splitNs(ns);
    if (engine.collection(db, name)) throw writeConflict();
  }
  for (const [ns, pending] of txn.created) {
    const [db, name] = splitNs(ns);
    const coll = engine.create(db, name, pending.options);
    const indexes = (txn.privates.get(ns) ?? pending.state).indexes;
    const state = coll.writable();
    for (const index of indexes) state.addIndex(ns, index.spec);
    engine.emit(indexes.map((index) => ({ op: 'createIndex' as const, ns, spec: index.spec })));
  }
}
