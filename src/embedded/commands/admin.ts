/** Namespace and index commands, and database/collection statistics. */
import { BSON } from 'bson';
import { describeCollation } from '../engine/collation.js';
import type { Collection } from '../engine/collection.js';

import { parseIndexSpec, sameIndex } from '../engine/indexes.js';
import { compile, prepareFilter } from '../engine/query.js';
import { isPlainObject, keyOf } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import { parseCollation } from './collation.js';
import type { CommandContext, Handler } from './context.js';
import { collectionName, docOption } from './context.js';
import { modifyIndex } from './index-mod.js';
import { checkIndexableIn, collectionIn, createIn } from '../engine/transaction-ddl.js';
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
  capped: 'capped collections',
  timeseries: 'time-series collections',
};

/** The `system.` collections a client may create (MongoDB keeps the others for itself). */
const CREATABLE_SYSTEM = new Set(['system.js', 'system.profile']);

const create: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  if (name.startsWith('system.') && !CREATABLE_SYSTEM.has(name))
    throw new CommandError(ErrorCodes.InvalidNamespace, `Invalid system namespace: ${ctx.db}.${name}`);
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

const createIndexes: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const list = cmd['indexes'];
  if (!Array.isArray(list) || list.length === 0)
    throw new CommandError(ErrorCodes.FailedToParse, 'Must specify at least one index to create');
  const parsed = (list as unknown[]).map((raw) => {
    const explicit = isPlainObject(raw) && raw['collation'] !== undefined;
    if (explicit) parseCollation(raw['collation'], 'index');
    const spec = parseIndexSpec(raw);
    if (keyOf(spec.key) === keyOf({ _id: 1 }) && isPlainObject(raw)) {
      for (const option of ['unique', 'sparse']) {
        if (raw[option] !== undefined) {
          throw new CommandError(
            ErrorCodes.InvalidIndexSpecificationOption,
            `The field '${option}' is not valid for an _id index specification. Specification: ${JSON.stringify(raw)}`,
          );
        }
      }
    }
    return { spec, explicit };
  });
  const engine = ctx.core.engine;
  checkIndexableIn(engine, ctx.db, name, ctx.txn);
  const existed = collectionIn(engine, ctx.db, name, ctx.txn) !== undefined;
  const coll = createIn(engine, ctx.db, name, ctx.txn);
  // Inside a transaction the collection is its own (see checkIndexableIn): its indexes go to its state.
  const base = engine.readState(coll, ctx.txn);
  const before = base.indexes.length + 1;
  // Indexes inherit the collection's default collation unless they name their own (`simple` included).
  const specs = parsed.map(({ spec, explicit }) => {
    if (!explicit && coll.options.collation) spec.collation = coll.options.collation;
    return spec;
  });
  const toAdd = [];
  for (const spec of specs) {
    // The `_id` index always exists: asking for it again changes nothing.
    if (keyOf(spec.key) === keyOf({ _id: 1 })) continue;
    const sameName = base.indexes.find((i) => i.spec.name === spec.name);
    if (sameName) {
      if (sameIndex(sameName.spec, spec)) continue;
      throw new CommandError(
        keyOf(sameName.spec.key) === keyOf(spec.key)
          ? ErrorCodes.IndexOptionsConflict
          : ErrorCodes.IndexKeySpecsConflict,
        `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName.spec)}`,
      );
    }
    const sameKey = base.indexes.find(
      (i) =>
        keyOf(i.spec.key) === keyOf(spec.key) &&
        keyOf(i.spec.collation ?? null) === keyOf(spec.collation ?? null),
    );
    if (sameKey && !sameKey.spec.partialFilterExpression && !spec.partialFilterExpression) {
      throw new CommandError(
        ErrorCodes.IndexOptionsConflict,
        `Index already exists with a different name: ${sameKey.spec.name}`,
      );
    }
    if (spec.key && Object.values(spec.key).includes('text') && base.indexes.some((i) => i.text)) {
      throw new CommandError(
        ErrorCodes.IndexOptionsConflict,
        'An equivalent index already exists with a different name and options (only one text index per collection)',
      );
    }
    toAdd.push(spec);
  }
  // Build on a copy so a failure (duplicates in existing data) leaves the collection unchanged.
  const draft = base.clone();
  for (const spec of toAdd) draft.addIndex(coll.ns, spec);
  const state = engine.writeState(coll, ctx.txn);
  state.indexes = draft.indexes;
  if (!ctx.txn) engine.emit(toAdd.map((spec) => ({ op: 'createIndex' as const, ns: coll.ns, spec })));
  const reply: Doc = {
    numIndexesBefore: before,
    numIndexesAfter: state.indexes.length + 1,
    createdCollectionAutomatically: !existed,
    ok: 1,
  };
  if (toAdd.length === 0) reply['note'] = 'all indexes already exist';
  return reply;
};

const listIndexes: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const coll = mustExist(ctx, name);
  const docs = [idIndex(coll), ...ctx.core.engine.readState(coll, ctx.txn).indexes.map((i) => i.describe())];
  return ctx.core.cursors.open(`${ctx.db}.${name}`, docs, { batchSize: undefined });
};

const dropIndexes: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const coll = mustExist(ctx, name);
  const was = coll.state.indexes.length + 1;
  const which = cmd['index'];
  const state = coll.writable();
  let names: string[];
  if (which === '*') names = state.indexes.map((i) => i.spec.name);
  else if (typeof which === 'string') names = [which];
  else if (Array.isArray(which)) names = which.map(String);
  else if (which && typeof which === 'object') {
    const found = state.indexes.find((i) => keyOf(i.spec.key) === keyOf(which));
    if (!found) {
      if (keyOf(which) === keyOf({ _id: 1 }))
        throw new CommandError(ErrorCodes.InvalidOptions, 'cannot drop _id index');
      throw new CommandError(ErrorCodes.IndexNotFound, `can't find index with key: ${JSON.stringify(which)}`);
    }
    names = [found.spec.name];
  } else
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      "BSON field 'dropIndexes.index' is missing or has the wrong type",
    );
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
  const scale = Number(cmd['scale'] ?? 1) || 1;
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

const collStats: Handler = (cmd, ctx) => {
  const name = collectionName(cmd);
  const coll = ctx.core.engine.collection(ctx.db, name);
  if (!coll)
    throw new CommandError(ErrorCodes.NamespaceNotFound, `Collection [${ctx.db}.${name}] not found.`);
  const scale = Number(cmd['scale'] ?? 1) || 1;
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
