/**
 * The FeathersJS 5 chat guide app (test/migration/chat/), ported with the renames of
 * docs/migrating-from-feathers.md only, driven over real HTTP on the embedded database. The expected
 * answers are what FeathersJS 5 documents (REST status codes, error JSON, pagination, the
 * authentication response, hook order, events).
 */
import type { AddressInfo } from 'node:net';
import { createClient, memoryStorage, withAuthentication } from 'plume/client';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatApp, hookLog } from './chat/app.js';
import type { Application } from './chat/declarations.js';

let database: EmbeddedServer;
let app: Application;
let url: string;

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url + path, {
    method,
    headers: {
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function signup(email: string) {
  const created = await call('POST', '/users', { email, password: 'supersecret' });
  const login = await call('POST', '/authentication', { strategy: 'local', email, password: 'supersecret' });
  return { created, login, token: login.body?.accessToken as string, id: created.body?._id as string };
}

beforeAll(async () => {
  database = await startEmbeddedServer();
  const mongodb = new URL(database.uri);
  mongodb.pathname = '/feathers-chat';
  app = createChatApp({ mongodb: mongodb.href, secret: 'a chat secret of at least thirty-two characters' });
  const server = await app.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.teardown();
  await database?.stop();
});

describe('the FeathersJS 5 chat app after the renames', () => {
  it('ran the app setup hook around the services setup when it started listening', () => {
    expect(hookLog).toContain('setup');
  });

  it('creates users with a hashed password that never reaches a client (201)', async () => {
    const { created } = await signup('ada@example.com');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      email: 'ada@example.com',
      avatar: expect.stringContaining('gravatar'),
    });
    const stored = await app.service('users').find({ paginate: false, query: { email: 'ada@example.com' } });
    expect((stored as { password: string }[])[0]?.password).toMatch(/^\$2[ab]\$04\$/);
  });

  it('logs in with { accessToken, authentication: { strategy, payload }, user }', async () => {
    const { login, id } = await signup('grace@example.com');
    expect(login.status).toBe(201);
    expect(login.body).toEqual({
      accessToken: expect.any(String),
      authentication: {
        strategy: 'local',
        payload: expect.objectContaining({ sub: id, aud: 'https://yourdomain.com', jti: expect.any(String) }),
      },
      user: { _id: id, email: 'grace@example.com', avatar: expect.any(String) },
    });
    const jwt = await call('POST', '/authentication', {
      strategy: 'jwt',
      accessToken: login.body.accessToken,
    });
    expect(jwt.status).toBe(201);
    expect(jwt.body).toMatchObject({
      accessToken: login.body.accessToken,
      authentication: { strategy: 'jwt' },
    });
    expect(jwt.body.user).toEqual(login.body.user);
  });

  it('answers 401 NotAuthenticated JSON without a token and for a wrong password', async () => {
    const missing = await call('GET', '/messages');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      name: 'NotAuthenticated',
      message: 'Not authenticated',
      code: 401,
      className: 'not-authenticated',
    });
    const wrong = await call('POST', '/authentication', {
      strategy: 'local',
      email: 'ada@example.com',
      password: 'not it',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login', code: 401 });
  });

  it('a user only finds themselves (resolveQuery from params.user)', async () => {
    const { token, id } = await signup('linus@example.com');
    const found = await call('GET', '/users', undefined, bearer(token));
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      total: 1,
      limit: 10,
      skip: 0,
      data: [{ _id: id, email: 'linus@example.com', avatar: expect.any(String) }],
    });
  });
});

describe('messages of the chat app', () => {
  let alice: { token: string; id: string };
  let bob: { token: string; id: string };
  const created: { _id: string }[] = [];

  beforeAll(async () => {
    alice = await signup('alice@example.com');
    bob = await signup('bob@example.com');
    for (const [who, text] of [
      [alice, 'Hello'],
      [bob, 'Hi Alice'],
      [alice, 'How are you?'],
    ] as const) {
      const response = await call('POST', '/messages', { text }, bearer(who.token));
      expect(response.status).toBe(201);
      created.push(response.body);
    }
  });

  it('creates a message with userId and createdAt from resolveData, and the user from the virtual resolver', () => {
    expect(created[0]).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      text: 'Hello',
      userId: alice.id,
      createdAt: expect.any(Number),
      user: { _id: alice.id, email: 'alice@example.com', avatar: expect.any(String) },
    });
  });

  it('pages, sorts, limits and selects as the query syntax says', async () => {
    const page = await call(
      'GET',
      '/messages?$sort[createdAt]=-1&$limit=2&$select[]=text&$select[]=userId',
      undefined,
      bearer(bob.token),
    );
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.limit).toBe(2);
    expect(page.body.skip).toBe(0);
    expect(page.body.data.map((message: { text: string }) => message.text)).toEqual([
      'How are you?',
      'Hi Alice',
    ]);
    // $select keeps the id field; the virtual `user` is resolved from userId.
    expect(Object.keys(page.body.data[0]).sort()).toEqual(['_id', 'text', 'user', 'userId']);
    const skipped = await call('GET', '/messages?$sort[createdAt]=1&$skip=2', undefined, bearer(bob.token));
    expect(skipped.body.data.map((message: { text: string }) => message.text)).toEqual(['How are you?']);
    const byUser = await call('GET', `/messages?userId=${alice.id}`, undefined, bearer(bob.token));
    expect(byUser.body.total).toBe(2);
  });

  it('refuses a query the schema does not allow with 400 BadRequest JSON', async () => {
    const invalid = await call('GET', '/messages?secret=1', undefined, bearer(bob.token));
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ name: 'BadRequest', code: 400, className: 'bad-request' });
    const data = await call('POST', '/messages', { text: 5 }, bearer(bob.token));
    expect(data.status).toBe(400);
    expect(data.body).toMatchObject({ name: 'BadRequest', code: 400 });
  });

  it('a user can only patch their own messages (404 for others)', async () => {
    const others = await call('PATCH', `/messages/${created[0]!._id}`, { text: 'hacked' }, bearer(bob.token));
    expect(others.status).toBe(404);
    expect(others.body).toMatchObject({ name: 'NotFound', code: 404 });
    const own = await call('PATCH', `/messages/${created[0]!._id}`, { text: 'Hello!' }, bearer(alice.token));
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ text: 'Hello!', userId: alice.id });
  });

  it('calls the custom method with X-Service-Method', async () => {
    const ids = [created[0]!._id, created[2]!._id];
    const response = await call(
      'POST',
      '/messages',
      { ids },
      { ...bearer(alice.token), 'x-service-method': 'markRead' },
    );
    expect(response.status).toBe(200);
    expect(response.body.map((message: { read: boolean }) => message.read)).toEqual([true, true]);
    const read = await call('GET', '/messages?read=true', undefined, bearer(alice.token));
    expect(read.body.total).toBe(2);
  });

  it('answers 405 for a method the service does not expose and 404 for unknown paths', async () => {
    const update = await call('PUT', `/messages/${created[1]!._id}`, { text: 'x' }, bearer(bob.token));
    expect(update.status).toBe(405);
    expect(update.body).toMatchObject({ name: 'MethodNotAllowed', code: 405 });
    const unknown = await call('GET', '/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ name: 'NotFound', code: 404 });
  });

  it('emits created to app.service(...).on listeners, and runs app hooks around service hooks', async () => {
    const events: unknown[] = [];
    app.service('messages').on('created', (message) => events.push(message));
    hookLog.length = 0;
    const response = await call('POST', '/messages', { text: 'event' }, bearer(bob.token));
    expect(response.status).toBe(201);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ text: 'event' });
    // The virtual `user` resolver's internal users.get calls run the app hooks too.
    expect(hookLog.filter((entry) => entry.includes('messages'))).toEqual([
      'app before messages.create',
      'app after messages.create',
    ]);
    hookLog.length = 0;
    await call('GET', '/messages/000000000000000000000000', undefined, bearer(bob.token));
    expect(hookLog.filter((entry) => entry.includes('messages'))).toEqual([
      'app before messages.get',
      'app error messages.get',
      'logError messages.get',
    ]);
  });

  it('removes several messages at once with multi: [remove], the internal way', async () => {
    const removed = await app.service('messages').remove(null, { query: { userId: bob.id } });
    expect(removed).toHaveLength(2);
  });

  it('clamps $limit to paginate.max, and takes $or and $in', async () => {
    const all = await call('GET', '/messages?$limit=1000', undefined, bearer(bob.token));
    expect(all.body.limit).toBe(50);
    const either = await call(
      'GET',
      `/messages?$or[0][text]=Hi%20Alice&$or[1][text]=How%20are%20you%3F&$sort[createdAt]=1`,
      undefined,
      bearer(bob.token),
    );
    expect(either.status).toBe(200);
    expect(either.body.data.map((message: { text: string }) => message.text)).toEqual(['How are you?']);
    const within = await call(
      'GET',
      `/messages?_id[$in][]=${created[0]!._id}&_id[$in][]=${created[2]!._id}`,
      undefined,
      bearer(bob.token),
    );
    expect(within.body.total).toBe(2);
  });

  it('logs out with DELETE /authentication and the token', async () => {
    const { token } = await signup('carol@example.com');
    const logout = await call('DELETE', '/authentication', undefined, bearer(token));
    expect(logout.status).toBe(200);
    expect(logout.body).toMatchObject({ accessToken: token, authentication: { strategy: 'jwt' } });
  });
});

describe('the chat app through plume/client (FeathersJS: rest-client + authentication-client)', () => {
  it('logs in, creates and finds messages, and logs out', async () => {
    await signup('dora@example.com');
    const client = withAuthentication(createClient<Application>(url), { storage: memoryStorage() });
    const login = await client.authenticate({
      strategy: 'local',
      email: 'dora@example.com',
      password: 'supersecret',
    });
    expect(login.user).toMatchObject({ email: 'dora@example.com' });
    const message = await client.service('messages').create({ text: 'From the client' });
    expect(message).toMatchObject({ text: 'From the client', user: { email: 'dora@example.com' } });
    expect(message.user).not.toHaveProperty('password');
    const page = await client.service('messages').find({ query: { $limit: 1, $sort: { createdAt: -1 } } });
    expect(page).toMatchObject({ limit: 1, data: [{ text: 'From the client' }] });
    await client.logout();
    await expect(client.service('messages').find()).rejects.toMatchObject({
      name: 'NotAuthenticated',
      code: 401,
    });
  });
});
