/**
 * Change streams on the command layer: `aggregate` with a leading `$changeStream` opens a tailable
 * cursor on the change history, and `getMore` on it waits up to `maxTimeMS` (the driver's
 * `maxAwaitTimeMS`; 1 s by default) for new events, woken by the next commit instead of polling.
 * See https://www.mongodb.com/docs/manual/reference/operator/aggregation/changeStream/.
 */
import { cursorOwner } from './cursor-owner.js';
import { Long } from 'bson';
import type { Timestamp } from 'bson';
import { ChangeStreamReader, decodeResumeToken, historyLost } from '../engine/change-stream.js';
import type { StreamOptions, StreamScope } from '../engine/change-stream.js';
import type { Cursor } from '../engine/cursors.js';
import { checkDbName } from '../engine/namespace.js';
import { isPlainObject } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';
import type { CommandContext } from './context.js';
import { batchSizeOf, collectionName, intOption } from './context.js';
import { refuseView } from '../engine/views.js';

/** How long a getMore waits for events when the driver gives no maxAwaitTimeMS (MongoDB's default). */
const DEFAULT_AWAIT_MS = 1000;
const OPTIONS = new Set([
  'allChangesForCluster',
  'fullDocument',
  'fullDocumentBeforeChange',
  'resumeAfter',
  'startAfter',
  'startAtOperationTime',
  'showExpandedEvents',
]);
/** Stages MongoDB allows after `$changeStream`. */
const ALLOWED_STAGES = new Set([
  '$addFields',
  '$match',
  '$project',
  '$replaceRoot',
  '$replaceWith',
  '$redact',
  '$set',
  '$unset',
]);

/** True when a pipeline starts with `$changeStream`. */
export function isChangeStream(pipeline: unknown): boolean {
  return Array.isArray(pipeline) && isPlainObject(pipeline[0]) && '$changeStream' in pipeline[0];
}

function oneOf<T extends string>(spec: Doc, field: string, values: readonly T[], fallback: T): T {
  const v = spec[field];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !values.includes(v as T))
    throw new CommandError(
      ErrorCodes.BadValue,
      `Enumeration value '${typeof v === 'string' ? v : typeof v}' for field '$changeStream.${field}' is not a valid value.`,
    );
  return v as T;
}

function scopeOf(cmd: Doc, ctx: CommandContext, spec: Doc): StreamScope {
  const cluster = spec['allChangesForCluster'] === true;
  if (cmd['aggregate'] === 1) {
    if (ctx.db === 'admin') {
      if (!cluster)
        throw new CommandError(
          ErrorCodes.InvalidNamespace,
          '$changeStream on the admin database needs allChangesForCluster: true (it watches the whole cluster)',
        );
      return {};
    }
    if (cluster)
      throw new CommandError(
        ErrorCodes.InvalidOptions,
        "A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, and with no other namespace.",
      );
    if (ctx.db === 'config' || ctx.db === 'local')
      throw new CommandError(
        ErrorCodes.InvalidNamespace,
        `$changeStream may not be opened on the internal ${ctx.db} database`,
      );
    return { db: checkDbName(ctx.db) };
  }
  const coll = collectionName(cmd);
  if (cluster)
    throw new CommandError(
      ErrorCodes.InvalidOptions,
      "A $changeStream with 'allChangesForCluster:true' may only be opened on the 'admin' database, and with no other namespace.",
    );
  if (coll.startsWith('system.') || ['admin', 'config', 'local'].includes(ctx.db))
    throw new CommandError(
      ErrorCodes.InvalidNamespace,
      `$changeStream may not be opened on the internal ${ctx.db}.${coll} collection`,
    );
  return { db: ctx.db, coll };
}

/** Where the stream starts: the sequence number of the last record it must not return. */
function startPosition(ctx: CommandContext, spec: Doc): number {
  const history = ctx.core.engine.history;
  const given = ['resumeAfter', 'startAfter', 'startAtOperationTime'].filter((k) => spec[k] !== undefined);
  if (given.length > 1)
    throw new CommandError(40674, 'Only one type of resume option is allowed, but multiple were found.');
  const field = given[0];
  if (field === undefined) return history.latestSeq;
  if (field === 'startAtOperationTime') {
    const ts = spec[field];
    if (!isPlainObject(ts) && (ts as { _bsontype?: unknown } | null)?._bsontype !== 'Timestamp')
      throw new CommandError(
        ErrorCodes.TypeMismatch,
        "BSON field '$changeStream.startAtOperationTime' is the wrong type, expected type 'timestamp'",
      );
    const time = { t: (ts as Timestamp).t, i: (ts as Timestamp).i };
    const seq = history.seqAtOrAfter(time);
    // Records older than the oldest retained one may have been in the requested window.
    const oldest = history.after(history.oldestSeq - 1, 1)[0];
    if (
      history.oldestSeq > 1 &&
      oldest &&
      seq === oldest.seq &&
      (oldest.time.t > time.t || (oldest.time.t === time.t && oldest.time.i > time.i))
    )
      throw historyLost();
    return seq - 1;
  }
  const point = decodeResumeToken(spec[field]);
  if (point.epoch !== history.epoch || point.seq > history.latestSeq) throw historyLost();
  if (point.invalidate && field === 'resumeAfter')
    throw new CommandError(
      ErrorCodes.InvalidResumeToken,
      "Attempting to resume a change stream using 'resumeAfter' is not allowed from an invalidate notification.",
    );
  if (point.seq < history.oldestSeq - 1) throw historyLost();
  return point.seq;
}

/**
 * `aggregate` whose first stage is `$changeStream`: validates the options and stages, positions the
 * stream and replies with the events already there (none for a new stream) and a cursor.
 * @throws CommandError 40573 on a standalone server, 263 in a transaction, 286 ChangeStreamHistoryLost for
 *   a resume point older than the history, 260 for resumeAfter an invalidate, BadValue/40324 for bad options or stages.
 */
export function openChangeStream(cmd: Doc, ctx: CommandContext): Doc {
  if (!ctx.core.settings.replicaSet)
    throw new CommandError(40573, 'The $changeStream stage is only supported on replica sets');
  if (ctx.txn)
    throw new CommandError(
      ErrorCodes.OperationNotSupportedInTransaction,
      'Operation not permitted in transaction :: caused by :: $changeStream',
    );
  const pipeline = cmd['pipeline'] as Doc[];
  const spec = pipeline[0]!['$changeStream'];
  if (!isPlainObject(spec))
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      "the $changeStream stage's specification must be an object",
    );
  for (const key of Object.keys(spec))
    if (!OPTIONS.has(key))
      throw new CommandError(40415, `BSON field '$changeStream.${key}' is an unknown field.`);
  const stages = pipeline.slice(1);
  for (const stage of stages) {
    const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
    if (name === '$changeStream')
      throw new CommandError(40602, '$changeStream is only valid as the first stage in a pipeline');
    if (name === undefined || !ALLOWED_STAGES.has(name))
      throw new CommandError(
        ErrorCodes.IllegalOperation,
        `${String(name)} is not permitted in a $changeStream pipeline`,
      );
  }
  const options: StreamOptions = {
    scope: scopeOf(cmd, ctx, spec),
    fullDocument: oneOf(
      spec,
      'fullDocument',
      ['default', 'updateLookup', 'whenAvailable', 'required'],
      'default',
    ),
    fullDocumentBeforeChange: oneOf(
      spec,
      'fullDocumentBeforeChange',
      ['off', 'whenAvailable', 'required'],
      'off',
    ),
    showExpandedEvents: spec['showExpandedEvents'] === true,
    stages,
  };
  // A view has no changes of its own to watch (MongoDB: CommandNotSupportedOnView).
  if (options.scope.coll !== undefined) refuseView(ctx.core.engine.collection(ctx.db, options.scope.coll));
  const reader = new ChangeStreamReader(ctx.core.engine, options, startPosition(ctx, spec));
  const cursorSpec = isPlainObject(cmd['cursor']) ? cmd['cursor'] : {};
  const firstBatch = reader.read(batchSizeOf(cursorSpec['batchSize']));
  const ns = `${ctx.db}.${options.scope.coll ?? '$cmd.aggregate'}`;
  ctx.core.opcounters.command++;
  const id = reader.invalidated ? undefined : ctx.core.cursors.openStream(ns, reader, cursorOwner(ctx));
  return {
    cursor: { firstBatch, postBatchResumeToken: reader.postBatchResumeToken(), id: id ?? Long.ZERO, ns },
    ok: 1,
  };
}

/**
 * `getMore` on a change stream cursor: returns new events at once, or waits for them up to `maxTimeMS`.
 * The cursor closes (id 0) after an invalidate event.
 */
export async function changeStreamGetMore(cmd: Doc, ctx: CommandContext, cursor: Cursor): Promise<Doc> {
  const reader = cursor.stream!;
  const history = ctx.core.engine.history;
  const batchSize = batchSizeOf(cmd['batchSize']);
  const deadline = Date.now() + (intOption(cmd, 'maxTimeMS') ?? DEFAULT_AWAIT_MS);
  cursor.lastUsed = Date.now();
  let batch = reader.read(batchSize);
  while (batch.length === 0 && !reader.invalidated && ctx.core.cursors.get(cursor.id) === cursor) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await history.wait(left);
    if (history.isClosed) break;
    batch = reader.read(batchSize);
  }
  cursor.lastUsed = Date.now();
  if (ctx.core.cursors.get(cursor.id) !== cursor)
    throw new CommandError(
      ErrorCodes.CursorKilled,
      `cursor id ${cursor.id.toString()} was killed while it waited for events`,
    );
  if (reader.invalidated) ctx.core.cursors.kill(cursor.id);
  return {
    cursor: {
      nextBatch: batch,
      postBatchResumeToken: reader.postBatchResumeToken(),
      id: reader.invalidated ? Long.ZERO : cursor.id,
      ns: cursor.ns,
    },
    ok: 1,
  };
}
