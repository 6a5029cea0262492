/**
 * No client-supplied `$regex` may stall the example API, which runs the embedded database on its own
 * event loop: `.*.*.*x` with `$options=i` runs in linear time (RE2), `(?=x)` is refused with 400, and a
 * concurrent simple request is answered too.
 *
 * The tests read no clock. A backtracking engine (V8's, which `new RegExp` uses) tries `.*.*.*x` from
 * every start position, about n⁴/24 steps for n characters: measured on a 2-vCPU machine, 0.7 s for
 * 300 characters and 2.2 s for 400, so about 20 minutes for the 2,000-character message below. Such a
 * stall blocks the database, so neither request would answer and the test fails at its timeout; with
 * RE2 both answer. The database runs in a worker thread here, not on the API's thread as in the example,
 * so that a stall fails the test at its timeout instead of freezing the test process, timer included.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';

describe.each(['web', 'express'] as const)('hostile $regex against examples/api (%s)', (transport) => {
  let embedded: EmbeddedServer;
  let database: Database;
  let running: RunningServer;

  async function call(path: string, init: RequestInit = {}) {
    const response = await fetch(running.url + path, init);
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
  const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    embedded = await startEmbeddedServer({ worker: true });
    database = await connectDatabase(embedded.uri, `plume_regex_${randomBytes(4).toString('hex')}`);
    running = await startServer({ port: 0, transport, database, hashCost: 4 });
    const user = { email: 'mallory@example.com', password: 'correct horse' };
    expect((await call('/users', json(user))).status).toBe(201);
    const login = await call('/authentication', json({ strategy: 'local', ...user }));
    const auth = { authorization: `Bearer ${login.body.accessToken}` };
    // A 2,000-character message (the schema's maximum) with no `x`: the worst case for `.*.*.*x`.
    const long = 'All work and no play makes Jack a dull boy. '.repeat(50).slice(0, 2000);
    expect(long.length).toBe(2000);
    expect((await call('/messages', json({ text: long }, auth))).status).toBe(201);
    expect((await call('/messages', json({ text: 'short and sweet' }, auth))).status).toBe(201);
  });

  afterAll(async () => {
    await running?.close();
    await database?.db.dropDatabase().catch(() => undefined);
    await database?.close();
    await embedded?.stop();
  });

  /** Sends a hostile request and, while it runs, a simple one; returns both answers. */
  async function underAttack(hostilePath: string) {
    const [hostile, simple] = await Promise.all([call(hostilePath), call('/messages?$limit=1')]);
    return { hostile, simple };
  }

  it('runs `.*.*.*x` with $options=i in linear time and answers a concurrent request', async () => {
    const { hostile, simple } = await underAttack(
      `/messages?text[$regex]=${encodeURIComponent('.*.*.*x')}&text[$options]=i`,
    );
    expect(simple.status).toBe(200);
    expect(simple.body.data).toHaveLength(1);
    expect(hostile.status).toBe(200);
    expect(hostile.body.data).toEqual([]);
    const found = await call(`/messages?text[$regex]=${encodeURIComponent('.*.*.*JACK')}&text[$options]=i`);
    expect(found.body.data).toHaveLength(1); // the same engine still finds what matches
  });

  it('refuses `(?=x)` with 400 and answers a concurrent request', async () => {
    const { hostile, simple } = await underAttack(
      `/messages?text[$regex]=${encodeURIComponent('.*.*.*(?=x)')}&text[$options]=i`,
    );
    expect(simple.status).toBe(200);
    expect(hostile.status).toBe(400);
    expect(hostile.body.message).toMatch(/^Invalid \$regex .*lookahead, lookbehind and atomic groups/);
  });

  it('refuses a lookaround that reaches the embedded database directly (no HTTP guard) with a clear error', async () => {
    const error = await database.db
      .collection('messages')
      .findOne({ text: { $regex: '(?=x)', $options: 'i' } })
      .then(
        () => undefined,
        (e: unknown) => e as { code?: number; message?: string },
      );
    expect(error?.code).toBe(51091);
    expect(error?.message).toMatch(/linear time .*lookahead and lookbehind are not supported/);
  });
});
