import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Collection, type Document, type FindCursor } from 'mongodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import {
  captureLogger,
  hostileTransports,
  serverErrors,
  type CapturingLogger,
  type ServedApp,
} from './servers.js';

/**
 * The bound the application sets for "database unreachable": the driver gives up selecting a server
 * after this long, and DocDbService answers 503. The driver's own default is 30 s.
 */
const SELECTION_TIMEOUT_MS = 300;
/** A request that is not answered within this (far below the driver's 30 s default) counts as hung. */
const HANG_MS = 10_000;

interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  text: string;
}

async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });
  const text = await response.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Checked by the callers: every answer here must be JSON.
  }
  return { status: response.status, body, text };
}

function post(url: string, data: unknown): Promise<Answer> {
  return send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(data),
  });
}

function expectUnavailable(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(answer.body).toMatchObject({ name: 'Unavailable', code: 503, className: 'unavailable' });
  expect(answer.text).not.toMatch(/\bat .+:\d+:\d+|Mongo|ECONNREFUSED|127\.0\.0\.1/);
}

describe.each(hostileTransports)('database faults over HTTP ($name)', (transport) => {
  let dbPath: string;
  let database: EmbeddedServer;
  let client: MongoClient;
  let collection: Collection<Document>;
  let served: ServedApp;
  let logger: CapturingLogger;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => {
    unhandled.push(reason);
  };

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    dbPath = await mkdtemp(join(tmpdir(), 'plume-faults-'));
    database = await startEmbeddedServer({ dbPath });
    client = new MongoClient(database.uri, {
      serverSelectionTimeoutMS: SELECTION_TIMEOUT_MS,
      connectTimeoutMS: SELECTION_TIMEOUT_MS,
      heartbeatFrequencyMS: 500,
    });
    await client.connect();
    collection = client.db('faults').collection('items');
    logger = captureLogger();
    served = await transport.serve((app) => {
      app.use('items', new DocDbService({ Model: collection, paginate: { default: 10, max: 50 } }));
    }, logger);
  });

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await served?.close();
    await client?.close();
    await database?.stop();
    if (dbPath) await rm(dbPath, { recursive: true, force: true });
  });

  it('answers 503 Unavailable fast while the database is down, recovers without a restart, and keeps every acknowledged write', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let unavailable = 0;
    let running = true;
    let sequence = 0;

    const count = (answer: Answer): void => {
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 503) {
        expectUnavailable(answer);
        unavailable += 1;
      }
    };
    const writer = async (): Promise<void> => {
      while (running) {
        const n = sequence++;
        const answer = await post(`${served.url}/items`, { n, text: `item ${n}` });
        count(answer);
        if (answer.status === 201) acknowledged.push(String(answer.body?._id));
      }
    };
    const reader = async (): Promise<void> => {
      while (running) count(await send(`${served.url}/items?$sort[n]=-1`));
    };

    const load = Promise.all([writer(), writer(), writer(), reader()]);
    try {
      await until(() => acknowledged.length >= 20);
      await database.stop();
      const before = acknowledged.length;
      // Every request made while the database is down is answered, with a 503 (checked in `count`).
      await until(() => unavailable >= 8);
      expectUnavailable(await send(`${served.url}/items`));
      expectUnavailable(await post(`${served.url}/items`, { text: 'while down' }));

      database = await startEmbeddedServer({ dbPath, port: database.port });
      // The same app and the same MongoClient serve again once the driver reconnects.
      await until(() => acknowledged.length >= before + 20);
    } finally {
      running = false;
      await load;
    }

    expect([...statuses.keys()].sort()).toEqual([200, 201, 503]);
    expect(unhandled).toEqual([]);
    // Transports log every 5xx: the 503s and nothing else.
    for (const error of logger.errors) expect(error).toMatchObject({ code: 503, name: 'Unavailable' });

    const stored = await collection
      .find({}, { projection: { _id: 1 } })
      .map((doc) => String(doc._id))
      .toArray();
    const missing = acknowledged.filter((id) => !stored.includes(id));
    expect(missing).toEqual([]);

    const page = await send(`${served.url}/items?$limit=1`);
    expect(page.status).toBe(200);
    expect(page.body?.total).toBe(stored.length);
  });
});

describe.each(hostileTransports)('errors a service did not mean to throw ($name)', (transport) => {
  let served: ServedApp;
  let logger: CapturingLogger;
  const secret = new Error('connect ECONNREFUSED mongodb://admin:hunter2@10.0.0.7:27017');
  const typeError = new TypeError("Cannot read properties of undefined (reading 'hunter2')");

  beforeAll(async () => {
    logger = captureLogger();
    served = await transport.serve((app) => {
      app.use('boom', {
        async find() {
          throw secret;
        },
        async create() {
          throw typeError;
        },
        async get() {
          // Not even an Error: a thrown string.
          // eslint-disable-next-line @typescript-eslint/only-throw-error
          throw 'hunter2 string';
        },
      });
      app.use('boom/stream', {
        async find() {
          return (async function* () {
            yield { n: 1 };
            throw secret;
          })();
        },
      });
    }, logger);
  });
  afterAll(() => served?.close());
  beforeEach(() => {
    logger.errors.length = 0;
  });

  it.each([
    ['find (Error)', () => send(`${served.url}/boom`, { headers: { accept: 'application/json' } }), secret],
    ['create (TypeError)', () => post(`${served.url}/boom`, { a: 1 }), typeError],
    ['get (a thrown string)', () => send(`${served.url}/boom/1`), 'hunter2 string'],
  ])(
    '%s → 500 GeneralError without its message or stack, and the original is logged',
    async (_name, call, thrown) => {
      const answer = await call();
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({
        name: 'GeneralError',
        message: expect.any(String) as string,
        code: 500,
        className: 'general-error',
      });
      expect(answer.text).not.toContain('hunter2');
      expect(answer.text).not.toMatch(/\bat .+:\d+:\d+|\.ts\b|stack/);
      expect(logger.errors).toEqual([thrown]);
    },
  );

  it('an event stream that fails mid-way sends a generic error event, ends, and the error is logged', async () => {
    const consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const answer = await send(`${served.url}/boom/stream`);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(
        'data: {"n":1}\n\nevent: error\ndata: {"name":"GeneralError","message":"Internal server error","code":500,"className":"general-error"}\n\n',
      );
      // The Web Standard handler logs to errorHandler's logger; the Express transport, which has no
      // access to errorHandler's logger once the response has started, logs to the console.
      expect([...logger.errors, ...consoleErrors.mock.calls.map(([error]) => error as unknown)]).toEqual([
        secret,
      ]);
    } finally {
      consoleErrors.mockRestore();
    }
  });

  it('client errors (4xx) are answered, and never logged as server errors', async () => {
    expect((await send(`${served.url}/nowhere`)).status).toBe(404);
    expect((await send(`${served.url}/boom`, { method: 'DELETE' })).status).toBe(405);
    expect(serverErrors(logger)).toEqual([]);
  });
});

/** Counts of the process' sockets and timers, the handles a leaked request would keep. */
function handleCounts(): Record<string, number> {
  const counts: Record<string, number> = { TCPSocketWrap: 0, Timeout: 0 };
  for (const type of process.getActiveResourcesInfo()) {
    if (type in counts) counts[type] = (counts[type] ?? 0) + 1;
  }
  return counts;
}

/** True when no count is above `baseline` (a count may drop: idle keep-alive sockets close). */
function withinBaseline(counts: Record<string, number>, baseline: Record<string, number>): boolean {
  return Object.keys(counts).every((type) => (counts[type] ?? 0) <= (baseline[type] ?? 0));
}

/** Waits (bounded) until the handle counts are back within `baseline`, then returns them. */
async function settledHandles(baseline: Record<string, number>): Promise<Record<string, number>> {
  let counts = handleCounts();
  for (let i = 0; i < 150 && !withinBaseline(counts, baseline); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    counts = handleCounts();
  }
  return counts;
}

/** A raw HTTP/1.1 request on its own connection: what a browser tab that is closed mid-way does. */
function rawRequest(url: string, text: string): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(text);
  return socket;
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Resolves once `condition()` holds, checking every few milliseconds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Opens an event stream on a raw connection; `text()` is everything received so far. */
function openStream(url: string, path: string): { socket: Socket; text(): string } {
  const socket = rawRequest(url, `GET ${path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  return { socket, text: () => received };
}

describe.each(hostileTransports)('clients that disconnect ($name)', (transport) => {
  let served: ServedApp;
  let logger: CapturingLogger;
  const feed = new EventEmitter();
  let slow: { started: Deferred; release: Deferred; done: Deferred };
  let streamClosed: Deferred;

  beforeAll(async () => {
    logger = captureLogger();
    served = await transport.serve((app) => {
      app.use('slow', {
        async find() {
          slow.started.resolve();
          await slow.release.promise;
          slow.done.resolve();
          return [{ late: true }];
        },
        async create(data: unknown) {
          return data;
        },
      });
      app.use('feed', {
        async find() {
          return (async function* () {
            const queue: unknown[] = [];
            let wake: (() => void) | undefined;
            const onMessage = (message: unknown): void => {
              queue.push(message);
              wake?.();
            };
            feed.on('message', onMessage);
            try {
              for (;;) {
                while (queue.length > 0) yield queue.shift();
                await new Promise<void>((resolve) => {
                  wake = resolve;
                });
              }
            } finally {
              feed.off('message', onMessage);
              streamClosed.resolve();
            }
          })();
        },
      });
    }, logger);
  });
  afterAll(() => served?.close());
  beforeEach(() => {
    slow = { started: deferred(), release: deferred(), done: deferred() };
    streamClosed = deferred();
  });

  /** Handle counts after one complete request on a connection that then closed. */
  async function baseline(): Promise<Record<string, number>> {
    const socket = rawRequest(
      served.url,
      `POST /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    );
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    return handleCounts();
  }

  it('mid-request: the late result is dropped, nothing crashes, handles return to the baseline', async () => {
    const before = await baseline();
    const socket = rawRequest(
      served.url,
      `GET /slow HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n`,
    );
    await slow.started.promise;
    socket.destroy();
    slow.release.resolve();
    await slow.done.promise;
    expect(withinBaseline(await settledHandles(before), before)).toBe(true);
    expect(serverErrors(logger)).toEqual([]);
  });

  it('mid-upload: a body cut short leaves no handle behind', async () => {
    const before = await baseline();
    const socket = rawRequest(
      served.url,
      `POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"text": "par`,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    expect(withinBaseline(await settledHandles(before), before)).toBe(true);
    // Nothing the server did wrong: no server error is logged.
    expect(serverErrors(logger)).toEqual([]);
  });

  it("mid-SSE: the iterator's return() runs (its listener is removed) and handles return to the baseline", async () => {
    const before = await baseline();
    const stream = openStream(served.url, '/feed');
    // The generator starts (and listens) when the stream is first pulled.
    await until(() => feed.listenerCount('message') > 0);
    expect(feed.listenerCount('message')).toBe(1);
    feed.emit('message', { n: 1 });
    await until(() => stream.text().includes('data: {"n":1}\n\n'));
    expect(stream.text()).toMatch(/^HTTP\/1\.1 200 .*content-type: text\/event-stream/is);
    stream.socket.destroy();
    // An async generator waiting for a message cannot be interrupted: return() is queued until its
    // pending next() settles, so live traffic goes on until the transport has called return().
    let closed = false;
    void streamClosed.promise.then(() => (closed = true));
    for (let n = 2; !closed && n < 1000; n++) {
      feed.emit('message', { n });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(feed.listenerCount('message')).toBe(0);
    expect(withinBaseline(await settledHandles(before), before)).toBe(true);
    expect(serverErrors(logger)).toEqual([]);
  });
});

describe.each(hostileTransports)(
  'a client leaving a stream backed by a database cursor ($name)',
  (transport) => {
    let database: EmbeddedServer;
    let client: MongoClient;
    let served: ServedApp;
    let cursor: FindCursor | undefined;

    beforeAll(async () => {
      database = await startEmbeddedServer();
      client = await MongoClient.connect(database.uri);
      const collection = client.db('faults').collection('rows');
      await collection.insertMany(Array.from({ length: 500 }, (_, n) => ({ n })));
      served = await transport.serve((app) => {
        app.use('rows', {
          async find() {
            cursor = collection.find({}, { batchSize: 5 }).sort({ n: 1 });
            const rows = cursor;
            return (async function* () {
              for await (const row of rows) {
                yield row.n;
                // A slow producer: the client leaves while the cursor still has batches to fetch.
                await new Promise((resolve) => setTimeout(resolve, 5));
              }
            })();
          },
        });
      }, captureLogger());
    });
    afterAll(async () => {
      await served?.close();
      await client?.close();
      await database?.stop();
    });

    async function openCursors(): Promise<number> {
      const status = await client.db('admin').command({ serverStatus: 1 });
      return (status as { metrics: { cursor: { open: { total: number } } } }).metrics.cursor.open.total;
    }

    it('closes the cursor on the database when the client disconnects', async () => {
      const stream = openStream(served.url, '/rows');
      await until(() => stream.text().includes('data: 2\n\n'));
      expect(await openCursors()).toBe(1);
      stream.socket.destroy();
      let open = await openCursors();
      for (let i = 0; i < 200 && open > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        open = await openCursors();
      }
      expect(open).toBe(0);
      // The driver's buffer may still hold documents (so `closed` can be false), but it is killed.
      expect(cursor?.killed).toBe(true);
    });
  },
);
