/**
 * Snapshot reads outside transactions (`readConcern: { level: 'snapshot' }`, with or without
 * `atClusterTime`): a read without a time keeps a new point in time, the current cluster time, and
 * answers as of it; a read naming a time the server kept reads as of it again. A time it never kept, or
 * one older than the history window, is refused with MongoDB's SnapshotTooOld rather than answered with
 * current data.
 *
 * A point in time reads as a transaction does (transaction-snapshot.ts): each collection as of the
 * point when the point first reads it, from the documents committed writes replaced since; pinning
 * every collection when the point is taken would make the next write to each copy it (O(documents)),
 * whether the snapshot read ever reads it or not.
 */
import type { Timestamp } from 'bson';
import type { Engine } from './database.js';
import { clusterTime } from './let-variables.js';
import { bsonTag } from './values.js';
import { Transaction } from './transaction.js';
import { forgetReplaced } from './transaction-snapshot.js';
import { forgetRetired } from './retired-collections.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** MongoDB's minSnapshotHistoryWindowInSeconds default: how long a pinned time stays readable. */
const HISTORY_MS = 300_000;
/** At most this many pinned times are kept (the oldest is released first). */
const MAX_POINTS = 100;

interface PointInTime {
  time: Timestamp;
  /** Reads as of the point (never writes); its snapshots fill as it reads collections. */
  reader: Transaction;
}

const histories = new WeakMap<Engine, Map<bigint, PointInTime>>();

/** A Timestamp as one ordered number (seconds in the high 32 bits, increment in the low ones). */
function timeKey(value: unknown): bigint {
  if (bsonTag(value) !== 'Timestamp')
    throw new CommandError(ErrorCodes.TypeMismatch, 'readConcern.atClusterTime must be a Timestamp');
  const ts = value as Timestamp;
  return (BigInt(ts.t) << 32n) | BigInt(ts.i);
}

/** The kept points of `engine`, the expired ones (and the oldest past MAX_POINTS) released. */
function historyOf(engine: Engine): Map<bigint, PointInTime> {
  let history = histories.get(engine);
  if (!history) histories.set(engine, (history = new Map<bigint, PointInTime>()));
  const now = Date.now();
  let released = false;
  for (const [key, { reader }] of history) {
    if (reader.readableUntil >= now && history.size <= MAX_POINTS) break;
    reader.release();
    engine.pointsInTime.delete(reader);
    history.delete(key);
    released = true;
  }
  if (released) {
    forgetReplaced(engine);
    forgetRetired(engine);
  }
  return history;
}

/**
 * Releases the points in time past the history window (and the oldest past the 100 kept), with the
 * collection states they pinned and the replaced documents and dropped collections only they needed;
 * the server calls it every second, so what a snapshot read kept goes though no other snapshot read
 * comes. Throws nothing.
 */
export function releaseExpiredPoints(engine: Engine): void {
  if (engine.pointsInTime.size > 0) historyOf(engine);
}

/**
 * The reader for a snapshot read: at `atClusterTime` when given, else at a new pinned time (returned as
 * `time`, which the reply reports as `atClusterTime`).
 * @throws CommandError SnapshotTooOld (239) for a time the server has not kept; InvalidOptions (72) for a
 *   time in the future.
 */
export function snapshotReader(
  engine: Engine,
  atClusterTime: unknown,
): { reader: Transaction; time: Timestamp } {
  const history = historyOf(engine);
  if (atClusterTime !== undefined && atClusterTime !== null) {
    const key = timeKey(atClusterTime);
    const point = history.get(key);
    if (point) return { reader: point.reader, time: point.time };
    const shown = `Timestamp(${String(key >> 32n)}, ${String(key & 0xffffffffn)})`;
    if (key > timeKey(clusterTime()))
      throw new CommandError(
        ErrorCodes.InvalidOptions,
        `readConcern atClusterTime ${shown} must not be greater than the current clusterTime`,
      );
    throw new CommandError(
      ErrorCodes.SnapshotTooOld,
      `Read timestamp ${shown} is older than the oldest available timestamp (the embedded database keeps only the times its own snapshot reads returned, for ${HISTORY_MS / 1000} s).`,
    );
  }
  const time = clusterTime();
  const reader = new Transaction(-1, engine.seq);
  reader.pointInTime = true;
  reader.readableUntil = Date.now() + HISTORY_MS;
  engine.pointsInTime.add(reader);
  history.set(timeKey(time), { time, reader });
  return { reader, time };
}
