/**
 * No client-supplied `$regex` may stall the example API, which runs the embedded database on its own
 * event loop: `.*.*.*x` with `$options=i` runs in linear time (RE2), `(?=x)` is refused with 400, and a
 * concurrent simple request meanwhile answers within 200 ms (a generous bound: the backtracking engine
 * took seconds for a 300-character message).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';

describe.each(['web', 'express'] as const)('hostile $regex against examples/api (%s)', (transport) => {
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
    database = await connectDatabase('', `plume_regex_${randomBytes(4).toString('hex')}`);
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
  });

  async function timed(path: string) {
    const started = performance.now();
    const answer = await call(path);
    return { answer, ms: performance.now() - started };
  }

  /**
   * Sends a hostile request, then a simple one; returns both answers and the simple one's duration. The
   * 200 ms bound is widened by the slowest of three simple requests just before (on an idle machine a few
   * ms, but a shared machine under load can be much slower), so the check fails only on a real stall.
   */
  async function underAttack(hostilePath: string) {
    let baselineMs = 0;
    for (let i = 0; i < 3; i++) baselineMs = Math.max(baselineMs, (await timed('/messages?$limit=1')).ms);
    const hostile = call(hostilePath);
    const simple = await timed('/messages?$limit=1');
    return {
      hostile: [await hostile],
      simple: simple.answer,
      simpleMs: simple.ms,
      bound: 200 + 2 * baselineMs,
    };
  }

  it('runs `.*.*.*x` with $options=i in linear time while a concurrent request finishes in < 200 ms', async () => {
    const { hostile, simple, simpleMs, bound } = await underAttack(
      `/messages?text[$regex]=${encodeURIComponent('.*.*.*x')}&text[$options]=i`,
    );
    expect(simple.status).toBe(200);
    expect(simpleMs).toBeLessThan(bound);
    for (const answer of hostile) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toEqual([]);
    }
    const found = await call(`/messages?text[$regex]=${encodeURIComponent('.*.*.*JACK')}&text[$options]=i`);
    expect(found.body.data).toHaveLength(1); // the same engine still finds what matches
  });

  it('refuses `(?=x)` with 400 while a concurrent request finishes in < 200 ms', async () => {
    const { hostile, simple, simpleMs, bound } = await underAttack(
      `/messages?text[$regex]=${encodeURIComponent('.*.*.*(?=x)')}&text[$options]=i`,
    );
    expect(simple.status).toBe(200);
    expect(simpleMs).toBeLessThan(bound);
    for (const answer of hostile) {
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/^Invalid \$regex .*lookahead, lookbehind and atomic groups/);
    }
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
