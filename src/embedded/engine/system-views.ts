/**
 * `<db>.system.views`, the collection in which MongoDB stores a database's view definitions, one document
 * per view: `{ _id: '<db>.<view>', viewOn, pipeline }`, plus the view's full `collation` document when it
 * has one (ViewsForDatabase / ViewCatalog's upsert in mongodb/mongo's view catalog). The engine keeps views
 * as catalog entries (views.ts), so this collection is derived from them at read time: it exists while the
 * database has a view, lists as an ordinary collection, and reads (find, count, distinct, aggregate,
 * explain) see the definitions as they are now. It is read-only here: writing to it, or dropping it, does
 * not change the views (MongoDB would).
 */
import { UUID } from 'bson';
import { describeCollation } from './collation.js';
import { Collection, CollectionState } from './collection.js';
import type { Engine } from './database.js';
import { collectionAt } from './transaction-ddl.js';
import type { Transaction } from './transaction.js';
import { cloneValue, keyOf } from './values.js';
import type { Doc } from './values.js';
import { isView } from './views.js';

/** The name of the view catalog collection. */
export const SYSTEM_VIEWS = 'system.views';

/**
 * The view definitions of database `db` of `engine`, in catalog order, as MongoDB stores them in
 * `system.views` (shared values: copy before handing them to a pipeline). Throws nothing.
 */
export function viewDefinitions(engine: Engine, db: string): Doc[] {
  const definitions: Doc[] = [];
  for (const coll of engine.databases.get(db)?.values() ?? []) {
    if (!isView(coll)) continue;
    const definition: Doc = { _id: coll.ns, viewOn: coll.options.viewOn, pipeline: coll.options.pipeline };
    if (coll.options.collation) definition['collation'] = describeCollation(coll.options.collation);
    definitions.push(definition);
  }
  return definitions;
}

/** One UUID per engine and database, so `listCollections` reports the same one each time. */
const uuids = new WeakMap<Engine, Map<string, UUID>>();

/**
 * The UUID `listCollections` shows for `db.system.views` of `engine`, the same on every call. Throws
 * nothing.
 */
export function systemViewsUuid(engine: Engine, db: string): UUID {
  let byDb = uuids.get(engine);
  if (!byDb) uuids.set(engine, (byDb = new Map<string, UUID>()));
  let uuid = byDb.get(db);
  if (!uuid) byDb.set(db, (uuid = new UUID()));
  return uuid;
}

/**
 * True when database `db` of `engine` lists a derived `system.views`: it has a view and no stored
 * collection of that name. Throws nothing.
 */
export function hasSystemViews(engine: Engine, db: string): boolean {
  const colls = engine.databases.get(db);
  if (!colls || colls.has(SYSTEM_VIEWS)) return false;
  for (const coll of colls.values()) if (isView(coll)) return true;
  return false;
}

/**
 * The collection a read of `db.name` uses: the stored one (as `txn` sees the catalog) or, for
 * `system.views` in a database with views, a read-only collection of the view definitions made now.
 * Returns undefined when neither exists. Throws nothing.
 */
export function readableCollection(
  engine: Engine,
  db: string,
  name: string,
  txn: Transaction | undefined,
): Collection | undefined {
  const stored = collectionAt(engine, db, name, txn);
  if (stored || name !== SYSTEM_VIEWS || !hasSystemViews(engine, db)) return stored;
  const state = new CollectionState();
  // Copies, so no stage of a read can reach the catalog's own pipeline documents.
  for (const definition of viewDefinitions(engine, db))
    state.docs.set(keyOf(definition['_id']), cloneValue(definition));
  return new Collection(db, SYSTEM_VIEWS, {}, state);
}
