/**
 * `listCollections` and `listDatabases`: the catalog as MongoDB 7.0 lists it. Their options are read
 * as its IDL reads them: `filter` must be a document, and `nameOnly`, `authorizedCollections` and
 * `authorizedDatabases` are `safeBool`s (a number counts as a boolean, any other type is refused). A
 * database with views also lists `system.views` (engine/system-views.ts).
 */
import { cursorOwner } from './cursor-owner.js';
import { BSON } from 'bson';
import type { UUID } from 'bson';
import { describeCollation } from '../engine/collation.js';
import type { Collection } from '../engine/collection.js';
import { hasSystemViews, SYSTEM_VIEWS, systemViewsUuid } from '../engine/system-views.js';
import { isView } from '../engine/views.js';
import { compile, prepareFilter } from '../engine/query.js';
import type { Doc } from '../engine/values.js';
import { ID_INDEX, idIndex } from './clustered.js';
import type { Handler } from './context.js';
import { objectField, safeBoolField } from './idl-fields.js';

function collectionInfo(coll: Collection): Doc {
  const options: Doc = {};
  for (const [k, v] of Object.entries(coll.options))
    if (v !== undefined) options[k] = k === 'collation' ? describeCollation(v as never) : v;
  // The manual's listCollections output: a view is read-only and has neither UUID nor `_id` index.
  if (isView(coll)) return { name: coll.name, type: 'view', options, info: { readOnly: true } };
  return {
    name: coll.name,
    type: 'collection',
    options,
    info: { readOnly: false, uuid: coll.uuid },
    ...(options['clusteredIndex'] ? {} : { idIndex: idIndex(coll) }),
  };
}

/** The entry of the view catalog collection: an ordinary, empty-optioned collection with an `_id` index. */
function systemViewsInfo(uuid: UUID): Doc {
  return {
    name: SYSTEM_VIEWS,
    type: 'collection',
    options: {},
    info: { readOnly: false, uuid },
    idIndex: ID_INDEX,
  };
}

/** The documents `filter` (a query) keeps. */
function filtered(docs: Doc[], filter: Doc | undefined): Doc[] {
  if (!filter || Object.keys(filter).length === 0) return docs;
  const q = compile(prepareFilter(filter));
  return docs.filter((d) => q.test(d));
}

export const listCollections: Handler = (cmd, ctx) => {
  const filter = objectField(cmd, 'listCollections', 'filter');
  const nameOnly = safeBoolField(cmd, 'listCollections', 'nameOnly');
  safeBoolField(cmd, 'listCollections', 'authorizedCollections');
  const colls = [...(ctx.core.engine.databases.get(ctx.db)?.values() ?? [])];
  let docs = colls.map(collectionInfo);
  if (hasSystemViews(ctx.core.engine, ctx.db)) {
    // MongoDB creates system.views with the first view: list it, as a collection, before the views.
    const first = docs.findIndex((d) => d['type'] === 'view');
    docs.splice(first, 0, systemViewsInfo(systemViewsUuid(ctx.core.engine, ctx.db)));
  }
  if (nameOnly) docs = docs.map((d) => ({ name: d['name'], type: d['type'] }));
  docs = filtered(docs, filter);
  return ctx.core.cursors.open(`${ctx.db}.$cmd.listCollections`, docs, cursorOwner(ctx), {});
};

export const listDatabases: Handler = (cmd, ctx) => {
  const filter = objectField(cmd, 'listDatabases', 'filter');
  const nameOnly = safeBoolField(cmd, 'listDatabases', 'nameOnly');
  safeBoolField(cmd, 'listDatabases', 'authorizedDatabases');
  let dbs = [...ctx.core.engine.databases.entries()].map(([name, colls]) => {
    let size = 0;
    for (const c of colls.values())
      for (const doc of c.state.docs.values()) size += BSON.calculateObjectSize(doc);
    return { name, sizeOnDisk: size, empty: colls.size === 0 };
  });
  if (nameOnly)
    return {
      databases: filtered(
        dbs.map((d) => ({ name: d.name })),
        filter,
      ),
      ok: 1,
    };
  dbs = filtered(dbs, filter) as typeof dbs;
  const totalSize = dbs.reduce((s, d) => s + d.sizeOnDisk, 0);
  return { databases: dbs, totalSize, totalSizeMb: Math.floor(totalSize / 1024 / 1024), ok: 1 };
};
