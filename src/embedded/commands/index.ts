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
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes, toCommandError } from '../errors.js';
import { adminCommands } from './admin.js';
import type { CommandContext, Handler, ServerCore } from './context.js';
import { crudCommands } from './crud.js';
import { handshakeCommands, sessionKey } from './handshake.js';
import { queryCommands } from './query.js';

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
  commitTransaction: commitTxn,
  abortTransaction: abortTxn,
};

/** Names of every command the server implements. */
export const commandNames = Object.keys(handlers);

function toNumber(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  return Number(value);
}

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
  try {
    const key = sessionKey(cmd['lsid']);
    if (key) {
      let session = core.sessions.get(key);
      if (!session) core.sessions.set(key, (session = new Session(key)));
      session.lastUsed = Date.now();
      ctx.session = session;
    }
    const txnNumber = toNumber(cmd['txnNumber']);
    const session = ctx.session;
    if (cmd['autocommit'] === false) {
      if (!session || txnNumber === undefined)
        throw new CommandError(ErrorCodes.InvalidOptions, 'Transactions need a session and a txnNumber');
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
        return await handler(cmd, ctx);
      } catch (error) {
        if (ctx.txn.state === 'active' && name !== 'commitTransaction')
          abortTransaction(core.engine, ctx.txn);
        throw error;
      }
    }
    if (session && txnNumber !== undefined && RETRYABLE.has(name)) {
      if (session.retryReply?.txnNumber === txnNumber) return session.retryReply.reply;
      if (txnNumber < session.txnNumber) {
        throw new CommandError(
          ErrorCodes.TransactionTooOld,
          `Retryable write with txnNumber ${txnNumber} is prohibited on session because a newer retryable write with txnNumber ${session.txnNumber} has already started on this session.`,
        );
      }
      session.txnNumber = txnNumber;
      const reply = await handler(cmd, ctx);
      session.retryReply = { txnNumber, reply };
      return reply;
    }
    return await handler(cmd, ctx);
  } catch (error) {
    const e = toCommandError(error);
    return e.toReply();
  }
}
