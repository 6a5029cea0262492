/**
 * Runs the examples of docs/client.md (test/docs/client.examples.ts) against the example API over
 * real HTTP; test/docs/examples.test.ts checks that the page shows their code.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, withAuthentication } from 'plume/client';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';
import * as client from './client.examples.js';

describe('docs/client.md', () => {
  let database: Database;
  let running: RunningServer;
  let adaId: string;

  /** A `Storage` (the `localStorage` interface) in memory. */
  function storage(): Storage {
    const values = new Map<string, string>();
    return {
      get length() {
        return values.size;
      },
      clear: () => values.clear(),
      getItem: (key) => values.get(key) ?? null,
      key: (index) => [...values.keys()][index] ?? null,
      removeItem: (key) => void values.delete(key),
      setItem: (key, value) => void values.set(key, value),
    };
  }

  beforeAll(async () => {
    database = await connectDatabase('', `plume_docs_client_${randomBytes(4).toString('hex')}`);
    running = await startServer({ port: 0, database, hashCost: 4 });
    const ada = await client
      .connect(running.url)
      .service('users')
      .create({ email: 'ada@example.com', password: 'correct horse' });
    adaId = (ada as { _id: string })._id;
  });

  afterAll(async () => {
    await running?.close();
    await database?.db.dropDatabase().catch(() => undefined);
    await database?.close();
  });

  it('logs in, writes with the token, re-authenticates from storage and logs out', async () => {
    const tokens = storage();
    expect(await client.logIn(running.url, tokens)).toEqual({ _id: adaId, email: 'ada@example.com' });
    expect(tokens.getItem('plume-jwt')).toBeNull();
  });

  it('calls services: queries, get, nested routes and custom methods', async () => {
    const { page, one, theirs, stats } = await client.callServices(running.url, adaId);
    expect(page).toMatchObject({ total: 0, limit: 5, data: [] });
    expect(one).toMatchObject({ name: 'NotFound', code: 404 });
    expect(theirs).toMatchObject({ total: 1, data: [{ text: 'Sent with Authorization: Bearer <token>' }] });
    expect(stats).toEqual({ total: 1, authors: [{ userId: adaId, count: 1 }] });
  });

  it('handles errors, aborts calls and adds middleware', async () => {
    const invalid = await client.handleErrors(running.url);
    expect(invalid?.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ keyword: 'required' })]),
    );
    expect(await client.abortable(running.url)).toBe('AbortError');
    const seen = await client.withRequestIds(running.url).service('messages').find();
    expect(seen).toMatchObject({ total: 1 });
  });

  it('reads Server-Sent Events until the loop is left', async () => {
    const writer = withAuthentication(createClient(running.url));
    await writer.authenticate({ strategy: 'local', email: 'ada@example.com', password: 'correct horse' });
    const received: unknown[] = [];
    let done = false;
    const reading = client
      .readEvents(running.url, async (message) => received.push(message) < 2)
      .then(() => (done = true));
    // The stream only sees messages created after it connected: write until two have arrived.
    for (let n = 0; !done; n++) {
      await writer.service('messages').create({ text: `live ${n}` });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await reading;
    expect(received).toEqual([
      expect.objectContaining({ text: expect.stringMatching(/^live/) }),
      expect.anything(),
    ]);
  });

  it('types services from the server app', async () => {
    const { page, total } = await client.typed(running.url);
    expect(page.total).toBe(total);
    expect(total).toBeGreaterThanOrEqual(3);
  });
});
