/**
 * The example's `messages/stream` across a database restart, over real HTTP: two API instances on
 * one embedded database with a data directory, an SSE client of B, messages created on A before and
 * after the database is stopped and started again on the same port (docs/sync.md, "Database restarts"
 * and "Following events with positions").
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';
import { startRestartable, type RestartableDatabase } from '../support/restartable.js';
import { until } from '../support/until.js';

interface Received {
  id: string;
  text: string;
}

/**
 * Reads `url`'s event stream as an `EventSource` does: each `data:` event with its `id:`, and when
 * the stream ends, a new request with `Last-Event-ID: <last id>` once `retry()` resolves (an
 * EventSource waits its retry delay); a non-200 answer ends it for good. `after` is the
 * `Last-Event-ID` of the first request, if any.
 */
function readStream(url: string, retry: () => Promise<void> = async () => undefined, after?: string) {
  const abort = new AbortController();
  const state = { events: [] as Received[], errors: [] as string[], connections: 0, failure: '' };
  void (async () => {
    while (!abort.signal.aborted) {
      if (state.connections > 0) await retry();
      const last = state.events.at(-1)?.id ?? after;
      const response = await fetch(url, {
        signal: abort.signal,
        headers: last === undefined ? {} : { 'last-event-id': last },
      }).catch(() => undefined);
      if (response?.status !== 200) {
        state.failure = `status ${response?.status ?? 'none'}: ${await response?.text().catch(() => '')}`;
        return;
      }
      state.connections++;
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (chunk.done) break;
        buffer += chunk.value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: ?(.*)$/m.exec(block)?.[1];
          if (data === undefined) continue;
          if (/^event: ?error$/m.test(block)) state.errors.push(data);
          else
            state.events.push({
              id: /^id: ?(.*)$/m.exec(block)?.[1] ?? '',
              text: (JSON.parse(data) as { text: string }).text,
            });
        }
      }
    }
  })();
  return { state, close: () => abort.abort() };
}

describe('examples/api messages/stream across a database restart', () => {
  let embedded: RestartableDatabase;
  const databases: Database[] = [];
  const running: RunningServer[] = [];
  const readers: { close(): void }[] = [];
  let users = 0;

  async function instance(timeoutMs: number): Promise<RunningServer> {
    const database = await connectDatabase(
      `${embedded.server.uri}?replicaSet=plume`,
      'stream_restart',
      timeoutMs,
    );
    databases.push(database);
    const api = await startServer({ port: 0, database, hashCost: 4 });
    running.push(api);
    return api;
  }

  async function post(api: RunningServer, path: string, body: unknown, token?: string) {
    const response = await fetch(api.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function signup(api: RunningServer, email: string): Promise<string> {
    expect((await post(api, '/users', { email, password: 'correct horse' })).status).toBe(201);
    const login = await post(api, '/authentication', { strategy: 'local', email, password: 'correct horse' });
    return login.body['accessToken'] as string;
  }

  beforeAll(async () => {
    embedded = await startRestartable('plume-stream-restart-');
  });
  afterEach(async () => {
    for (const reader of readers.splice(0)) reader.close();
    for (const api of running.splice(0)) await api.close();
    for (const database of databases.splice(0)) await database.client.close();
  });
  afterAll(async () => {
    await embedded.close();
  });

  /**
   * Instances A and B (B's driver waiting `timeoutB` ms for the database), a client of B's
   * `messages/stream` reconnecting after `retry()`, a message created on A, the database stopped and
   * started again (`whileDown` runs in between), another message created on A.
   * @returns what the client has read once it has two messages, or has failed.
   */
  async function acrossRestart(
    timeoutB: number,
    retry?: (b: Database) => Promise<void>,
    whileDown?: (state: ReturnType<typeof readStream>['state']) => Promise<void>,
  ) {
    const a = await instance(5000);
    const b = await instance(timeoutB);
    const token = await signup(a, `user${++users}@example.com`);
    const reader = readStream(`${b.url}/messages/stream`, async () => retry?.(databases[1]!));
    readers.push(reader);
    await until(() => reader.state.connections === 1);
    expect((await post(a, '/messages', { text: 'before' }, token)).status).toBe(201);
    await until(() => reader.state.events.length === 1);
    await embedded.restart(async () => whileDown?.(reader.state));
    const after = await post(a, '/messages', { text: 'after' }, token);
    expect(after.body).toMatchObject({ text: 'after' });
    await until(() => reader.state.events.length === 2 || reader.state.failure !== '');
    expect(reader.state.failure).toBe('');
    return reader.state;
  }

  it('delivers the messages created before and after a short restart on the same stream, once each, in order', async () => {
    const state = await acrossRestart(5000);
    expect(state.events.map((event) => event.text)).toEqual(['before', 'after']);
    // The driver resumed B's change stream: the client did not notice the restart.
    expect(state.connections).toBe(1);
    expect(state.errors).toEqual([]);
  });

  it('ends the stream of an outage longer than the driver waits; the client reconnecting with Last-Event-ID misses nothing', async () => {
    // B's driver gives up on the database after 300 ms, so its change stream cannot be resumed: the
    // stream ends with an `event: error` while the database is down (docs/sync.md). The client
    // reconnects once B's driver sees the database again (before that, B answers 503).
    const state = await acrossRestart(
      300,
      async (b) => {
        while ((await b.db.command({ ping: 1 }).catch(() => false)) === false);
      },
      async (reader) => until(() => reader.errors.length > 0),
    );
    expect(state.events.map((event) => event.text)).toEqual(['before', 'after']);
    expect(state.errors).toHaveLength(1);
    expect(state.connections).toBe(2);
  });

  it('answers a client connecting while the database is down 503 with a JSON error; after the restart it resumes with Last-Event-ID', async () => {
    const a = await instance(5000);
    const b = await instance(300);
    const token = await signup(a, `user${++users}@example.com`);
    const first = readStream(`${b.url}/messages/stream`);
    readers.push(first);
    await until(() => first.state.connections === 1);
    expect((await post(a, '/messages', { text: 'before' }, token)).status).toBe(201);
    await until(() => first.state.events.length === 1);
    first.close();
    const last = first.state.events[0]!.id;
    let down: { status: number; type: string | null; body: unknown } | undefined;
    await embedded.restart(async () => {
      // B's driver gives up on the database after 300 ms: plume/sync rejects the follow() with the
      // error DocDbService gives for an unreachable database (src/docdb/error-handler.ts).
      const response = await fetch(`${b.url}/messages/stream`, { headers: { 'last-event-id': last } });
      down = {
        status: response.status,
        type: response.headers.get('content-type'),
        body: await response.json(),
      };
    });
    expect(down).toEqual({
      status: 503,
      type: expect.stringMatching(/^application\/json/),
      body: {
        name: 'Unavailable',
        message: 'The database is unavailable',
        code: 503,
        className: 'unavailable',
      },
    });
    expect((await post(a, '/messages', { text: 'after' }, token)).status).toBe(201);
    const databaseB = databases[1]!;
    while ((await databaseB.db.command({ ping: 1 }).catch(() => false)) === false);
    const again = readStream(`${b.url}/messages/stream`, undefined, last);
    readers.push(again);
    await until(() => again.state.events.length === 1 || again.state.failure !== '');
    expect(again.state.failure).toBe('');
    expect(again.state.events.map((event) => event.text)).toEqual(['after']);
  });
});
