/**
 * Read-only views (MongoDB's `create` with `viewOn` and `pipeline`). A view lives in the catalog as a
 * collection entry with no documents whose options hold `viewOn`, `pipeline` and maybe `collation`, so
 * listing, dropping, name conflicts and persistence work as they do for collections. A read resolves the
 * view, through the views it is defined on, to its source collection and the concatenation of their
 * pipelines, and runs as an aggregation on that collection: it sees the source as it is at read time (or
 * in the reader's transaction snapshot). Writes and index commands on a view are refused with MongoDB's
 * CommandNotSupportedOnView (166).
 */
import type { Collation } from './collation.js';
import { sameCollation } from './collation.js';
import type { Collection } from './collection.js';
import type { Engine } from './database.js';
import { collectionAt } from './transaction-ddl.js';
import type { Transaction } from './transaction.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** MongoDB's limit on how many views a read may pass through. */
const MAX_VIEW_DEPTH = 20;

/** A view's catalog entry. */
export type View = Collection & { options: { viewOn: string; pipeline: Doc[] } };

/** True when `coll` is a view. */
export function isView(coll: Collection | undefined): coll is View {
  return typeof coll?.options['viewOn'] === 'string';
}

/** MongoDB's CommandNotSupportedOnView (166) for namespace `ns`. */
export function viewError(ns: string): CommandError {
  return new CommandError(
    ErrorCodes.CommandNotSupportedOnView,
    `Namespace ${ns} is a view, not a collection`,
  );
}

/** @throws CommandError CommandNotSupportedOnView (166) when `coll` is a view. */
export function refuseView(coll: Collection | undefined): void {
  if (isView(coll)) throw viewError(coll.ns);
}

/** A view reduced to the collection it reads and the stages it runs there. */
export interface ResolvedView {
  /** The collection at the end of the chain; undefined when it does not exist (the view is empty). */
  source: Collection | undefined;
  /** That collection's name (the last `viewOn` of the chain), whether it exists or not. */
  sourceName: string;
  /** The pipelines of every view in the chain, innermost first. */
  pipeline: Doc[];
  /** The view's default collation (every view of a chain has the same). */
  collation: Collation | undefined;
}

/**
 * Resolves `view` through the views it is defined on, as seen by `txn`, which then holds the view
 * (Transaction.uses): MongoDB 7.0 reads a view's definition from the latest catalog
 * (db_raii.cpp `AutoGetCollectionForReadPITCatalog`: `lookupView`), its source as of the read.
 * @throws CommandError ViewDepthLimitExceeded (165) past MongoDB's depth limit.
 */
export function resolveView(engine: Engine, view: Collection, txn: Transaction | undefined): ResolvedView {
  txn?.viewsRead.add(view.ns);
  const pipeline: Doc[] = [];
  let current: Collection | undefined = view;
  let sourceName = view.name;
  for (let depth = 0; isView(current); depth++) {
    if (depth >= MAX_VIEW_DEPTH)
      throw new CommandError(
        ErrorCodes.ViewDepthLimitExceeded,
        `View depth too deep or view cycle detected; maximum depth is ${MAX_VIEW_DEPTH}`,
      );
    pipeline.unshift(...current.options['pipeline']);
    sourceName = current.options['viewOn'];
    current = collectionAt(engine, view.db, sourceName, txn);
  }
  return { source: current, sourceName, pipeline, collation: view.options.collation };
}

/**
 * The collation an operation on `view` runs with: the view's own. MongoDB refuses to override it.
 * @throws CommandError OptionNotSupportedOnView (167) when `requested` differs from it.
 */
export function viewCollation(
  view: Collection,
  requested: Collation | undefined,
  given: boolean,
): Collation | undefined {
  if (given && !sameCollation(requested, view.options.collation))
    throw new CommandError(ErrorCodes.OptionNotSupportedOnView, "Cannot override a view's default collation");
  return view.options.collation;
}
