/** Write commands: insert, update, delete, findAndModify. */
import type { Collection } from '../engine/collection.js';
import { checkDeadline } from '../engine/deadline.js';
import { evaluateLet } from '../engine/let-variables.js';
import { checkUpdatePipeline } from '../engine/pipeline-update.js';
import { createIn } from '../engine/transaction-ddl.js';
import { objectArray, parseDelete, parseInsert, parseUpdateStatements } from '../engine/write-commands.js';
import {
  deleteStatement,
  findAndModify,
  insertOne,
  updateStatement,
  withoutValidation,
} from '../engine/write.js';
import { isPlainObject } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { ErrorCodes, toCommandError } from '../errors.js';
import { refuseView } from '../engine/views.js';
import { bypassesValidation, objectField, safeBoolField } from './idl-fields.js';
import type { CommandContext, Handler } from './context.js';
import { collationFor, collectionName, docOption, retryBlocked } from './context.js';

function writeError(index: number, error: unknown): Doc {
  const e = toCommandError(error);
  return { index, code: e.code, codeName: e.codeName, errmsg: e.message, ...e.extra };
}

/** Whether `arrayFilters` names any filter (MongoDB refuses a non-empty list with a pipeline update). */
const hasFilters = (arrayFilters: unknown): boolean => Array.isArray(arrayFilters) && arrayFilters.length > 0;

function target(cmd: Doc, ctx: CommandContext): Collection {
  return createIn(ctx.core.engine, ctx.db, collectionName(cmd), ctx.txn);
}

/**
 * Runs statements with MongoDB's ordered/unordered semantics; in a transaction the first error aborts.
 * The command's `maxTimeMS` is checked before each statement and while it runs: once it has passed,
 * the command fails with MaxTimeMSExpired (50), ordered or not, keeping the statements applied before,
 * as MongoDB 7.0 fails the whole batch on an interruption (write_ops_exec.cpp `handleError`) instead
 * of reporting a write error.
 */
async function runBatch<T>(
  cmd: Doc,
  ctx: CommandContext,
  coll: Collection,
  list: T[],
  run: (st: T, i: number) => void,
): Promise<Doc[]> {
  const ordered = cmd['ordered'] !== false;
  const bypass = bypassesValidation(cmd);
  const errors: Doc[] = [];
  for (let i = 0; i < list.length; i++) {
    try {
      // A view takes no write: each statement fails (CommandNotSupportedOnView), as in MongoDB.
      await retryBlocked(ctx, () => {
        checkDeadline();
        refuseView(coll);
        withoutValidation(bypass, () => run(list[i]!, i));
      });
    } catch (error) {
      if (ctx.txn) throw error;
      const e = toCommandError(error);
      if (e.code === ErrorCodes.WriteConflict || e.code === ErrorCodes.MaxTimeMSExpired) throw e;
      if (e.labels.length > 0) throw e;
      errors.push(writeError(i, error));
      if (ordered) break;
    }
  }
  return errors;
}

const insert: Handler = async (cmd, ctx) => {
  // Parsed whole before the collection is created or anything runs, as MongoDB parses it.
  const docs = parseInsert(cmd).documents;
  const coll = target(cmd, ctx);
  let n = 0;
  const errors = await runBatch(cmd, ctx, coll, docs, (doc) => {
    insertOne(ctx.core.engine, coll, ctx.txn, doc);
    n++;
  });
  ctx.core.opcounters.insert += docs.length;
  return { n, ...(errors.length ? { writeErrors: errors } : {}), ok: 1 };
};

const update: Handler = async (cmd, ctx) => {
  const list = parseUpdateStatements(cmd);
  const coll = target(cmd, ctx);
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const letVars = evaluateLet(cmd['let']);
  const errors = await runBatch(cmd, ctx, coll, list, (st, index) => {
    // A statement's `c` constants are variables of its pipeline (and, sharing its parse state, its query).
    const vars = isPlainObject(st['c']) ? { ...letVars, ...st['c'] } : letVars;
    checkUpdatePipeline(st['u'], Object.keys(vars ?? {}), hasFilters(st['arrayFilters']));
    const r = updateStatement(ctx.core.engine, coll, ctx.txn, {
      q: st['q'] ?? {},
      u: st['u'],
      multi: st['multi'] === true,
      upsert: st['upsert'] === true,
      arrayFilters: st['arrayFilters'] as Doc[] | undefined,
      collation: collationFor(st, coll),
      sort: st['sort'] as Doc | undefined,
      ...(vars ? { let: vars } : {}),
    });
    n += r.n;
    nModified += r.nModified;
    if (r.upserted !== undefined) upserted.push({ index, _id: r.upserted });
  });
  ctx.core.opcounters.update += list.length;
  return {
    n,
    nModified,
    ...(upserted.length ? { upserted } : {}),
    ...(errors.length ? { writeErrors: errors } : {}),
    ok: 1,
  };
};

const del: Handler = async (cmd, ctx) => {
  const list = parseDelete(cmd).deletes;
  const coll = target(cmd, ctx);
  const letVars = evaluateLet(cmd['let']);
  let n = 0;
  const errors = await runBatch(cmd, ctx, coll, list, (st) => {
    n += deleteStatement(
      ctx.core.engine,
      coll,
      ctx.txn,
      st.q,
      st.multi ? 0 : 1,
      collationFor({ collation: st.collation }, coll),
      letVars,
    );
  });
  ctx.core.opcounters.delete += list.length;
  return { n, ...(errors.length ? { writeErrors: errors } : {}), ok: 1 };
};

const findAndModifyCmd: Handler = async (cmd, ctx) => {
  // The typed fields are read before anything runs, as MongoDB's parser reads them.
  const args = {
    query: objectField(cmd, 'findAndModify', 'query') ?? {},
    sort: objectField(cmd, 'findAndModify', 'sort'),
    remove: safeBoolField(cmd, 'findAndModify', 'remove'),
    update: cmd['update'],
    new: safeBoolField(cmd, 'findAndModify', 'new'),
    fields: docOption(cmd, 'fields'),
    upsert: safeBoolField(cmd, 'findAndModify', 'upsert'),
  };
  if (cmd['arrayFilters'] !== undefined && cmd['arrayFilters'] !== null)
    objectArray('findAndModify.arrayFilters', cmd['arrayFilters']);
  const coll = target(cmd, ctx);
  refuseView(coll);
  const letVars = evaluateLet(cmd['let']);
  // With `remove` or `arrayFilters` findAndModify refuses the combination first (write.ts).
  if (!args.remove && cmd['arrayFilters'] === undefined)
    checkUpdatePipeline(args.update, Object.keys(letVars ?? {}));
  const result = await retryBlocked(ctx, () =>
    withoutValidation(bypassesValidation(cmd), () =>
      findAndModify(ctx.core.engine, coll, ctx.txn, {
        ...args,
        arrayFilters: cmd['arrayFilters'] as Doc[] | undefined,
        collation: collationFor(cmd, coll),
        let: letVars,
      }),
    ),
  );
  return { ...result, ok: 1 };
};

/** Handlers by command name. */
export const crudCommands: Record<string, Handler> = {
  insert,
  update,
  delete: del,
  findAndModify: findAndModifyCmd,
  findandmodify: findAndModifyCmd,
};
