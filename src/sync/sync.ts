/**
 * Service events across app instances: every event a service emits here is also written to a shared
 * collection, and every event another instance wrote there is emitted here, through MongoDB change
 * streams. The order is the originating instance's, each event reaches each other instance once.
 */
import { randomUUID } from 'node:crypto';
import type { Collection, Document } from 'mongodb';
import { getLogger, stripSlashes, type Application, type Service } from '../core/index.js';
import { GeneralError } from '../errors/index.js';
import type { FollowOptions, SyncOptions, SyncRecord, SyncedEvent } from './declarations.js';
import { databaseError, followFeed, openFeed, type Feed } from './feed.js';
import { checkPayload, contextPayload } from './payload.js';
import { Outbox } from './outbox.js';

/** Events EventEmitter uses for itself; they stay local. */
const LOCAL_EVENTS = new Set(['newListener', 'removeListener', 'error']);
/** Default largest event, in bytes. */
const DEFAULT_MAX_EVENT_BYTES = 1024 * 1024;
/** Default longest wait of `close()` for queued writes, in milliseconds. */
const DEFAULT_TEARDOWN_TIMEOUT_MS = 3000;
/** How long a failed feed waits before it reopens, in milliseconds (doubled after each failed reopen). */
const REOPEN_MS = 1000;
/** The longest wait between two reopens, in milliseconds. */
const MAX_REOPEN_MS = 30_000;
/** MongoDB's ChangeStreamHistoryLost: the position is older than the change history kept. */
const HISTORY_LOST = 286;
/** Reported when the position to resume from is no longer in the database's change history. */
const HISTORY_LOST_MESSAGE =
  "plume/sync: the events emitted since this instance's last position are lost (older than the database's change history); receiving the events emitted from now on";
/** Reported when the sync collection's change stream ends because the collection went away. */
const INVALIDATED =
  'plume/sync: the sync collection was dropped or renamed; its events are read again from the first one written after that';

type Emit = (event: string | symbol, ...args: unknown[]) => boolean;

const instances = new WeakMap<object, Sync>();

/** The sync of one app instance (see {@link sync}). */
export class Sync {
  /** This instance's id: the `origin` of the events it publishes. */
  readonly instanceId = randomUUID();
  /** Resolves once this instance receives the events other instances emit (its feed is open). */
  readonly ready: Promise<void>;
  private readonly collection: Promise<Collection<Document>>;
  private readonly maxEventBytes: number;
  private readonly retainSeconds: number;
  private readonly teardownTimeoutMs: number;
  private readonly originals = new WeakMap<object, Emit>();
  private published = 0;
  private readonly outbox: Outbox;
  private readonly lastSeen = new Map<string, number>();
  private feed: Feed | undefined;
  private position: string | undefined;
  private closed = false;
  private reopenTimer: NodeJS.Timeout | undefined;
  /** Failures of the feed in a row: the one that ended a working stream, then each failed reopen. */
  private reopens = 0;

  constructor(
    private readonly app: Application,
    options: SyncOptions,
  ) {
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.position = options.startAfter;
    this.retainSeconds = options.retainSeconds ?? 3600;
    this.teardownTimeoutMs = options.teardownTimeoutMs ?? DEFAULT_TEARDOWN_TIMEOUT_MS;
    this.collection = Promise.resolve(options.Model).then(async (collection) => {
      await collection.createIndex({ at: 1 }, { expireAfterSeconds: this.retainSeconds });
      return collection;
    });
    this.collection.catch((error: unknown) => this.report(error));
    this.outbox = new Outbox(this.collection, (error) => this.report(error));
    this.ready = this.collection.then(async () => this.open()).catch(() => undefined);
  }

  /** Sends this service's events to the other instances (wraps its `emit`). */
  attach(path: string, service: Service): void {
    const emitter = service as unknown as { emit: Emit };
    if (this.originals.has(service) || typeof emitter.emit !== 'function') return;
    const original = emitter.emit;
    this.originals.set(service, original);
    const publish = (event: string, data: unknown, context: unknown): void =>
      this.publish(path, event, data, context);
    // plume defines `emit` writable (not configurable) on registered services: assign, don't redefine.
    emitter.emit = function emit(this: unknown, event: string | symbol, ...args: unknown[]): boolean {
      if (typeof event === 'string' && !LOCAL_EVENTS.has(event)) publish(event, args[0], args[1]);
      return original.call(this, event, ...args);
    };
  }

  /**
   * Checks the event and queues it for the other instances (in emit order).
   * @throws GeneralError / PayloadTooLarge when it cannot travel (see checkPayload).
   */
  private publish(path: string, event: string, data: unknown, context: unknown): void {
    const payload = { data, context: contextPayload(event, context) };
    checkPayload(event, payload, this.maxEventBytes);
    const record: SyncRecord = {
      origin: this.instanceId,
      n: ++this.published,
      path,
      event,
      ...payload,
      at: new Date(),
    };
    this.outbox.push(record);
  }

  /** Emits an event another instance published, once, on this instance's service. */
  private receive(event: SyncedEvent): void {
    this.position = event.position;
    if (event.origin === this.instanceId) return;
    if ((this.lastSeen.get(event.origin) ?? 0) >= event.n) return;
    this.lastSeen.set(event.origin, event.n);
    const service = this.app.services[event.path];
    const emit = service ? this.originals.get(service) : undefined;
    if (!service || !emit) return;
    const context =
      typeof event.context === 'object' && event.context !== null && 'method' in event.context
        ? {
            ...event.context,
            app: this.app,
            service,
            sync: { origin: event.origin, position: event.position },
          }
        : event.context;
    emit.call(service, event.event, event.data, context);
  }

  private async open(): Promise<void> {
    if (this.closed) return;
    const collection = await this.collection;
    const feed = openFeed(
      collection,
      this.position === undefined ? {} : { after: this.position },
      (event) => this.receive(event),
      (error) => {
        if ((error as { code?: unknown } | null)?.code === HISTORY_LOST) {
          // Waiting cannot bring those events back: say they are lost and go on with the new ones.
          this.report(new GeneralError(HISTORY_LOST_MESSAGE, { cause: error }));
          this.position = undefined;
        } else {
          // Reopen where the stream stood, which may be past the last event received (or before any).
          this.position = feed.position ?? this.position;
          // While the database stays down every reopen fails the same way: the first failure says it.
          if (this.reopens === 0) this.report(error);
        }
        if (this.closed) return;
        const wait = Math.min(REOPEN_MS * 2 ** this.reopens++, MAX_REOPEN_MS);
        this.reopenTimer = setTimeout(() => void this.open(), wait);
        this.reopenTimer.unref();
      },
      () => {
        this.report(new GeneralError(INVALIDATED));
        // A dropped collection comes back, without its TTL index, with the next event written.
        collection.createIndex({ at: 1 }, { expireAfterSeconds: this.retainSeconds }).catch(() => undefined);
      },
    );
    this.feed = feed;
    // A feed that fails to open has been reported through onError, which opens it again later.
    await feed.ready.then(
      () => this.reopened(),
      () => undefined,
    );
  }

  /** The feed is open again: says so (once per outage) with the number of reopens that failed. */
  private reopened(): void {
    if (this.reopens > 0 && !this.closed)
      getLogger(this.app).info(
        { failedAttempts: this.reopens - 1 },
        `plume/sync: receiving events again, after ${this.reopens - 1} failed attempt(s) to reopen the feed`,
      );
    this.reopens = 0;
  }

  /**
   * The events published by every instance (this one included), in commit order, as an async
   * iterator with a `position` each; `after` continues after a position, e.g. a reconnecting SSE
   * client's `Last-Event-ID`. Iterate from `ready` on to see every event committed after it.
   * `ready` rejects when the feed cannot be opened: `BadRequest` (400) for an `after` the database
   * cannot read as a position, `Gone` (410) for one older than its change history
   * (ChangeStreamHistoryLost), otherwise the plume error DocDbService gives for the database's error
   * (`Unavailable` (503) while it cannot be reached); `next()` then throws that error too, as it does
   * when the stream fails later.
   */
  follow(options: FollowOptions = {}): AsyncIterableIterator<SyncedEvent> & { ready: Promise<void> } {
    let inner: (AsyncIterableIterator<SyncedEvent> & { ready: Promise<void> }) | undefined;
    const opened = this.collection.then(
      (collection) => (inner = followFeed(collection, options)),
      (error: unknown) => {
        throw databaseError(error);
      },
    );
    const ready = opened.then(async (feed) => feed.ready);
    // A follower that never awaits `ready` gets the failure from `next()` instead.
    ready.catch(() => undefined);
    return {
      ready,
      async next() {
        return (await opened).next();
      },
      async return() {
        await opened.catch(() => undefined);
        return (await inner?.return?.()) ?? { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /**
   * The position of the last event this instance's feed read (its own events included), or, once its
   * stream failed, the point that stream had read up to: save it at shutdown and pass it as
   * `startAfter` on the next start to receive what was emitted meanwhile.
   */
  get lastPosition(): string | undefined {
    return this.position;
  }

  /** Waits until every event emitted so far is written to the sync collection. */
  async flush(): Promise<void> {
    await this.outbox.flush();
  }

  /**
   * Writes what is queued, waiting at most `teardownTimeoutMs`, then stops receiving (called by
   * `app.teardown()`). Events still unwritten at that point are reported as not written.
   */
  async close(): Promise<void> {
    await this.outbox.close(this.teardownTimeoutMs);
    this.closed = true;
    clearTimeout(this.reopenTimer);
    await this.feed?.close();
  }

  private report(error: unknown): void {
    // After close() the database may be closed under a pending call: that failure is expected.
    if (this.closed) return;
    if (this.app.listenerCount('error') > 0) this.app.emit('error', error);
    else {
      // The app's log, where the line saying the feed is back goes too (see reopened()).
      const message = error instanceof Error ? error.message : String(error);
      getLogger(this.app).error(
        error,
        message.startsWith('plume/sync:') ? message : `plume/sync: ${message}`,
      );
    }
  }
}

/**
 * `app.configure(sync({ Model }))`: every event the app's services emit (standard and custom) is
 * also emitted, with its data and a serialisable copy of its context, on every other instance
 * configured with the same collection (spec: issue 17, "Service events across instances").
 * Services registered later are included. `app.teardown()` flushes and closes it.
 * The second `emit` argument arrives as a {@link SyncContext} plus `app`, `service` and
 * `sync: { origin, position }` on the receiving side.
 * @throws (at emit time) GeneralError for data that is not JSON/BSON, PayloadTooLarge above `maxEventBytes`.
 */
export function sync(options: SyncOptions): (app: Application) => void {
  return (app) => {
    const instance = new Sync(app, options);
    instances.set(app, instance);
    for (const [path, service] of Object.entries(app.services)) instance.attach(path, service);
    const use = app.use.bind(app);
    const teardown = app.teardown.bind(app);
    Object.assign(app, {
      // Arguments forwarded as given: plume/express apps also take middleware through use().
      use(...args: unknown[]) {
        (use as (...a: unknown[]) => unknown)(...args);
        const location = typeof args[0] === 'string' ? stripSlashes(args[0]) : undefined;
        const service = location === undefined ? undefined : app.services[location];
        if (location !== undefined && service) instance.attach(location, service);
        return app;
      },
      async teardown(server?: unknown) {
        await teardown(server);
        await instance.close();
        return app;
      },
    });
  };
}

/** The {@link Sync} configured on `app`, or undefined. */
export function getSync(app: Application): Sync | undefined {
  return instances.get(app);
}
