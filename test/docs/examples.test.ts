/**
 * Runs the examples of the reference pages in docs/ (test/docs/*.examples.ts) so that the pages
 * cannot silently drift from the code: each example is type-checked by `npm run typecheck` and run
 * here, over real HTTP where it serves HTTP, against the embedded database where it needs one.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, ObjectId, type Db, type Document } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, ServerSentEvent, type Application, type HookContext, type Params } from 'plume';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { createHandler, toRuntimeHandler, type RuntimeListener } from 'plume/http';
import * as http from './http.examples.js';
import * as express from './express.examples.js';
import * as docdb from './docdb.examples.js';
import * as embedded from './embedded.examples.js';
import * as schema from './schema.examples.js';
import * as auth from './authentication.examples.js';
import * as syncDocs from './sync.examples.js';
import { getSync } from 'plume/sync';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

function urlOf(server: Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}

async function listen(listener: RuntimeListener): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(close(server));
  return urlOf(server);
}

describe('docs/http.md', () => {
  it('serves an app on Node.js', async () => {
    const { server } = await http.serveOnNode(0);
    closers.push(close(server));
    const response = await fetch(`${urlOf(server)}/messages`);
    expect(await response.json()).toEqual([{ text: 'Hello' }]);
  });

  it('custom middleware sets params, answers itself and adds headers', async () => {
    const app = createApp();
    app.use('whoami', { find: async (params: Params) => ({ user: params.user ?? null }) });
    app.use('admin', { find: async () => [] });
    const url = await listen(toRuntimeHandler(http.createCustomHandler(app)));
    const me = await fetch(`${url}/whoami`, { headers: { 'x-api-key': 'secret-key' } });
    expect(me.headers.get('x-powered-by')).toBe('plume');
    expect(await me.json()).toEqual({ user: { name: 'service account' } });
    const admin = await fetch(`${url}/admin`);
    expect(admin.status).toBe(503);
  });

  it('a replaced query parser gives flat queries', async () => {
    const app = createApp();
    app.use('echo', { find: async (params: Params) => params.query });
    const url = await listen(toRuntimeHandler(http.createFlatQueryHandler(app)));
    expect(await (await fetch(`${url}/echo?a[b]=1`)).json()).toEqual({ 'a[b]': '1' });
  });

  it('raises the body limit on both layers and streams other content types', async () => {
    const app = createApp();
    app.use('uploads', http.uploads);
    app.use('echo', { create: async (data: unknown) => ({ size: JSON.stringify(data).length }) });
    const server = http.createLargeBodyServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(close(server));
    const url = urlOf(server);
    const big = JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) });
    const parsed = await fetch(`${url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(parsed.status).toBe(201);
    const upload = await fetch(`${url}/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(3 * 1024 * 1024),
    });
    expect(await upload.json()).toEqual({ bytes: 3 * 1024 * 1024 });

    const small = createApp();
    small.use('echo', { create: async () => ({}) });
    const defaultUrl = await listen(toRuntimeHandler(createHandler(small)));
    const refused = await fetch(`${defaultUrl}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect(refused.status).toBe(413);
  });

  it('sends Response objects, Server-Sent Events and hook statuses', async () => {
    const app = createApp();
    app.use('files', http.files);
    app.use('clock', http.clock);
    app.use('jobs', { create: async () => ({ id: 'j1' }), update: async () => ({ ok: true }) });
    http.addJobHooks(app);
    http.registerMessages(app);
    const url = await listen(toRuntimeHandler(createHandler(app)));

    const file = await fetch(`${url}/files/a.txt`);
    expect(file.headers.get('cache-control')).toBe('max-age=60');
    expect(await file.text()).toBe('contents of a.txt');

    const events = await fetch(`${url}/clock?count=2`);
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    expect(await events.text()).toBe('data: {"tick":1}\n\ndata: {"tick":2}\n\n');

    const created = await fetch(`${url}/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/jobs/j1');
    const updated = await fetch(`${url}/jobs/j1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(updated.status).toBe(202);
    expect(updated.headers.get('x-job')).toBe('queued');

    const routed = await fetch(`${url}/users/42/messages`);
    expect(await routed.json()).toEqual([{ userId: '42', text: 'hi' }]);
    const custom = await fetch(`${url}/users/42/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-method': 'markRead' },
      body: JSON.stringify({ ids: ['a'] }),
    });
    expect(custom.status).toBe(401);
  });
  it('logs server errors and restricts origins', async () => {
    const app = createApp();
    app.use('messages', {
      find: async () => [],
      get: async () => {
        throw new Error('database password leaked');
      },
    });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = await http.createLoggingHandler(app)(new Request('http://localhost/messages/1'));
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain('password');
    expect(spy.mock.calls[0]?.[0]).toBe('request failed:');
    spy.mockRestore();

    const handler = http.createRestrictedHandler(app);
    const evil = await handler(
      new Request('http://localhost/messages', { headers: { origin: 'https://evil.test' } }),
    );
    expect(evil.status).toBe(200);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const ok = await handler(
      new Request('http://localhost/messages', { headers: { origin: 'https://app.example.com' } }),
    );
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const preflight = await handler(
      new Request('http://localhost/messages', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
  });
});

describe('docs/express.md', () => {
  it('serves the complete app', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { app, server } = await express.startExpressApp(0);
    closers.push(() => app.teardown());
    express.registerWithMiddleware(app);
    const url = urlOf(server);
    const found = await fetch(`${url}/messages`, { headers: { 'x-request-id': 'r1' } });
    expect(await found.json()).toEqual([{ text: 'Hello', requestId: 'r1' }]);
    expect((await fetch(`${url}/nothing`, { headers: { accept: 'application/json' } })).status).toBe(404);
  });

  it('runs middleware around one service, a formatter and a raised array limit', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { serverFramework, json } = await import('plume/express');
    const app = serverFramework(createApp());
    app.use(json());
    express.raiseArrayLimit(app);
    express.configureWithFormatter(app);
    express.registerWithMiddleware(app);
    app.use('echo', { find: async (params: Params) => params.query });
    const server = await app.listen(0, '127.0.0.1');
    closers.push(() => app.teardown());
    const url = urlOf(server);

    expect((await fetch(`${url}/tenant-messages`)).status).toBe(400);
    const tenant = await fetch(`${url}/tenant-messages`, { headers: { 'x-tenant': 't1' } });
    expect(tenant.headers.get('x-total')).toBe('1');
    expect(await tenant.json()).toEqual([{ tenant: 't1' }]);
    const text = await fetch(`${url}/tenant-messages`, {
      headers: { 'x-tenant': 't1', accept: 'text/plain' },
    });
    expect(text.headers.get('content-type')).toContain('text/plain');

    const ids = Array.from({ length: 25 }, (_, i) => `id[$in][]=${i}`).join('&');
    const query = (await (await fetch(`${url}/echo?${ids}`)).json()) as { id: { $in: unknown } };
    expect(Array.isArray(query.id.$in)).toBe(true);
  });

  it('keeps the default array limit of 20 and accepts a qs parser', async () => {
    const { serverFramework } = await import('plume/express');
    const ids = Array.from({ length: 21 }, (_, i) => `id[$in][]=${i}`).join('&');
    for (const raise of [undefined, express.useQsDirectly]) {
      const app = serverFramework(createApp());
      raise?.(app);
      const { rest } = await import('plume/express');
      app.configure(rest());
      app.use('echo', { find: async (params: Params) => params.query });
      const server = await app.listen(0, '127.0.0.1');
      closers.push(() => app.teardown());
      const query = (await (await fetch(`${urlOf(server)}/echo?${ids}`)).json()) as { id: { $in: unknown } };
      expect(Array.isArray(query.id.$in)).toBe(raise !== undefined);
    }
  });

  it('answers errors with HTML pages for browsers and JSON for others', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { serverFramework, rest } = await import('plume/express');
    for (const [setUp, expected] of [
      [express.useErrorPages, '<title>Page not found</title>'],
      [express.renderErrorPages, '<h1>Error 404</h1>'],
    ] as const) {
      const app = serverFramework(createApp());
      app.configure(rest());
      setUp(app);
      const server = await app.listen(0, '127.0.0.1');
      closers.push(() => app.teardown());
      const page = await fetch(`${urlOf(server)}/missing`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(404);
      expect(await page.text()).toContain(expected);
      const api = await fetch(`${urlOf(server)}/missing`);
      expect(await api.json()).toMatchObject({ name: 'NotFound', code: 404 });
    }
    // Each error reaches the logger, 404s included.
    expect(spy).toHaveBeenCalledTimes(4);
  });

  it('streams async iterators as Server-Sent Events with the default formatter', async () => {
    const { serverFramework, rest } = await import('plume/express');
    const app = serverFramework(createApp());
    app.configure(rest());
    app.use('clock', http.clock);
    const server = await app.listen(0, '127.0.0.1');
    closers.push(() => app.teardown());
    const events = await fetch(`${urlOf(server)}/clock?count=2`);
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    expect(await events.text()).toBe('data: {"tick":1}\n\ndata: {"tick":2}\n\n');
  });

  it('mounts a sub-app', async () => {
    const server = await express.mountSubApp(0);
    closers.push(close(server));
    const response = await fetch(`${urlOf(server)}/api/messages/1`);
    expect(await response.json()).toEqual({ id: '1', text: 'Hello' });
  });
});

describe('with the embedded database', () => {
  let database: EmbeddedServer;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    database = await startEmbeddedServer();
    client = await MongoClient.connect(database.uri);
  });
  afterAll(async () => {
    await client?.close();
    await database?.stop();
  });

  let app: Application;
  const fresh = () => {
    db = client.db(`docs_${new ObjectId().toHexString()}`);
    app = docdb.createExampleApp();
    return app;
  };

  describe('docs/schema.md', () => {
    it('validates, coerces and resolves messages over HTTP', async () => {
      fresh();
      app.use('users', new (await import('plume/docdb')).DocDbService({ Model: db.collection('users') }));
      schema.registerMessages(app, db);
      const user = (await app.service('users').create({ name: 'Ada' })) as Document;
      const url = await listen(toRuntimeHandler(createHandler(app)));
      const post = (body: unknown) =>
        fetch(`${url}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const created = await post({ userId: String(user._id), text: 'Hello', secret: 'x' });
      expect(created.status).toBe(400); // secret is not in the data schema
      const typed = await post({ userId: String(user._id), text: 12345 });
      expect(typed.status).toBe(400); // data is not coerced: a number is not the string '12345'
      const ok = await post({ userId: String(user._id), text: 'Hello' });
      expect(ok.status).toBe(201);
      const message = (await ok.json()) as { _id: string; createdAt: number };
      expect(typeof message.createdAt).toBe('number');
      const stored = await db.collection('messages').findOne({});
      expect(stored?.userId).toBeInstanceOf(ObjectId);

      const found = await fetch(`${url}/messages?createdAt[$gte]=0&text[$regex]=^hel&text[$options]=i`);
      expect(((await found.json()) as { total: number }).total).toBe(1);
      const refused = await fetch(`${url}/messages?text[$where]=1`);
      expect(refused.status).toBe(400);
      const body = (await refused.json()) as { message: string; errors: unknown[] };
      expect(body.message).toContain('$where');
      expect(body.errors.length).toBeGreaterThan(0);

      const withUser = (await app.service('messages').get(message._id)) as Document;
      expect(withUser.user).toMatchObject({ name: 'Ada' });
    });

    it('converts ids with an own AJV instance and with resolvers', async () => {
      const hex = new ObjectId().toHexString();
      const validate = schema.createOwnValidator();
      expect((validate({ userId: hex }) as { userId: unknown }).userId).toBeInstanceOf(ObjectId);
      expect(() => validate({ userId: 'nope' })).toThrow(/objectid|ObjectId/);
      const context = { params: { query: { userId: { $in: [hex] } } } } as unknown as HookContext;
      const resolved = await schema.idResolver.resolve({ userId: hex }, context);
      expect(resolved.userId).toBeInstanceOf(ObjectId);
      await schema.convertQueryIds(context);
      const query = context.params.query as { userId: { $in: unknown[] } };
      expect(query.userId.$in[0]).toBeInstanceOf(ObjectId);
    });
  });

  describe('docs/authentication.md', () => {
    /** Signup, login, protected calls, API key, access_token links and logout over HTTP. */
    async function walkThrough(url: string) {
      const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        fetch(`${url}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const signup = await send('POST', '/users', { email: 'ada@example.com', password: 's3cret!' });
      expect(signup.status).toBe(201);
      const user = (await signup.json()) as Record<string, unknown>;
      expect(user.password).toBeUndefined();

      expect(
        (
          await send('POST', '/authentication', {
            strategy: 'local',
            email: 'ada@example.com',
            password: 'x',
          })
        ).status,
      ).toBe(401);
      const login = await send('POST', '/authentication', {
        strategy: 'local',
        email: 'ada@example.com',
        password: 's3cret!',
      });
      expect(login.status).toBe(201);
      const { accessToken, user: loggedIn } = (await login.json()) as {
        accessToken: string;
        user: Record<string, unknown>;
      };
      expect(loggedIn.password).toBeUndefined();
      const bearer = { authorization: `Bearer ${accessToken}` };

      expect((await send('GET', '/users')).status).toBe(401);
      expect((await send('GET', '/users', undefined, bearer)).status).toBe(200);
      expect((await send('GET', `/users?access_token=${accessToken}`)).status).toBe(200);
      expect((await send('POST', '/messages', { text: 'hi' })).status).toBe(401);
      const byUser = await send('POST', '/messages', { text: 'hi' }, bearer);
      expect(((await byUser.json()) as { author: { _id: string } }).author._id).toBe(user._id);
      const byKey = await send('POST', '/messages', { text: 'report' }, { 'x-api-key': 'reporting-key' });
      expect(((await byKey.json()) as { author: unknown }).author).toEqual({ name: 'reporting' });
      expect((await send('POST', '/messages', { text: 'x' }, { 'x-api-key': 'wrong' })).status).toBe(401);
      expect((await send('DELETE', `/users/${String(user._id)}`, undefined, bearer)).status).toBe(405);
      expect((await send('DELETE', '/authentication', undefined, bearer)).status).toBe(200);
      return bearer;
    }

    it('works on the Web Standard handler', async () => {
      fresh();
      auth.configureAuthentication(app, db);
      auth.registerMessages(app);
      const url = await listen(toRuntimeHandler(auth.createAuthenticatedHandler(app)));
      await app.setup();
      await walkThrough(url);
    });

    it('works on Express, with a protected route', async () => {
      fresh();
      const expressApp = auth.createExpressApp(db);
      const server = await expressApp.listen(0, '127.0.0.1');
      closers.push(() => expressApp.teardown());
      const bearer = await walkThrough(urlOf(server));
      expect((await fetch(`${urlOf(server)}/me`, { headers: { accept: 'application/json' } })).status).toBe(
        401,
      );
      const me = await fetch(`${urlOf(server)}/me`, { headers: bearer });
      expect(((await me.json()) as { user: { email: string } }).user.email).toBe('ada@example.com');
    });
  });

  describe('docs/docdb.md', () => {
    it('creates users with indexes, queries and dates', async () => {
      fresh();
      docdb.registerUsers(app, db);
      const ada = (await docdb.createUser(app)) as Document;
      expect(typeof ada.createdAt).toBe('number');
      await expect(docdb.createUser(app)).rejects.toMatchObject({
        code: 409,
        message: "Duplicate value for field 'email'",
      });
      await app
        .service('users')
        .create({ name: 'Bob', email: 'b@x.io', age: 70, active: true, createdAt: 1 });
      const page = (await docdb.findAdults(app)) as { total: number; data: Document[] };
      expect(page.data.map((u) => u.name)).toEqual(['Ada']);
      expect(Object.keys(page.data[0] ?? {}).sort()).toEqual(['_id', 'email', 'name']);
      // String values from a URL, converted by the `converter` option
      const over = (await app.service('users').find({
        query: { age: { $gt: '40' }, active: 'true' },
        provider: 'rest',
      })) as { data: Document[] };
      expect(over.data.map((u) => u.name)).toEqual(['Bob']);
      const text = (await app.service('users').find({
        query: { $text: { $search: 'ada' } },
      })) as { data: Document[] };
      expect(text.data.map((u) => u.name)).toEqual(['Ada']);
      await app.service('users').patch(String(ada._id), { bio: 'writes programs' });
      const search = await docdb.searchUsers(app, 'program');
      expect((search.withText as Document[]).map((u) => u.name)).toEqual(['Ada']);
      expect((search.withStage as Document[]).map((u) => u.name)).toEqual(['Ada']);
      await expect(app.service('users').find({ query: { name: { $where: 'x' } } })).rejects.toMatchObject({
        code: 400,
      });
      await expect(app.service('users').get('not-an-id')).rejects.toMatchObject({ code: 400 });
    });

    it('runs pipelines, $framework and collation', async () => {
      fresh();
      docdb.registerUsers(app, db);
      docdb.registerMessages(app, db);
      const ada = (await docdb.createUser(app)) as Document;
      const bob = (await app
        .service('users')
        .create({ name: 'bob', email: 'b@x.io', active: false, password: 'hash' })) as Document;
      await app.service('messages').create({ text: 'one', userId: ada._id, createdAt: 1 });
      await app.service('messages').create({ text: 'two', userId: bob._id, createdAt: 2 });
      const withAuthor = await docdb.findMessagesWithAuthor(app);
      expect(withAuthor.total).toBe(2);
      expect(withAuthor.data.map((m) => m.user.name)).toEqual(['bob', 'Ada']);
      expect(withAuthor.data[0]?.user.password).toBeUndefined();
      const first = withAuthor.data[0] as Document;
      await docdb.editMessage(app, String(first._id));
      expect(await app.service('messages').get(String(first._id))).toMatchObject({
        text: 'edited',
        edits: 1,
        tags: ['new'],
      });
      const active = (await docdb.findMessagesOfActiveAuthors(app)) as Document[];
      expect(active).toEqual([{ _id: expect.anything(), text: 'one', user: { name: 'Ada' } }]);
      await app.service('users').create({ name: 'Carl', email: 'c@x.io' });
      const names = ((await docdb.findCaseInsensitive(app)) as Document[]).map((u) => u.name);
      expect(names).toEqual(['Carl']);
    });

    it('commits a transaction, uses a custom id and raw access', async () => {
      fresh();
      app.use(
        'accounts',
        new (await import('plume/docdb')).DocDbService({ Model: db.collection('accounts') }),
      );
      const a = (await app.service('accounts').create({ balance: 100 })) as Document;
      const b = (await app.service('accounts').create({ balance: 0 })) as Document;
      await docdb.transfer(app, client, String(a._id), String(b._id));
      expect(((await app.service('accounts').get(String(b._id))) as Document).balance).toBe(10);

      expect(await docdb.registerPages(app, db)).toMatchObject({ slug: 'home', title: 'Home' });

      docdb.registerUsers(app, db);
      await docdb.createUser(app);
      const raw = await docdb.rawAccess(app);
      expect(raw.stages).toEqual([{ $match: { active: true } }, { $limit: 5 }]);
      expect(raw.first).toMatchObject({ name: 'Ada' });
      expect(raw.count).toBe(1);
    });
  });
});

describe('docs/embedded.md', () => {
  it('connects to MONGODB_URL or an embedded server, and starts test databases', async () => {
    vi.stubEnv('DB_NAME', `docs_${new ObjectId().toHexString()}`);
    const database = await embedded.connectDatabase();
    vi.unstubAllEnvs();
    closers.push(() => database.close());
    await database.db.collection('x').insertOne({ a: 1 });
    expect(await database.db.collection('x').countDocuments()).toBe(1);
    await database.db.dropDatabase();

    const test = await embedded.startTestDatabase();
    closers.push(() => test.stop());
    const articles = test.db.collection('articles');
    await articles.insertMany([
      { title: 'Running plume', body: 'How to run an app' },
      { title: 'Cooking', body: 'Nothing about running here' },
      { title: 'Gardening', body: 'Plants' },
    ]);
    const { byText, byStage } = await embedded.searchArticles(articles, 'running');
    expect(byText.map((a) => a.title)).toEqual(['Running plume', 'Cooking']);
    expect(byStage.map((a) => a.title)).toEqual(['Running plume', 'Cooking']);

    const messages = test.db.collection('messages');
    const next = embedded.nextInsert(messages);
    let inserted = 0;
    const writer = setInterval(() => void messages.insertOne({ n: ++inserted }), 50);
    const change = await next.finally(() => clearInterval(writer));
    expect(change).toMatchObject({ operationType: 'insert', fullDocument: { n: expect.any(Number) } });

    const sessions = test.db.collection('sessions');
    await embedded.createSessionsCollection(sessions);
    const [index] = (await sessions.listIndexes().toArray()).filter((i) => i.name === 'expiresAt_1');
    expect(index?.expireAfterSeconds).toBe(0);
  });

  it('keeps data in dbPath across restarts, in a worker thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plume-docs-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    for (const expected of [0, 1]) {
      const server = await embedded.startPersistentServer(dir, 0);
      const client = await MongoClient.connect(server.uri);
      const notes = client.db('app').collection('notes');
      expect(await notes.countDocuments()).toBe(expected);
      if (expected === 0) await notes.insertOne({ text: 'kept' });
      await client.close();
      await server.stop();
    }
    const report = embedded.repairData(dir);
    expect(report.documents).toBe(1);
    expect(report.files.every((f) => f.skipped.length === 0)).toBe(true);
  });
});

describe('docs/sync.md', () => {
  it('delivers a message created on one instance to another, with a position to resume after', async () => {
    const server = await startEmbeddedServer();
    const client = await MongoClient.connect(server.uri);
    closers.push(async () => {
      await client.close();
      await server.stop();
    });
    const db = client.db('docs_sync');
    const [a, b] = [createApp(), createApp()];
    for (const app of [a, b]) {
      app.use('messages', {
        async create(data: Document) {
          return data;
        },
      });
      syncDocs.configureSync(app, db);
      closers.push(async () => app.teardown());
    }
    const received: unknown[] = [];
    b.service('messages').on('created', (data: unknown) => received.push(data));
    const stream = syncDocs.createdMessages(b);
    // The stream opens on the first next(): create until it has seen one.
    const writer = setInterval(() => void a.service('messages').create({ text: 'hi' }), 50);
    const event = (await stream.next().finally(() => clearInterval(writer))).value as ServerSentEvent;
    expect(event.data).toEqual({ text: 'hi' });
    expect(event.id).toEqual(expect.any(String));
    await stream.return(undefined);
    // B's own feed (for service events) opens in the background: once it is ready, events reach it.
    await getSync(b)!.ready;
    await a.service('messages').create({ text: 'hi' });
    await vi.waitFor(() => expect(received).toContainEqual({ text: 'hi' }), { timeout: 5000 });
  });
});

/**
 * The pages' TypeScript snippets must be the code of the examples files: every line of a ```ts block
 * (imports and comment-only lines aside) must appear in test/docs/<page>.examples.ts, compared after
 * dropping what differs between a snippet and a function body (`export`, `const x =`, `return`,
 * `await`, trailing comments, `;`/`,`, and the port `3030` written as `port`). Imports are checked by
 * loading the named exports.
 */
describe('the snippets of docs/*.md', () => {
  const pages = [
    'http',
    'express',
    'docdb',
    'embedded',
    'schema',
    'authentication',
    'migrating-from-feathers',
    'openapi',
    'client',
    'sync',
  ];
  const root = new URL('../../', import.meta.url);
  const normalize = (line: string): string =>
    line
      .replace(/\s\/\/.*$/, '')
      .trim()
      .replace(/^export /, '')
      .replace(/^(const|let) [\w{}, ]+ = /, '')
      .replace(/^return /, '')
      .replace(/^await /, '')
      .replace(/\b3030\b/g, 'port')
      .replace(/[;,]$/, '');
  const snippets = (page: string): string[] => {
    const markdown = readFileSync(new URL(`docs/${page}.md`, root), 'utf8');
    return [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  };

  it.each(pages)('docs/%s.md shows code from its examples file', (page) => {
    const examples = readFileSync(new URL(`test/docs/${page}.examples.ts`, root), 'utf8');
    const known = new Set(examples.split('\n').map(normalize));
    const missing = snippets(page)
      .flatMap((snippet) => snippet.split('\n'))
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('import') && !line.startsWith('//'))
      .filter((line) => !known.has(normalize(line)));
    expect(missing).toEqual([]);
  });

  it.each(pages)('docs/%s.md imports names that exist', async (page) => {
    const missing: string[] = [];
    for (const snippet of snippets(page)) {
      for (const [, names, from] of snippet.matchAll(/^import \{([^}]*)\} from '([^']+)';$/gm)) {
        const module = (await import(from!)) as Record<string, unknown>;
        for (const part of names!.split(',')) {
          const name = part.trim().split(' as ')[0]!.trim();
          if (name !== '' && !name.startsWith('type ') && !(name in module))
            missing.push(`${name} from ${from}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
