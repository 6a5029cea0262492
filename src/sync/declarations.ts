import type { Collection, Document } from 'mongodb';

/** Options of {@link sync}. */
export interface SyncOptions {
  /**
   * The collection events travel through (or a promise of it), e.g. `db.collection('plume_sync')`.
   * Every instance of the app must use the same one, on a MongoDB replica set (or the embedded database).
   */
  Model: Collection<Document> | Promise<Collection<Document>>;
  /** Largest event accepted, in bytes of BSON (data and context together). Default 1 MiB. */
  maxEventBytes?: number;
  /** How long published events stay in the collection (a TTL index), in seconds. Default 3600. */
  retainSeconds?: number;
  /**
   * Resume: a position this instance's `getSync(app).lastPosition` had when it stopped. Events other
   * instances emitted after it are emitted here on start (within the database's change history).
   * Default: only events from now on.
   */
  startAfter?: string;
  /**
   * Longest wait, in milliseconds, of `app.teardown()` for the events still being written. Past it,
   * teardown reports them as not written and resolves, instead of waiting for an unreachable
   * database for the driver's `serverSelectionTimeoutMS` (30 s by default). Default 3000.
   */
  teardownTimeoutMs?: number;
}

/** The serialisable part of a hook context sent along with an event. */
export interface SyncContext {
  path: string;
  method: string;
  event: string;
  id?: unknown;
  params: { query?: unknown; route?: unknown; provider?: unknown };
}

/** One event as it is stored in the sync collection. */
export interface SyncRecord {
  /** The instance that emitted it. */
  origin: string;
  /** Its number on that instance: 1, 2, 3 … in emit order. */
  n: number;
  /** Service path. */
  path: string;
  event: string;
  data: unknown;
  /** A {@link SyncContext} for service events; the second `emit` argument as given otherwise. */
  context: unknown;
  /** When it was emitted (the TTL index reads it). */
  at: Date;
}

/** An event delivered by {@link Sync.follow}. */
export interface SyncedEvent extends Omit<SyncRecord, 'at'> {
  /** Where the event sits in the stream: pass it as `after` to continue after it (e.g. as an SSE id). */
  position: string;
}

/** What {@link Sync.follow} delivers. */
export interface FollowOptions {
  /** Only events of this service path. */
  path?: string;
  /** Only events with this name. */
  event?: string;
  /** Start after this position (a `SyncedEvent.position`); default: events from now on. */
  after?: string;
}
