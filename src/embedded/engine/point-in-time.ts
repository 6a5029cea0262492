/**
 * Snapshot reads outside transactions (`readConcern: { level: 'snapshot' }`, with or without
 * `atClusterTime`): a read without a time pins every collection's state at the current cluster time and
 * answers from it; a read naming a time the server pinned reads those states again. A time it never
 * pinned, or one older than the history window, is refused with MongoDB's SnapshotTooOld rather than
 * answered with current data.
 */
import type { Timestamp } from 'bson';
import type { CollectionState } from './collection.js';
import type { Engine } from './database.js';
import { clusterTime } from './let-variables.js';
import { bsonTag } from './values.js';
import { Transaction } from './transaction.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** MongoDB's minSnapshotHistoryWindowInSeconds default: how long a pinned time stays readable. */
const HISTORY_MS = 300_000;
/** At most this many pinned times are kept (the oldest is released first). */
const MAX_POINTS = 100;

interface PointInTime {
  time: Timestamp;
  takenAt: number;
  states: Map<string, CollectionState>;
}

const histories = new WeakMap<Engine, Map<bigint, PointInTime>>();

/** A Timestamp as one ordered number (seconds in the high 32 bits, increment in the low ones). */
function timeKey(value: unknown): bigint {
  if (bsonTag(value) !== 'Timestamp')
    throw new CommandError(ErrorCodes.TypeMismatch, 'readConcern.atClusterTime must be a Timestamp');
  const ts = value as Timestamp;
  return (BigInt(ts.t) << 32n) | BigInt(ts.i);
}

function release(point: PointInTime): void {
  for (const state of point.states.values()) state.pins = Math.max(0, state.pins - 1);
}

function historyOf(engine: Engine): Map<bigint, PointInTime> {
  let history = histories.get(engine);
  if (!history) histories.set(engine, (history = new Map<bigint, PointInTime>()));
  const now = Date.now();
  for (const [key, point] of history) {
    if (now - point.takenAt <= HISTORY_MS && history.size <= MAX_POINTS) break;
    release(point);
    history.delete(key);
  }
  return history;
}

/** A read-only transaction that sees exactly the pinned states (collections created later are empty). */
function readerAt(point: PointInTime): Transaction {
  const reader = new Transaction(-1, -1);
  reader.pointInTime = true;
  for (const [ns, state] of point.states) reader.snapshots.set(ns, state);
  return reader;
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
    if (point) return { reader: readerAt(point), time: point.time };
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
  const states = new Map<string, CollectionState>();
  for (const colls of engine.databases.values())
    for (const coll of colls.values()) {
      coll.state.pins++;
      states.set(coll.ns, coll.state);
    }
  const point = { time, takenAt: Date.now(), states };
  history.set(timeKey(time), point);
  return { reader: readerAt(point), time };
}
