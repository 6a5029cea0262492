/** Namespace and index commands, and database/collection statistics. */
import { cursorOwner } from './cursor-owner.js';
import { BSON } from 'bson';
import { numberKind } from '../engine/arithmetic.js';
import type { Collection } from '../engine/collection.js';
import { keyOf } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import { parseCollation } from './collation.js';
import type { CommandContext, Handler } from './context.js';
import { collectionName, exclusively, retryBlocked } from './context.js';
import { modifyIndex } from './index-mod.js';
import { collectionIn, createIn } from '../engine/transaction-ddl.js';
import { bsonText } from '../engine/bson-text.js';
import { checkCappedOptions } from './capped-options.js';
import { createIndexes } from './create-indexes.js';
import { scaleOption } from './stats-scale.js';
import { dropIndexesArgument, indexCommandTarget } from './index-args.js';
import { clusteredIndexOption, idIndex } from './clustered.js';
import { listCollections, listDatabases } from './list-catalog.js';
import { renameCollection } from './rename-collection.js';
import { validationOptions } from './validation-options.js';
import { validate } from './validate.js';
import { dataSize } from './data-size.js';
import { isView, refuseView } from '../engine/views.js';
import { createView, modifyView } from './views.js';

function mustExist(ctx: CommandContext, name: string): Collection {
  const coll = ctx.core.engine.collection(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns does not exist: ${ctx.db}.${name}`);
  return coll;
}

/** {@link mustExist}, refusing a view (CommandNotSupportedOnView). */
function mustBeCollection(ctx: CommandContext, name: string): Collection {
  const coll = mustExist(ctx, name);
  refuseView(coll);
  return coll;
}

/** Collection kinds MongoDB has and the embedded engine does not: refused instead of faked. */
const unsupportedCreateOptions: Record<string, string> = {
  timeseries: 'time-series collections',
};

/** The `system.` collections a client may create (MongoDB keeps the others for itself). */
const CREATABLE_SYSTEM = new Set(['system.js', 'system.profile']);

const create: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  if (name.startsWith('system.') && !CREATABLE_SYSTEM.has(name))
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid system namespace: ${ctx.db}.${name}`);
  if (cmd['viewOn'] !== undefined) return createView(cmd, ctx, name);
  // MongoDB's create command: "'pipeline' requires 'viewOn' to also be specified".
  if (cmd['pipeline'] !== undefined)
    throw new CommandError(ErrorCodes.InvalidOptions, "'pipeline' requires 'viewOn' to also be specified");
  if (checkCappedOptions(cmd))
    throw new CommandError(
      ErrorCodes.NotImplemented,
      'The embedded database does not support capped collections',
    );
  for (const [option, kind] of Object.entries(unsupportedCreateOptions)) {
    if (cmd[option] !== undefined && cmd[option] !== false) {
      throw new CommandError(ErrorCodes.NotImplemented, `The embedded database does not support ${kind}`);
    }
  }
  const options: Doc = {};
  const collation = parseCollation(cmd['collation'], 'create');
  if (collation) options['collation'] = collation;
  Object.assign(options, validationOptions(cmd, 'create'));
  for (const key of ['size', 'max', 'expireAfterSeconds', 'clusteredIndex', 'changeStreamPreAndPostImages']) {
    if (cmd[key] !== undefined) options[key] = cmd[key];
  }
  if (options['clusteredIndex'] !== undefined)
    options['clusteredIndex'] = clusteredIndexOption(options['clusteredIndex']);
  // MongoDB 7.0+ answers ok, doing nothing, when the collection exists with identical options
  // (NamespaceExists only when the options differ).
  const existing = collectionIn(ctx.core.engine, ctx.db, name, ctx.txn);
  if (existing && keyOf(existing.options) === keyOf(options)) return { ok: 1 };
  createIn(ctx.core.engine, ctx.db, name, ctx.txn, options, true);
  return { ok: 1 };
};

const drop: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  return exclusively(
    ctx,
    // A view is dropped under its intent lock (drop_collection.cpp `_dropView`: the view's lock in
    // MODE_IX, system.views' in MODE_X), so a transaction that read through it does not hold it back.
    () => (isView(ctx.core.engine.collection(ctx.db, name)) ? [] : [`${ctx.db}.${name}`]),
    () => {
      const coll = ctx.core.engine.collection(ctx.db, name);
      const nIndexesWas = coll ? coll.state.indexes.length + 1 : 0;
      ctx.core.engine.drop(ctx.db, name);
      // A view has no indexes to count.
      if (isView(coll)) return { ns: `${ctx.db}.${name}`, ok: 1 };
      return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
    },
  );
};

const dropDatabase: Handler = (_cmd, ctx) => {
  const engine = ctx.core.engine;
  return retryBlocked(ctx, () => {
    // MongoDB takes the database's exclusive lock, which waits for every transaction using one of
    // its collections.
    for (const name of engine.databases.get(ctx.db)?.keys() ?? [])
      engine.checkExclusive(`${ctx.db}.${name}`, `{Database : ${ctx.db}}`);
    // MongoDB names the database it dropped, and answers a bare ok when there was none.
    if (!ctx.core.engine.databases.has(ctx.db)) return { ok: 1 };
    ctx.core.engine.dropDatabase(ctx.db);
    return { dropped: ctx.db, ok: 1 };
  });
};

const listIndexes: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const coll = mustBeCollection(ctx, name);
  const docs = [idIndex(coll), ...ctx.core.engine.readState(coll, ctx.txn).indexes.map((i) => i.describe())];
  return ctx.core.cursors.open(`${ctx.db}.${name}`, docs, cursorOwner(ctx), {});
};

const dropIndexes: Handler = (cmd, ctx) => {
  const name = indexCommandTarget(cmd, 'dropIndexes', ctx.db);
  const which = dropIndexesArgument(cmd);
  return exclusively(
    ctx,
    () => [`${ctx.db}.${name}`],
    () => dropIndexesNow(ctx, name, which),
  );
};

function dropIndexesNow(ctx: CommandContext, name: string, which: string | string[] | Doc): Doc {
  const coll = ctx.core.engine.collection(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns not found ${ctx.db}.${name}`);
  refuseView(coll);
  const was = coll.state.indexes.length + 1;
  const state = coll.writable();
  let names: string[];
  if (which === '*') names = state.indexes.map((i) => i.spec.name);
  else if (typeof which === 'string') names = [which];
  else if (Array.isArray(which)) names = which;
  else {
    const found = state.indexes.find((i) => keyOf(i.spec.key) === keyOf(which));
    if (!found) {
      if (keyOf(which) === keyOf({ _id: 1 }))
        throw new CommandError(ErrorCodes.InvalidOptions, 'cannot drop _id index');
      throw new CommandError(ErrorCodes.IndexNotFound, `can't find index with key: ${bsonText(which)}`);
    }
    names = [found.spec.name];
  }
  for (const n of names) {
    if (n === '_id_') throw new CommandError(ErrorCodes.InvalidOptions, 'cannot drop _id index');
    if (!state.indexes.some((i) => i.spec.name === n))
      throw new CommandError(ErrorCodes.IndexNotFound, `index not found with name [${n}]`);
  }
  state.indexes = state.indexes.filter((i) => !names.includes(i.spec.name));
  ctx.core.engine.emit(names.map((n) => ({ op: 'dropIndex' as const, ns: coll.ns, name: n })));
  return { nIndexesWas: was, ok: 1 };
}

function collectionSize(coll: Collection): { count: number; size: number } {
  let size = 0;
  for (const doc of coll.state.docs.values()) size += BSON.calculateObjectSize(doc);
  return { count: coll.state.docs.size, size };
}

const dbStats: Handler = (cmd, ctx) => {
  const scale = scaleOption(cmd, 'dbStats');
  const all = [...(ctx.core.engine.databases.get(ctx.db)?.values() ?? [])];
  const colls = all.filter((c) => !isView(c));
  let objects = 0;
  let dataSize = 0;
  let indexes = 0;
  for (const c of colls) {
    const s = collectionSize(c);
    objects += s.count;
    dataSize += s.size;
    indexes += c.state.indexes.length + 1;
  }
  return {
    db: ctx.db,
    collections: colls.length,
    views: all.length - colls.length,
    objects,
    avgObjSize: objects ? dataSize / objects : 0,
    dataSize: dataSize / scale,
    storageSize: dataSize / scale,
    indexes,
    indexSize: 0,
    totalSize: dataSize / scale,
    scaleFactor: scale,
    fsUsedSize: 0,
    fsTotalSize: 0,
    ok: 1,
  };
};

/** collStats of a collection that does not exist: every count and size zero, no index. */
function emptyCollStats(ns: string, scaleFactor: number): Doc {
  const zero = { size: 0, count: 0, storageSize: 0, totalSize: 0, nindexes: 0, totalIndexSize: 0 };
  return { ns, ...zero, indexSizes: {}, scaleFactor, ok: 1 };
}

/**
 * collStats' scale: its whole part when a number of at least 1, else 1. MongoDB divides sizes (not the
 * average object size) by it in whole numbers.
 */
function collStatsScale(raw: unknown): number {
  if (numberKind(raw) === undefined) return 1;
  const scale = Number((raw as { toString(): string }).toString());
  return scale >= 1 ? Math.trunc(scale) : 1;
}

const collStats: Handler = (cmd, ctx) => {
  const name = collectionName(cmd, ErrorCodes.InvalidNamespace);
  const coll = ctx.core.engine.collection(ctx.db, name);
  const scale = collStatsScale(cmd['scale']);
  // MongoDB answers a missing collection with empty statistics, not an error.
  if (!coll) return emptyCollStats(`${ctx.db}.${name}`, scale);
  refuseView(coll);
  const { count, size } = collectionSize(coll);
  const indexSizes: Doc = { _id_: 0 };
  for (const i of coll.state.indexes) indexSizes[i.spec.name] = 0;
  return {
    ns: coll.ns,
    count,
    size: Math.trunc(size / scale),
    avgObjSize: count ? Math.trunc(size / count) : 0,
    storageSize: Math.trunc(size / scale),
    nindexes: coll.state.indexes.length + 1,
    totalIndexSize: 0,
    indexSizes,
    capped: coll.options.capped === true,
    scaleFactor: scale,
    ok: 1,
  };
};

/**
 * MongoDB 7.0 runs collMod under the collection's (or view's) exclusive lock (coll_mod.cpp), so it
 * waits while an open transaction uses it.
 */
const collMod: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  return exclusively(
    ctx,
    () => [`${ctx.db}.${name}`],
    () => collModNow(cmd, ctx, name),
  );
};

function collModNow(cmd: Doc, ctx: CommandContext, name: string): Doc {
  const coll = mustExist(ctx, name);
  if (isView(coll)) return modifyView(cmd, ctx, coll);
  const validation = validationOptions(cmd, 'collMod');
  Object.assign(coll.options, validation);
  if (cmd['changeStreamPreAndPostImages'] !== undefined)
    coll.options['changeStreamPreAndPostImages'] = cmd['changeStreamPreAndPostImages'];
  const reply =
    cmd['index'] !== undefined
      ? modifyIndex(ctx.core.engine, coll, cmd['index'], cmd['dryRun'] === true)
      : {};
  ctx.core.engine.emit([{ op: 'create', ns: coll.ns, options: coll.options }]);
  return { ...reply, ok: 1 };
}

/** Handlers by command name. */
export const adminCommands: Record<string, Handler> = {
  listCollections,
  create,
  drop,
  dropDatabase,
  renameCollection,
  createIndexes,
  validate,
  dataSize,
  listIndexes,
  dropIndexes,
  dbStats,
  dbstats: dbStats,
  collStats,
  collstats: collStats,
  listDatabases,
  collMod,
};
