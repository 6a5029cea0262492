/** Namespace and index commands, and database/collection statistics. */
import { BSON } from 'bson';
import { describeCollation } from '../engine/collation.js';
import type { Collection } from '../engine/collection.js';

import { compile, prepareFilter } from '../engine/query.js';
import { keyOf } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import { parseCollation } from './collation.js';
import type { CommandContext, Handler } from './context.js';
import { collectionName, docOption } from './context.js';
import { modifyIndex } from './index-mod.js';
import { collectionIn, createIn } from '../engine/transaction-ddl.js';
import { bsonText } from '../engine/bson-text.js';
import { checkCappedOptions } from './capped-options.js';
import { createIndexes } from './create-indexes.js';
import { scaleOption } from './stats-scale.js';
import { dropIndexesArgument, indexCommandTarget } from './index-args.js';
import { clusteredIndexOption, ID_INDEX, idIndex } from './clustered.js';

function mustExist(ctx: CommandContext, name: string): Collection {
  const coll = ctx.core.engine.collection(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns does not exist: ${ctx.db}.${name}`);
  return coll;
}

function collectionInfo(coll: Collection): Doc {
  const options: Doc = {};
  for (const [k, v] of Object.entries(coll.options))
    if (v !== undefined) options[k] = k === 'collation' ? describeCollation(v as never) : v;
  return {
    name: coll.name,
    type: 'collection',
    options,
    info: { readOnly: false, uuid: coll.uuid },
    ...(options['clusteredIndex'] ? {} : { idIndex: ID_INDEX }),
  };
}

const listCollections: Handler = (cmd, ctx) => {
  const colls = [...(ctx.core.engine.databases.get(ctx.db)?.values() ?? [])];
  let docs = colls.map(collectionInfo);
  const filter = docOption(cmd, 'filter');
  if (filter && Object.keys(filter).length > 0) {
    const q = compile(prepareFilter(filter));
    docs = docs.filter((d) => q.test(d));
  }
  if (cmd['nameOnly'] === true) docs = docs.map((d) => ({ name: d['name'], type: d['type'] }));
  return ctx.core.cursors.open(`${ctx.db}.$cmd.listCollections`, docs, { batchSize: undefined });
};

/** Collection kinds MongoDB has and the embedded engine does not: refused instead of faked. */
const unsupportedCreateOptions: Record<string, string> = {
  viewOn: 'views',
  timeseries: 'time-series collections',
};

/** The `system.` collections a client may create (MongoDB keeps the others for itself). */
const CREATABLE_SYSTEM = new Set(['system.js', 'system.profile']);

const create: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  if (name.startsWith('system.') && !CREATABLE_SYSTEM.has(name))
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid system namespace: ${ctx.db}.${name}`);
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
  for (const key of [
    'size',
    'max',
    'validator',
    'validationLevel',
    'validationAction',
    'expireAfterSeconds',
    'clusteredIndex',
    'changeStreamPreAndPostImages',
  ]) {
    if (cmd[key] !== undefined) options[key] = cmd[key];
  }
  if (options['clusteredIndex'] !== undefined)
    options['clusteredIndex'] = clusteredIndexOption(options['clusteredIndex']);
  if (options['validator'] !== undefined) compile(prepareFilter(options['validator']));
  // MongoDB 7.0+ answers ok, doing nothing, when the collection exists with identical options
  // (NamespaceExists only when the options differ).
  const existing = collectionIn(ctx.core.engine, ctx.db, name, ctx.txn);
  if (existing && keyOf(existing.options) === keyOf(options)) return { ok: 1 };
  createIn(ctx.core.engine, ctx.db, name, ctx.txn, options, true);
  return { ok: 1 };
};

const drop: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const coll = ctx.core.engine.collection(ctx.db, name);
  const nIndexesWas = coll ? coll.state.indexes.length + 1 : 0;
  ctx.core.engine.drop(ctx.db, name);
  return { nIndexesWas, ns: `${ctx.db}.${name}`, ok: 1 };
};

const dropDatabase: Handler = (_cmd, ctx) => {
  ctx.core.engine.dropDatabase(ctx.db);
  return { dropped: ctx.db, ok: 1 };
};

const renameCollection: Handler = (cmd, ctx) => {
  if (ctx.db !== 'admin')
    throw new CommandError(
      ErrorCodes.Unauthorized,
      'renameCollection may only be run against the admin database.',
    );
  const from = cmd['renameCollection'];
  const to = cmd['to'];
  if (typeof from !== 'string' || typeof to !== 'string')
    throw new CommandError(ErrorCodes.TypeMismatch, 'renameCollection needs string namespaces');
  if (from === to) throw new CommandError(ErrorCodes.IllegalOperation, "Can't rename a collection to itself");
  ctx.core.engine.rename(from, to, cmd['dropTarget'] === true);
  return { ok: 1 };
};

const listIndexes: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const coll = mustExist(ctx, name);
  const docs = [idIndex(coll), ...ctx.core.engine.readState(coll, ctx.txn).indexes.map((i) => i.describe())];
  return ctx.core.cursors.open(`${ctx.db}.${name}`, docs, { batchSize: undefined });
};

const dropIndexes: Handler = (cmd, ctx) => {
  const name = indexCommandTarget(cmd, 'dropIndexes', ctx.db);
  const which = dropIndexesArgument(cmd);
  const coll = ctx.core.engine.collection(ctx.db, name);
  if (!coll) throw new CommandError(ErrorCodes.NamespaceNotFound, `ns not found ${ctx.db}.${name}`);
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
};

function collectionSize(coll: Collection): { count: number; size: number } {
  let size = 0;
  for (const doc of coll.state.docs.values()) size += BSON.calculateObjectSize(doc);
  return { count: coll.state.docs.size, size };
}

const dbStats: Handler = (cmd, ctx) => {
  const scale = scaleOption(cmd, 'dbStats');
  const colls = [...(ctx.core.engine.databases.get(ctx.db)?.values() ?? [])];
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
    views: 0,
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

const collStats: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const coll = ctx.core.engine.collection(ctx.db, name);
  const scale = Number(cmd['scale'] ?? 1) || 1;
  // MongoDB answers a missing collection with empty statistics, not an error.
  if (!coll) return emptyCollStats(`${ctx.db}.${name}`, scale);
  const { count, size } = collectionSize(coll);
  const indexSizes: Doc = { _id_: 0 };
  for (const i of coll.state.indexes) indexSizes[i.spec.name] = 0;
  return {
    ns: coll.ns,
    count,
    size: size / scale,
    avgObjSize: count ? size / count : 0,
    storageSize: size / scale,
    nindexes: coll.state.indexes.length + 1,
    totalIndexSize: 0,
    indexSizes,
    capped: coll.options.capped === true,
    scaleFactor: scale,
    ok: 1,
  };
};

const listDatabases: Handler = (cmd, ctx) => {
  let dbs = [...ctx.core.engine.databases.entries()].map(([name, colls]) => {
    let size = 0;
    for (const c of colls.values()) size += collectionSize(c).size;
    return { name, sizeOnDisk: size, empty: colls.size === 0 };
  });
  const filter = docOption(cmd, 'filter');
  if (filter && Object.keys(filter).length > 0) {
    const q = compile(prepareFilter(filter));
    dbs = dbs.filter((d) => q.test(d));
  }
  if (cmd['nameOnly'] === true) return { databases: dbs.map((d) => ({ name: d['name'] })), ok: 1 };
  const totalSize = dbs.reduce((s, d) => s + Number(d['sizeOnDisk']), 0);
  return { databases: dbs, totalSize, totalSizeMb: Math.round(totalSize / 1024 / 1024), ok: 1 };
};

const collMod: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const coll = mustExist(ctx, name);
  for (const key of ['validator', 'validationLevel', 'validationAction', 'changeStreamPreAndPostImages']) {
    if (cmd[key] !== undefined) coll.options[key] = cmd[key];
  }
  if (cmd['validator'] !== undefined) compile(prepareFilter(cmd['validator']));
  const reply =
    cmd['index'] !== undefined
      ? modifyIndex(ctx.core.engine, coll, cmd['index'], cmd['dryRun'] === true)
      : {};
  ctx.core.engine.emit([{ op: 'create', ns: coll.ns, options: coll.options }]);
  return { ...reply, ok: 1 };
};

/** Handlers by command name. */
export const adminCommands: Record<string, Handler> = {
  listCollections,
  create,
  drop,
  dropDatabase,
  renameCollection,
  createIndexes,
  listIndexes,
  dropIndexes,
  dbStats,
  dbstats: dbStats,
  collStats,
  collstats: collStats,
  listDatabases,
  collMod,
};
