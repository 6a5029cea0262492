import { randomBytes } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';

// The example API as the README drives it, over real HTTP, on both transports.
const API_KEY = 'example-test-key';
const ALLOWED_ORIGIN = 'https://app.example.com';

// '' starts the embedded database; MONGODB_URL, when set, runs everything against MongoDB as well.
const databases = ['', ...(process.env.MONGODB_URL ? [process.env.MONGODB_URL] : [])];
const cases = databases.flatMap((url) =>
  (['web', 'express'] as const).map((transport) => ({ url, transport })),
);

describe.each(cases)('examples/api on the $transport transport (database: $url)', ({ url, transport }) => {
  let database: Database;
  let running: RunningServer;

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(running.url + path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function signup(email: string): Promise<{ id: string; token: string }> {
    const created = await call('POST', '/users', { email, password: 'correct horse', name: email });
    expect(created.status).toBe(201);
    const login = await call('POST', '/authentication', {
      strategy: 'local',
      email,
      password: 'correct horse',
    });
    expect(login.status).toBe(201);
    return { id: created.body._id, token: login.body.accessToken };
  }

  let alice: { id: string; token: string; messageId: string };
  let bob: { id: string; token: string };

  beforeAll(async () => {
    database = await connectDatabase(url, `plume_example_${randomBytes(4).toString('hex')}`);
    running = await startServer({
      port: 0,
      transport,
      database,
      hashCost: 4,
      apiKeys: [API_KEY],
      corsOrigins: [ALLOWED_ORIGIN],
    });
    alice = { ...(await signup('alice@example.com')), messageId: '' };
    bob = await signup('bob@example.com');
    for (const [who, text] of [
      [alice, 'Hello world'],
      [bob, 'hello plume'],
      [alice, 'Bonjour'],
      [bob, 'apple pie'],
    ] as const) {
      const created = await call('POST', '/messages', { text }, bearer(who.token));
      expect(created.status).toBe(201);
      if (text === 'Hello world') alice.messageId = created.body._id;
    }
  });

  afterAll(async () => {
    await running?.close();
    await database?.db.dropDatabase().catch(() => undefined);
    await database?.close();
  });

  describe('CORS (CORS_ORIGINS)', () => {
    const preflight = (origin: string) =>
      fetch(`${running.url}/messages`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });

    it('a preflight from an allowed origin, or the API’s own, is allowed', async () => {
      for (const origin of [ALLOWED_ORIGIN, new URL(running.url).origin]) {
        const response = await preflight(origin);
        expect(response.status).toBe(204);
        expect(response.headers.get('access-control-allow-origin')).toBe(origin);
        expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      }
    });

    it('a preflight or request from an unknown origin gets no Access-Control-Allow-Origin', async () => {
      const response = await preflight('https://evil.example');
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      const read = await fetch(`${running.url}/messages`, { headers: { origin: 'https://evil.example' } });
      expect(read.headers.get('access-control-allow-origin')).toBeNull();
      const allowed = await fetch(`${running.url}/messages`, { headers: { origin: ALLOWED_ORIGIN } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    });
  });

  describe('users and authentication', () => {
    it('never returns the password, and a second signup with the same email is 409 naming the field', async () => {
      const created = await call('POST', '/users', { email: 'Carol@Example.com', password: 'long enough' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ _id: expect.any(String), email: 'carol@example.com' });
      const again = await call('POST', '/users', { email: 'carol@example.com', password: 'long enough' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ name: 'Conflict', data: { fields: ['email'] } });
    });

    it('logs in with email and password, and a wrong password or unknown user give the same 401', async () => {
      const login = await call('POST', '/authentication', {
        strategy: 'local',
        email: 'alice@example.com',
        password: 'correct horse',
      });
      expect(login.body.user).toEqual({
        _id: alice.id,
        email: 'alice@example.com',
        name: 'alice@example.com',
      });
      const wrong = await call('POST', '/authentication', {
        strategy: 'local',
        email: 'alice@example.com',
        password: 'wrong horse!',
      });
      const unknown = await call('POST', '/authentication', {
        strategy: 'local',
        email: 'nobody@example.com',
        password: 'correct horse',
      });
      expect([wrong.status, unknown.status]).toEqual([401, 401]);
      expect(wrong.body.message).toBe(unknown.body.message);
    });

    it('limits failed logins per account: the 11th answers 429 with Retry-After, even with the right password', async () => {
      const login = (password: string) =>
        call('POST', '/authentication', { strategy: 'local', email: 'dave@example.com', password });
      expect(
        (await call('POST', '/users', { email: 'dave@example.com', password: 'right one' })).status,
      ).toBe(201);
      for (let i = 0; i < 10; i++) expect((await login(`wrong ${i}`)).status).toBe(401);
      const refused = await login('right one');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({
        name: 'TooManyRequests',
        data: { retryAfter: expect.any(Number) },
      });
    });

    it('reading users needs a token or an API key, and never shows password hashes', async () => {
      expect((await call('GET', '/users')).status).toBe(401);
      expect((await call('GET', '/users', undefined, { 'x-api-key': 'wrong' })).status).toBe(401);
      const withToken = await call('GET', '/users?email=bob@example.com', undefined, bearer(alice.token));
      expect(withToken.body.data).toEqual([
        { _id: bob.id, email: 'bob@example.com', name: 'bob@example.com' },
      ]);
      const withKey = await call('GET', `/users/${alice.id}`, undefined, { 'x-api-key': API_KEY });
      expect(withKey.status).toBe(200);
      expect(withKey.body).not.toHaveProperty('password');
      expect((await call('GET', '/users?password=x', undefined, bearer(alice.token))).status).toBe(400);
    });

    it('users change only their own account', async () => {
      const other = await call('PATCH', `/users/${bob.id}`, { name: 'Bobby' }, bearer(alice.token));
      expect(other.status).toBe(403);
      const own = await call('PATCH', `/users/${alice.id}`, { name: 'Alice' }, bearer(alice.token));
      expect(own.status).toBe(200);
      expect(own.body).toEqual({ _id: alice.id, email: 'alice@example.com', name: 'Alice' });
    });

    it('re-authenticates with the JWT strategy and logs out', async () => {
      const again = await call('POST', '/authentication', { strategy: 'jwt', accessToken: alice.token });
      expect(again.status).toBe(201);
      expect(again.body.accessToken).toBe(alice.token);
      const logout = await call('DELETE', '/authentication', undefined, bearer(alice.token));
      expect(logout.status).toBe(200);
    });
  });

  describe('messages', () => {
    it('creating needs a user token; author and time come from the server', async () => {
      expect((await call('POST', '/messages', { text: 'anonymous' })).status).toBe(401);
      expect((await call('POST', '/messages', { text: 'k' }, { 'x-api-key': API_KEY })).status).toBe(401);
      const before = Date.now();
      const created = await call(
        'POST',
        '/messages',
        { text: 'mine', userId: bob.id, createdAt: 1 },
        bearer(alice.token),
      );
      expect(created.status).toBe(400); // only `text` may be sent
      const ok = await call('POST', '/messages', { text: 'mine' }, bearer(alice.token));
      expect(ok.status).toBe(201);
      expect(ok.body.userId).toBe(alice.id);
      expect(ok.body.createdAt).toBeGreaterThanOrEqual(before);
      expect((await call('GET', `/messages/${ok.body._id}`)).body).toEqual(ok.body);
      expect((await call('DELETE', `/messages/${ok.body._id}`, undefined, bearer(alice.token))).status).toBe(
        200,
      );
    });

    it('stores data with the types the client sent: a number, null or true for a string is a 400', async () => {
      // One coercing AJV for data and queries stored {"text":12345} as "12345" (and a number 1 for true).
      for (const text of [12345, null, true, ['a']]) {
        for (const [method, path] of [
          ['POST', '/messages'],
          ['PATCH', `/messages/${alice.messageId}`],
          ['PUT', `/messages/${alice.messageId}`],
        ] as const) {
          const answer = await call(method, path, { text }, bearer(alice.token));
          expect(answer.status, `${method} ${JSON.stringify(text)}`).toBe(400);
          expect(answer.body.message).toBe('Invalid data: /text must be string');
        }
      }
      const signup = await call('POST', '/users', { email: 'typed@example.com', password: 12345678 });
      expect(signup.status).toBe(400);
      expect(signup.body.message).toBe('Invalid data: /password must be string');
      expect((await call('GET', `/messages/${alice.messageId}`)).body.text).toBe('Hello world');
      expect((await call('GET', '/messages?text=12345')).body.total).toBe(0);
    });

    it('finds with $sort, $limit, $skip, $select and a case-insensitive $regex', async () => {
      const page = await call('GET', '/messages?$sort[text]=1&$limit=2&$skip=1&$select[]=text');
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ total: 4, limit: 2, skip: 1 });
      // Binary order puts capitals first; a collation sorts as people do.
      expect(page.body.data.map((m: { text: string }) => m.text)).toEqual(['Hello world', 'apple pie']);
      const collated = await call('GET', '/messages?$sort[text]=1&$limit=2&$skip=1&ignoreCase=true');
      expect(collated.body.data.map((m: { text: string }) => m.text)).toEqual(['Bonjour', 'hello plume']);
      expect(Object.keys(page.body.data[0]).sort()).toEqual(['_id', 'text']);
      const regex = await call('GET', '/messages?text[$regex]=^hello&text[$options]=i&$sort[text]=1');
      expect(regex.body.data.map((m: { text: string }) => m.text)).toEqual(['Hello world', 'hello plume']);
    });

    it('pages hold 10 by default and at most 50', async () => {
      expect((await call('GET', '/messages')).body.limit).toBe(10);
      expect((await call('GET', '/messages?$limit=500')).body.limit).toBe(50);
    });

    it('compares numbers from the URL as numbers', async () => {
      const all = await call('GET', '/messages?createdAt[$gt]=0');
      expect(all.body.total).toBe(4);
      expect((await call('GET', `/messages?createdAt[$gt]=${Date.now() + 60_000}`)).body.total).toBe(0);
    });

    it('reads numbers in the URL only in decimal digits: 0x10, 1e1 or a space is a 400 naming the field', async () => {
      // AJV's coerceTypes alone read all of these with Number(): ?$limit=0x10 was a limit of 16.
      for (const [query, field] of [
        ['$limit=0x10', '/$limit'],
        ['$skip=1e1', '/$skip'],
        ['$limit=%205%20', '/$limit'],
        ['createdAt[$gt]=0x0', '/createdAt/$gt'],
        ['createdAt[$in][]=1e3', '/createdAt/$in/0'],
        ['$or[0][createdAt]=Infinity', '/$or/0/createdAt'],
      ] as const) {
        const answer = await call('GET', `/messages?${query}`);
        expect(answer.status, query).toBe(400);
        expect(answer.body.message, query).toMatch(
          `Invalid query: ${field} must be a number in decimal digits`,
        );
      }
      // Decimal but beyond a double: compared as Infinity (or a $skip of 'null') before.
      const huge = await call('GET', `/messages?createdAt[$lt]=1${'0'.repeat(400)}`);
      expect(huge.status).toBe(400);
      expect(huge.body.message).toMatch(
        /^Invalid query: \/createdAt\/\$lt must be a number small enough to store/,
      );
      expect((await call('GET', '/messages?$limit=2&$skip=01')).body).toMatchObject({ limit: 2, skip: 1 });
    });

    it('reads integers in the URL only when a number holds them exactly: 2^53 + 1 is a 400 naming the field', async () => {
      // A double holds every integer up to 2^53; 9007199254740993 read as 9007199254740992 before.
      for (const [query, field] of [
        ['createdAt[$gt]=9007199254740993', '/createdAt/$gt'],
        ['createdAt[$in][]=1&createdAt[$in][]=9007199254740995', '/createdAt/$in/1'],
        ['$limit=9007199254740993', '/$limit'],
        ['$skip=100000000000000000001', '/$skip'],
      ] as const) {
        const answer = await call('GET', `/messages?${query}`);
        expect(answer.status, query).toBe(400);
        expect(answer.body.message, query).toMatch(
          new RegExp(
            `^Invalid query: ${field.replaceAll('$', '\\$')} must be an integer a number holds exactly \\(it would be -?\\d+\\), not '`,
          ),
        );
      }
      expect((await call('GET', '/messages?createdAt[$lt]=9007199254740992')).body.total).toBe(4);
      expect((await call('GET', '/messages?createdAt[$gt]=0&$skip=1.0')).body).toMatchObject({
        total: 4,
        skip: 1,
      });
    });

    it('refuses operators and fields outside the query schema with 400', async () => {
      for (const query of ['$where=1', 'text[$where]=1', 'secret=1', '$limit=abc', 'text[$options]=zz']) {
        const answer = await call('GET', `/messages?${query}`);
        expect(answer.status, query).toBe(400);
        expect(answer.body.name).toBe('BadRequest');
      }
    });

    it('include=user adds the author through $lookup, without the password', async () => {
      const answer = await call('GET', '/messages?include=user&$sort[createdAt]=1&$limit=1');
      expect(answer.body.data[0].user).toEqual({ _id: alice.id, email: 'alice@example.com', name: 'Alice' });
      const one = await call('GET', `/messages/${answer.body.data[0]._id}?include=user`);
      expect(one.body.user._id).toBe(alice.id);
      expect(one.body.user).not.toHaveProperty('password');
      expect((await call('GET', '/messages?include=password')).status).toBe(400);
    });

    it('ignoreCase=true matches text with a case-insensitive collation', async () => {
      expect((await call('GET', '/messages?text=HELLO%20WORLD')).body.total).toBe(0);
      const found = await call('GET', '/messages?text=HELLO%20WORLD&ignoreCase=true');
      expect(found.body.data.map((m: { text: string }) => m.text)).toEqual(['Hello world']);
    });

    it('update replaces the text and keeps the author and time; others cannot touch it', async () => {
      const created = await call('POST', '/messages', { text: 'draft' }, bearer(bob.token));
      const id = created.body._id;
      expect((await call('PUT', `/messages/${id}`, { text: 'x' }, bearer(alice.token))).status).toBe(404);
      expect((await call('PATCH', `/messages/${id}`, { text: 'x' }, bearer(alice.token))).status).toBe(404);
      expect((await call('DELETE', `/messages/${id}`, undefined, bearer(alice.token))).status).toBe(404);
      const updated = await call('PUT', `/messages/${id}`, { text: 'final' }, bearer(bob.token));
      expect(updated.body).toEqual({ ...created.body, text: 'final' });
      const patched = await call('PATCH', `/messages/${id}`, { text: 'final!' }, bearer(bob.token));
      expect(patched.body.text).toBe('final!');
      expect((await call('DELETE', `/messages/${id}`, undefined, bearer(bob.token))).body._id).toBe(id);
      expect((await call('GET', `/messages/${id}`)).status).toBe(404);
    });

    it('PUT, PATCH and DELETE without an id, and PUT with an array, answer about the method called and change nothing', async () => {
      // PUT /messages answered "get needs an id": a hook read the stored message before the service ran.
      const put = await call('PUT', '/messages', { text: 'everything' }, bearer(bob.token));
      expect(put.status).toBe(400);
      expect(put.body.message).toBe("You can not replace multiple instances. Did you mean 'patch'?");
      const patch = await call('PATCH', '/messages', { text: 'everything' }, bearer(bob.token));
      expect(patch.status).toBe(405);
      expect(patch.body.message).toBe('Can not patch multiple entries');
      expect((await call('DELETE', '/messages', undefined, bearer(bob.token))).status).toBe(405);
      // An array for one message was spread into { "0": { text } } and stored in place of the message.
      const mine = (await call('GET', '/messages?$limit=1&text=hello%20plume')).body.data[0];
      const array = await call('PUT', `/messages/${mine._id}`, [{ text: 'everything' }], bearer(bob.token));
      expect(array.status).toBe(400);
      expect(array.body.message).toBe("You can not replace multiple instances. Did you mean 'patch'?");
      expect((await call('GET', `/messages/${mine._id}`)).body).toEqual(mine);
      const page = await call('GET', '/messages?text=everything');
      expect(page.body.total).toBe(0);
      expect((await call('GET', '/messages')).body.total).toBe(4);
    });

    it('the stats custom method counts messages per author', async () => {
      const stats = await call('POST', '/messages', {}, { 'x-service-method': 'stats' });
      expect(stats.status).toBe(200);
      expect(stats.body.total).toBe(4);
      expect(stats.body.authors).toHaveLength(2);
      expect(stats.body.authors.map((a: { count: number }) => a.count)).toEqual([2, 2]);
    });

    it('users/:userId/messages lists one user’s messages', async () => {
      const answer = await call('GET', `/users/${bob.id}/messages?$sort[text]=1`);
      expect(answer.body.data.map((m: { text: string }) => m.text)).toEqual(['apple pie', 'hello plume']);
      expect((await call('GET', '/users/not-an-id/messages')).status).toBe(400);
    });

    it('messages/stream pushes new messages as server-sent events', async () => {
      const abort = new AbortController();
      const response = await fetch(`${running.url}/messages/stream`, { signal: abort.signal });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = response.body!.getReader();
      const created = await call('POST', '/messages', { text: 'live' }, bearer(alice.token));
      let received = '';
      while (!received.includes('\n\n')) {
        const chunk = await reader.read();
        received += new TextDecoder().decode(chunk.value);
      }
      // The id is the event's position: a reconnecting client sends it back as Last-Event-ID.
      const [id, data] = received.split('\n');
      expect(id).toMatch(/^id: [0-9A-F]+$/);
      expect(data).toBe(`data: ${JSON.stringify(created.body)}`);
      abort.abort();
      await call('DELETE', `/messages/${created.body._id}`, undefined, bearer(alice.token));
    });

    it('messages/stream answers a Last-Event-ID it cannot resume from with a JSON 4xx, before any event', async () => {
      // Hex, so the example's own check lets them through, but no resume token the database can read
      // (it refuses them with BadValue): this was a 200 followed by `event: error` with a logged 500.
      for (const id of ['ff', '0', '8263'.repeat(20)]) {
        const answer = await call('GET', '/messages/stream', undefined, { 'last-event-id': id });
        expect(answer.status, id).toBe(400);
        expect(answer.body).toMatchObject({
          name: 'BadRequest',
          message: 'Last-Event-ID is not an event id of this stream',
        });
      }
      if (url !== '') return;
      // A well-formed position older than the embedded database's change history (ChangeStreamHistoryLost).
      const old = await call('GET', '/messages/stream', undefined, {
        'last-event-id': `8200000001${'00'.repeat(17)}`,
      });
      expect(old.status).toBe(410);
      expect(old.body).toMatchObject({ name: 'Gone', code: 410 });
    });

    it('messages/stream with Accept-Encoding: gzip (as browsers send) delivers each event as it happens, uncompressed', async () => {
      // Issue 14 item 6: Express' compression() buffered the stream until it ended.
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        const request = httpGet(
          `${running.url}/messages/stream`,
          { headers: { 'accept-encoding': 'gzip, deflate, br', accept: 'text/event-stream' } },
          resolve,
        );
        request.on('error', reject);
      });
      try {
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-encoding']).toBeUndefined();
        expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
        let received = '';
        const firstEvent = new Promise<void>((resolve) => {
          response.on('data', (chunk: Buffer) => {
            received += chunk.toString('utf8');
            if (received.includes('\n\n')) resolve();
          });
        });
        const created = await call('POST', '/messages', { text: 'compressed?' }, bearer(alice.token));
        await firstEvent;
        expect(received).toMatch(/^id: [0-9A-F]+\n/);
        expect(received.replace(/^id: .*\n/, '')).toBe(`data: ${JSON.stringify(created.body)}\n\n`);
        await call('DELETE', `/messages/${created.body._id}`, undefined, bearer(alice.token));
      } finally {
        response.destroy();
      }
    });
  });
});
