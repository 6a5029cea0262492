/**
 * Reading the sync collection: a change stream of its inserts, in commit order, from now or from a
 * position (a resume token), delivered one at a time to a callback or as an async iterator.
 */
import type {
  ChangeStream,
  ChangeStreamInsertDocument,
  ChangeStreamInvalidateDocument,
  Collection,
  Document,
} from 'mongodb';
import { handleDriverError } from '../docdb/index.js';
import { BadRequest, Gone } from '../errors/index.js';
import type { FollowOptions, SyncRecord, SyncedEvent } from './declarations.js';

/** How long a getMore waits for new events on the server, in milliseconds. */
const AWAIT_MS = 1000;

/** An open feed. */
export interface Feed {
  /**
   * Resolves once the stream is positioned: events committed from then on are delivered. Rejects
   * with the database's error when the stream fails before that (e.g. `after` is refused).
   */
  ready: Promise<void>;
  /**
   * Where the stream stands (its resume token): the last change it read, or a later point of the
   * history it has read past without a match. Undefined before its first reply.
   */
  readonly position: string | undefined;
  close(): Promise<void>;
}

/** Turns an insert event of the sync collection into what followers receive. */
function toEvent(change: ChangeStreamInsertDocument<Document>): SyncedEvent {
  const record = change.fullDocument as unknown as SyncRecord;
  return {
    position: (change._id as { _data: string })._data,
    origin: record.origin,
    n: record.n,
    path: record.path,
    event: record.event,
    data: record.data,
    context: record.context,
  };
}

/** A change of the sync collection's stream: one of its inserts, or the end of the collection. */
type Change = ChangeStreamInsertDocument<Document> | ChangeStreamInvalidateDocument;

/** Opens a change stream of the inserts matching `options` (and the invalidate that ends a stream). */
function watch(collection: Collection<Document>, options: FollowOptions, after: string | undefined) {
  const insert: Document = { operationType: 'insert' };
  if (options.path !== undefined) insert['fullDocument.path'] = options.path;
  if (options.event !== undefined) insert['fullDocument.event'] = options.event;
  return collection.watch<Document, Change>(
    [{ $match: { $or: [insert, { operationType: 'invalidate' }] } }],
    {
      maxAwaitTimeMS: AWAIT_MS,
      ...(after !== undefined ? { startAfter: { _data: after } } : {}),
    },
  );
}

/**
 * Opens a change stream on `collection` and calls `deliver` for each matching event, in order (the next
 * one only after `deliver` returned). `onError` receives a failure of the stream; the feed then ends.
 * When the collection is dropped or renamed (an `invalidate`), the feed reads the collection of that
 * name again from just after it (`startAfter` accepts an invalidate's token, which `resumeAfter` does
 * not) and tells `onInvalidate`.
 */
export function openFeed(
  collection: Collection<Document>,
  options: FollowOptions,
  deliver: (event: SyncedEvent) => void | Promise<void>,
  onError: (error: unknown) => void,
  onInvalidate: () => void = () => undefined,
): Feed {
  let stream: ChangeStream<Document, Change> = watch(collection, options, options.after);
  let closed = false;
  let positioned = false;
  let settle: { resolve(): void; reject(error: unknown): void } = { resolve() {}, reject() {} };
  const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // Callers that care await `ready`; a failure nobody awaits is still reported through onError.
  ready.catch(() => undefined);
  const markReady = (): void => {
    positioned = true;
    settle.resolve();
  };
  // The driver reports the position of its first reply (the aggregate that opens the stream).
  stream.once('resumeTokenChanged', markReady);
  const run = async (): Promise<void> => {
    try {
      while (!closed) {
        const change = await stream.next();
        markReady();
        if (closed) break;
        if (change.operationType === 'invalidate') {
          void stream.close().catch(() => undefined);
          stream = watch(collection, options, (change._id as { _data: string })._data);
          onInvalidate();
          continue;
        }
        await deliver(toEvent(change));
      }
    } catch (error) {
      if (positioned || closed) settle.resolve();
      else settle.reject(error);
      if (!closed) onError(error);
    }
  };
  void run();
  return {
    ready,
    get position() {
      return (stream.resumeToken as { _data?: string } | undefined)?._data;
    },
    async close() {
      closed = true;
      // Not awaited: the driver closes after the pending getMore returns (up to AWAIT_MS later).
      void stream.close().catch(() => undefined);
    },
  };
}

/** MongoDB's codes for a resume token it cannot read (BadValue, FailedToParse, InvalidResumeToken). */
const UNREADABLE_POSITION = new Set([2, 9, 260]);
/** MongoDB's ChangeStreamHistoryLost: the position is older than the change history kept. */
const HISTORY_LOST = 286;

/**
 * The plume error DocDbService gives for a driver error (`handleDriverError`): above all `Unavailable`
 * (503) 'The database is unavailable' while the database cannot be reached, so an HTTP client
 * following the feed gets a status it may retry instead of a 500.
 */
export function databaseError(error: unknown): unknown {
  try {
    handleDriverError(error);
  } catch (mapped: unknown) {
    return mapped;
  }
}

/**
 * The error a follower gets when the database refuses to open the feed after `after`, a position
 * that usually comes from a client (an SSE `Last-Event-ID`): 400 for one it cannot read, 410 for one
 * older than its change history; any other failure (the database unreachable) as `databaseError`.
 */
function positionError(error: unknown, after: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const shown = after.length > 40 ? `${after.slice(0, 40)}…` : after;
  if (typeof code === 'number' && UNREADABLE_POSITION.has(code))
    return new BadRequest(`'${shown}' is not a position of this feed`, { cause: error });
  if (code === HISTORY_LOST)
    return new Gone(`Position '${shown}' is older than the database's change history`, { cause: error });
  return databaseError(error);
}

/**
 * The events of a feed as an async iterator; `return()` closes the feed. Its `ready` rejects when
 * the feed cannot be opened (see `positionError` for a refused `after`), and `next()` throws when the
 * stream fails, with plume errors (see `databaseError`).
 */
export function followFeed(
  collection: Collection<Document>,
  options: FollowOptions,
): AsyncIterableIterator<SyncedEvent> & { ready: Promise<void> } {
  const queue: SyncedEvent[] = [];
  let failure: unknown;
  let done = false;
  let wake: (() => void) | undefined;
  const feed = openFeed(
    collection,
    options,
    (event) => {
      queue.push(event);
      wake?.();
    },
    (error) => {
      failure = databaseError(error);
      wake?.();
    },
  );
  const ready = feed.ready.catch((error: unknown) => {
    throw options.after === undefined ? databaseError(error) : positionError(error, options.after);
  });
  ready.catch(() => undefined);
  return {
    ready,
    async next(): Promise<IteratorResult<SyncedEvent>> {
      while (queue.length === 0 && failure === undefined && !done)
        await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      if (queue.length > 0) return { value: queue.shift()!, done: false };
      if (failure !== undefined && !done) {
        done = true;
        throw failure instanceof Error ? failure : new Error('the change stream failed');
      }
      return { value: undefined, done: true };
    },
    async return(): Promise<IteratorResult<SyncedEvent>> {
      done = true;
      queue.length = 0;
      wake?.();
      await feed.close();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
