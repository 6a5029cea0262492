/**
 * Command dispatch: finds the handler, resolves the session, transaction and retryable-write state,
 * and turns thrown errors into `ok: 0` replies.
 */
import {
  Session,
  abortTransaction,
  beginTransaction,
  commitTransaction,
  noSuchTransaction,
} from '../engine/transactions.js';
import { deadlineAfter, runUntil } from '../engine/deadline.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes, toCommandError } from '../errors.js';
import { adminCommands } from './admin.js';
import type { CommandContext, Handler, ServerCore } from './context.js';
import { crudCommands } from './crud.js';
import { handshakeCommands } from './handshake.js';
import { operationSessionInfo } from './session-info.js';
import { queryCommands } from './query.js';
import { snapshotReader } from '../engine/point-in-time.js';
import { CLOSE_CONNECTION, failCommandFor, failPointCommands, noteHandshake } from './fail-points.js';
import { checkMaxTimeMS } from './max-time.js';
import {
  checkCommandFields,
  checkReadConcern,
  checkStandaloneWriteConcern,
  checkTransactionCommand,
  readConcernLevel,
  writeConcernError,
} from './refusals.js';

const RETRYABLE = new Set(['insert', 'update', 'delete', 'findAndModify', 'findandmodify']);

const commitTxn: Handler = (_cmd, ctx) => {
  const txn = ctx.txn;
  if (!txn)
    throw new CommandError(
      ErrorCodes.NoSuchTransaction,
      'Given transaction number does not match any in-progress transactions.',
    );
  commitTransaction(ctx.core.engine, txn);
  if (ctx.session) ctx.core.engine.history.commit(txn, ctx.session.id, txn.txnNumber);
  return { ok: 1 };
};

const abortTxn: Handler = (_cmd, ctx) => {
  const txn = ctx.txn;
  if (!txn || txn.state !== 'active') throw noSuchTransaction(txn?.txnNumber ?? 0, false);
  abortTransaction(ctx.core.engine, txn);
  return { ok: 1 };
};

const handlers: Record<string, Handler> = {
  ...handshakeCommands,
  ...queryCommands,
  ...crudCommands,
  ...adminCommands,
  ...failPointCommands,
  commitTransaction: commitTxn,
  abortTransaction: abortTxn,
};

/** Names of every command the server implements. */
export const commandNames = Object.keys(handlers);

/**
 * Runs one command and returns its reply document (never throws: errors become `ok: 0` replies).
 * `defaultDb` is used when the command has no `$db` (legacy OP_QUERY).
 */
export async function runCommand(
  core: ServerCore,
  cmd: Doc,
  connectionId: number,
  defaultDb = 'admin',
): Promise<Doc> {
  const name = Object.keys(cmd)[0] ?? '';
  const handler = Object.prototype.hasOwnProperty.call(handlers, name) ? handlers[name] : undefined;
  if (!handler) {
    return new CommandError(ErrorCodes.CommandNotFound, `no such command: '${name}'`).toReply();
  }
  const db = typeof cmd['$db'] === 'string' ? cmd['$db'] : defaultDb;
  const ctx: CommandContext = { core, db, session: undefined, txn: undefined, connectionId };
  if (name === 'hello' || name === 'isMaster' || name === 'ismaster') noteHandshake(core, connectionId, cmd);
  const retryableWrite = RETRYABLE.has(name) && cmd['txnNumber'] !== undefined && cmd['autocommit'] !== false;
  const fail = failCommandFor(core, name, connectionId, retryableWrite);
  if (fail) {
    if (fail.blockMs > 0) await new Promise((resolve) => setTimeout(resolve, fail.blockMs));
    if (fail.close) return { [CLOSE_CONNECTION]: true } as Doc;
    if (fail.error) return fail.error;
  }
  try {
    const reply = await execute(handler, name, cmd, ctx);
    const wce = reply['ok'] === 1 ? (fail?.writeConcernError ?? writeConcernError(cmd)) : undefined;
    return wce ? { ...reply, writeConcernError: wce } : reply;
  } catch (error) {
    const e = toCommandError(error);
    return e.toReply();
  }
}

/** Runs a read with `readConcern: { level: 'snapshot' }` outside a transaction and reports its time. */
async function snapshotRead(handler: Handler, cmd: Doc, ctx: CommandContext): Promise<Doc> {
  const rc = cmd['readConcern'] as Doc;
  const { reader, time } = snapshotReader(ctx.core.engine, rc['atClusterTime']);
  const reply = await withinMaxTime(handler, cmd, { ...ctx, txn: reader });
  const cursor = reply['cursor'];
  if (cursor && typeof cursor === 'object') (cursor as Doc)['atClusterTime'] = time;
  return { ...reply, atClusterTime: time };
}

/** Resolves the session, transaction and retryable-write state, then runs the handler. */
async function execute(handler: Handler, name: string, cmd: Doc, ctx: CommandContext): Promise<Doc> {
  const core = ctx.core;
  checkCommandFields(name, cmd);
  if (name !== 'getMore') checkMaxTimeMS(name, cmd);
  checkStandaloneWriteConcern(cmd, core.settings.replicaSet);
  const { key, txnNumber } = operationSessionInfo(cmd, core.settings.replicaSet !== undefined);
  if (key) {
    let session = core.sessions.get(key);
    if (!session) core.sessions.set(key, (session = new Session(key)));
    session.lastUsed = Date.now();
    ctx.session = session;
  }
  ctx.txnNumber = txnNumber;
  const session = ctx.session;
  if (cmd['autocommit'] === false) {
    if (!session || txnNumber === undefined)
      throw new CommandError(ErrorCodes.InvalidOptions, 'Transactions need a session and a txnNumber');
    checkTransactionCommand(name);
    if (cmd['startTransaction'] === true) {
      if (txnNumber < session.txnNumber) {
        throw new CommandError(
          ErrorCodes.TransactionTooOld,
          `Cannot start transaction ${txnNumber} on session because a newer transaction ${session.txnNumber} has already started.`,
        );
      }
      session.txnNumber = txnNumber;
      ctx.txn = beginTransaction(core.engine, session, txnNumber);
    } else {
      const txn = session.transaction;
      if (!txn || txn.txnNumber !== txnNumber) throw noSuchTransaction(txnNumber);
      if (txn.state === 'aborted' && name !== 'abortTransaction') throw noSuchTransaction(txnNumber);
      if (txn.state === 'committed' && name !== 'commitTransaction') {
        throw new CommandError(256, `Transaction ${txnNumber} has been committed.`);
      }
      ctx.txn = txn;
    }
    ctx.txn.lastUsed = Date.now();
    try {
      // A statement stopped by its maxTimeMS aborts the transaction below, as any error does in
      // MongoDB (service_entry_point_common.cpp), so what it half wrote to the private state is dropped.
      return await withinMaxTime(handler, cmd, ctx);
    } catch (error) {
      if (ctx.txn.state === 'active' && name !== 'commitTransaction') abortTransaction(core.engine, ctx.txn);
      throw error;
    }
  }
  checkReadConcern(name, cmd);
  if (readConcernLevel(cmd) === 'snapshot') return snapshotRead(handler, cmd, ctx);
  if (session && txnNumber !== undefined && RETRYABLE.has(name)) {
    if (session.retryReply?.txnNumber === txnNumber) return session.retryReply.reply;
    if (txnNumber < session.txnNumber) {
      throw new CommandError(
        ErrorCodes.TransactionTooOld,
        `Retryable write with txnNumber ${txnNumber} is prohibited on session because a newer retryable write with txnNumber ${session.txnNumber} has already started on this session.`,
      );
    }
    session.txnNumber = txnNumber;
    const reply = await withinMaxTime(handler, cmd, ctx);
    session.retryReply = { txnNumber, reply };
    return reply;
  }
  return await withinMaxTime(handler, cmd, ctx);
}

/**
 * Runs `handler` held to the command's `maxTimeMS` (checked by checkMaxTimeMS): its synchronous part
 * here, the parts after an `await` through `ctx.deadline` (context.ts `retryBlocked`). Statements of a
 * transaction and snapshot reads go through it too: MongoDB sets an operation's deadline
 * (service_entry_point_common.cpp `execCommandDatabase`) before it checks out the session.
 */
function withinMaxTime(handler: Handler, cmd: Doc, ctx: CommandContext): Doc | Promise<Doc> {
  // checkMaxTimeMS has made it a whole number of any BSON number type.
  const maxTimeMS =
    cmd['maxTimeMS'] === undefined
      ? undefined
      : Number((cmd['maxTimeMS'] as { toString(): string }).toString());
  const deadline = deadlineAfter(maxTimeMS);
  if (deadline !== Infinity) ctx.deadline = deadline;
  return runUntil(deadline, () => handler(cmd, ctx));
}
