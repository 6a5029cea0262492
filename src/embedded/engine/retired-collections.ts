/**
 * Collections that left the catalog (dropped, renamed away, replaced by `$out`, their database dropped)
 * while a reader that has not read them yet is open. MongoDB 7.0 reads a collection in a transaction or
 * a snapshot read as of the read's timestamp, from the catalog as it was then (point-in-time catalog
 * lookups: db_raii.cpp `AutoGetCollectionForReadPITCatalog` takes the collection from
 * `CollectionCatalog::establishConsistentCollection` at the read timestamp), so such a reader still
 * reads the collection as it was at its start; views, looked up in the latest catalog
 * (`lookupView`), are not kept. The collection object is kept as it was, its state pinned so that a
 * rename's new collection, which holds the same state, copies it before writing.
 */
import type { Collection } from './collection.js';
import type { Transaction } from './transaction.js';
import { snapshotReaders } from './transaction-snapshot.js';
import type { Catalog } from './transaction-snapshot.js';

/** What of the engine this file reads and changes, besides what transaction-snapshot.ts reads. */
interface RetiringCatalog extends Catalog {
  retired: Collection[];
}

/** Whether `coll` was in the catalog when `reader` started (and has left it since, when retired). */
function mayRead(reader: Transaction, coll: Collection): boolean {
  return reader.startSeq >= coll.createdSeq && reader.startSeq < coll.droppedSeq;
}

/**
 * Keeps `coll`, which leaves the catalog with the global write sequence `seq`, for the open readers that
 * may read it as of their start. Throws nothing.
 */
export function retire(engine: RetiringCatalog, coll: Collection, seq: number): void {
  coll.droppedSeq = seq;
  for (const reader of snapshotReaders(engine))
    if (mayRead(reader, coll)) {
      coll.state.pins++;
      engine.retired.push(coll);
      return;
    }
}

/**
 * The collection `ns` named when `reader` started, if it has left the catalog since (undefined
 * otherwise). Throws nothing.
 */
export function retiredFor(engine: RetiringCatalog, ns: string, reader: Transaction): Collection | undefined {
  return engine.retired.find((coll) => coll.ns === ns && mayRead(reader, coll));
}

/** Releases the retired collections no open reader may read any more. Throws nothing. */
export function forgetRetired(engine: RetiringCatalog): void {
  if (engine.retired.length === 0) return;
  const readers = [...snapshotReaders(engine)];
  engine.retired = engine.retired.filter((coll) => {
    if (readers.some((reader) => mayRead(reader, coll))) return true;
    coll.state.pins = Math.max(0, coll.state.pins - 1);
    return false;
  });
}
