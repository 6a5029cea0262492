/**
 * The state command handlers share (engine, cursors, sessions, server identity) and the per-command
 * context (database, session, transaction).
 */
import { numberKind } from '../engine/arithmetic.js';
import type { Collation } from '../engine/collation.js';
import { CursorManager } from '../engine/cursors.js';
import type { Collection } from '../engine/collection.js';
import type { Engine } from '../engine/database.js';
import { BlockedByTransaction } from '../engine/database.js';
import { runUntil } from '../engine/deadline.js';
import { checkCollectionName } from '../engine/namespace.js';
import type { Session } from '../engine/transactions.js';
import type { Transaction } from '../engine/transaction.js';
import { bsonTypeName, isPlainObject } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import { parseCollation } from './collation.js';
import { safeBoolField } from './idl-fields.js';
import type { MemoryLimits } from '../engine/memory-limits.js';

/** Server identity and tunables the handlers read. */
export interface ServerSettings {
  /** `host:port` advertised in hello (`me`, `hosts`, `primary`). */
  me: string;
  /** Replica-set name advertised in hello, or undefined for a standalone hello. */
  replicaSet: string | undefined;
  /** How long a plain write, `$out` or `$merge` waits for a transaction holding its target, in ms. */
  lockTimeoutMs: number;
  /** Transactions idle longer than this are aborted, in ms (MongoDB: 60 s). */
  transactionLifetimeMs: number;
}

/** State shared by all connections of one server. */
export class ServerCore {
  readonly cursors: CursorManager;
  readonly sessions = new Map<string, Session>();
  readonly startedAt = new Date();
  connections = 0;
  totalConnections = 0;
  readonly opcounters = { insert: 0, query: 0, update: 0, delete: 0, getmore: 0, command: 0 };
  /** Set when the server stopped serving (its journal cannot be written): every command gets it. */
  failure: CommandError | undefined;

  constructor(
    readonly engine: Engine,
    readonly settings: ServerSettings,
    cursorTimeoutMs: number,
  ) {
    this.cursors = new CursorManager(cursorTimeoutMs);
  }
}

/** What a handler knows about the command it runs. */
export interface CommandContext {
  core: ServerCore;
  db: string;
  session: Session | undefined;
  txn: Transaction | undefined;
  /** The command's `txnNumber` (undefined without one). */
  txnNumber?: number;
  /**
   * The `performance.now()` time at which the command's `maxTimeMS` passes (deadline.ts
   * `deadlineAfter`); undefined without a limit.
   */
  deadline?: number;
  connectionId: number;
}

/** A command handler; throws CommandError for `ok: 0` replies. */
export type Handler = (cmd: Doc, ctx: CommandContext) => Doc | Promise<Doc>;

/**
 * The collection name a command names in its first field.
 * @param typeCode the code for a value that is not a string: BadValue (2) for the commands MongoDB 7.0
 *   parses with its IDL (most), InvalidNamespace (73) for the older ones (see checkCollectionName).
 * @throws CommandError `typeCode` for a value that is not a string, InvalidNamespace (73) for an invalid name.
 */
export function collectionName(cmd: Doc, typeCode: number = ErrorCodes.BadValue): string {
  const name = Object.values(cmd)[0];
  return checkCollectionName(name, typeCode);
}

/**
 * The memory limits a read command runs under: the server's knobs and its `allowDiskUse` (default true,
 * as in MongoDB 6.0+). @throws CommandError TypeMismatch (14) for an `allowDiskUse` of another type.
 */
export function memoryLimitsFor(cmd: Doc, ctx: CommandContext): MemoryLimits {
  const command = Object.keys(cmd)[0] ?? '';
  return {
    knobs: ctx.core.engine.queryKnobs,
    allowDiskUse: safeBoolField(cmd, command, 'allowDiskUse', true),
  };
}

/**
 * The collation a command asks for, falling back to the collection default; undefined (binary) for
 * `{ locale: 'simple' }`, which overrides the default as MongoDB's does ("all queries and indexes
 * inherit that collation unless they explicitly specify a different collation").
 * @throws CommandError for an invalid collation (collation.ts `parseCollation`).
 */
export function collationFor(
  cmd: Doc,
  coll: Collection | undefined,
  field = 'collation',
): Collation | undefined {
  const asked = parseCollation(cmd[field]);
  if (asked) return asked;
  const raw = cmd[field];
  if (isPlainObject(raw) && raw['locale'] === 'simple') return undefined;
  return coll?.options.collation;
}

/** A non-negative integer option. @throws CommandError TypeMismatch / BadValue. */
export function intOption(cmd: Doc, field: string): number | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  const n = Number(v);
  if (typeof v === 'boolean' || !Number.isFinite(n))
    throw new CommandError(ErrorCodes.TypeMismatch, `Field '${field}' should be a number`);
  return Math.trunc(n);
}

/**
 * A `batchSize` option (`field` names it in messages, e.g. `cursor.batchSize`), truncated to a whole
 * number. @throws CommandError TypeMismatch (14) for a non-number, 51024 for a negative one.
 */
export function batchSizeOf(value: unknown, field = 'batchSize'): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (numberKind(value) === undefined) {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field '${field}' is the wrong type '${bsonTypeName(value)}', expected types '[long, int, decimal, double']`,
    );
  }
  // Every BSON number type prints its value.
  const n = Math.trunc(Number((value as { toString(): string }).toString()));
  if (n < 0) throw new CommandError(51024, `BSON field 'batchSize' value must be >= 0, actual value '${n}'`);
  return Number.isNaN(n) ? 0 : n;
}

/** A document option. @throws CommandError TypeMismatch. */
export function docOption(cmd: Doc, field: string): Doc | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v))
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field '${field}' is the wrong type, expected type 'object'`,
    );
  return v as Doc;
}

/**
 * Runs a command that drops, renames or changes the catalog entry of the collections `namespaces`
 * names (read when it runs) once no open transaction uses any of them, waiting as {@link retryBlocked}
 * does: MongoDB takes each collection's exclusive lock, which a transaction's intent lock holds back
 * until it commits or aborts (so a transaction never commits into a collection dropped under it).
 * @throws what `retryBlocked` throws once the wait is over, and what `fn` throws.
 */
export function exclusively<T>(ctx: CommandContext, namespaces: () => string[], fn: () => T): Promise<T> {
  return retryBlocked(ctx, () => {
    for (const ns of namespaces()) ctx.core.engine.checkExclusive(ns);
    return fn();
  });
}

/**
 * Runs `fn` (synchronous) under the command's `maxTimeMS` (deadline.ts `runUntil`), retrying while it is
 * blocked by an open transaction, up to the lock timeout or the command's `maxTimeMS`, whichever comes
 * first. Each statement of a write batch runs through it, so a statement after an `await` is held to
 * the command's time limit as the first is.
 * @throws CommandError MaxTimeMSExpired (50) once `maxTimeMS` has passed, as MongoDB answers a command
 * that waited that long for a lock; once the lock timeout has, LockTimeout (24) for a wait for a
 * collection's exclusive lock (see {@link lockTimeout}), WriteConflict (112) for a document write.
 */
export async function retryBlocked<T>(ctx: CommandContext, fn: () => T): Promise<T> {
  const timeoutMs = ctx.core.settings.lockTimeoutMs;
  const deadline = Date.now() + timeoutMs;
  const maxTime = ctx.deadline ?? Infinity;
  for (;;) {
    try {
      return runUntil(maxTime, fn);
    } catch (error) {
      if (!(error instanceof BlockedByTransaction)) throw error;
      const timeLeft = maxTime - performance.now();
      if (timeLeft <= 0) throw new CommandError(ErrorCodes.MaxTimeMSExpired, 'operation exceeded time limit');
      const left = deadline - Date.now();
      if (left <= 0) {
        if (error.exclusiveLock !== undefined) throw lockTimeout(error.exclusiveLock, timeoutMs);
        throw new CommandError(
          ErrorCodes.WriteConflict,
          'Write conflict: the document is being written by an open transaction',
          { labels: [] },
        );
      }
      await ctx.core.engine.waitForTransactions(Math.min(left, timeLeft, 100));
    }
  }
}

/**
 * The error of a wait for `resource`'s exclusive lock that lasted `timeoutMs`: MongoDB 7.0's for a
 * lock request whose deadline passed (lock_state.cpp `_lockComplete`: LockTimeout, "Unable to acquire
 * X lock on '…' within …ms."). The resource is written as later servers write it in error messages
 * (`{Collection : db.coll}`): 7.0 prints it with the lock manager's hashes, and adds the operation's
 * id and connection, which mean nothing here.
 */
function lockTimeout(resource: string, timeoutMs: number): CommandError {
  return new CommandError(
    ErrorCodes.LockTimeout,
    `Unable to acquire X lock on '${resource}' within ${timeoutMs}ms.`,
  );
}
