import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Params } from 'plume';
import { createClient, encodeQuery, memoryStorage, withAuthentication } from 'plume/client';
import { BadGateway, NotFound, PlumeError, Timeout, Unavailable } from 'plume/errors';
import { listen, transports, type RunningServer } from '../transports/servers.js';

// How the client maps calls to HTTP, checked by what plume's transports hand back to the service.
describe.each(transports)('plume/client calls on the $name', (transport) => {
  let running: RunningServer;
  beforeAll(async () => {
    const app = transport.createApp();
    app.use(
      'echo',
      {
        async find(params: Params) {
          return { query: params.query };
        },
        async get(id: string, params: Params) {
          return { id, query: params.query };
        },
        async patch(id: string | null, data: unknown) {
          return { id, data };
        },
        async shout(data: { text: string }, params: Params) {
          return { text: data.text.toUpperCase(), provider: params.provider };
        },
      },
      { methods: ['find', 'get', 'patch', 'shout'] },
    );
    app.use('headers', {
      async find(params: Params) {
        const { authorization, 'x-client': client } = params.headers ?? {};
        return { authorization, client };
      },
    });
    app.use('teams/:teamId/members', {
      async get(id: string, params: Params) {
        return { id, route: params.route };
      },
    });
    running = await transport.start(app);
  });
  afterAll(() => running?.close());

  it('sends queries in the nested-bracket form the server parses (values arrive as strings)', async () => {
    const client = createClient(running.url);
    const query = {
      text: 'a b&c=d/é',
      $limit: 5,
      $sort: { createdAt: -1, text: 1 },
      _id: { $in: ['x', 'y/z'] },
      done: false,
      nothing: null,
      left: undefined,
      since: new Date(0),
      $or: [{ a: '1' }, { b: { $gt: 2 } }],
    };
    expect(await client.service('echo').find({ query })).toEqual({
      query: {
        text: 'a b&c=d/é',
        $limit: '5',
        $sort: { createdAt: '-1', text: '1' },
        _id: { $in: ['x', 'y/z'] },
        done: 'false',
        nothing: '',
        since: '1970-01-01T00:00:00.000Z',
        $or: [{ a: '1' }, { b: { $gt: '2' } }],
      },
    });
    expect(encodeQuery({ $sort: { createdAt: -1 }, ids: ['a', 'b'] })).toBe(
      '$sort[createdAt]=-1&ids[0]=a&ids[1]=b',
    );
  });

  it('URL-encodes ids and placeholder values', async () => {
    const client = createClient(running.url);
    expect(await client.service('echo').get('a/b c?d#e%')).toEqual({ id: 'a/b c?d#e%', query: {} });
    expect(await client.service('/teams/:teamId/members/').get(7, { route: { teamId: 'x/y z' } })).toEqual({
      id: '7',
      route: { teamId: 'x/y z' },
    });
  });

  it('calls custom methods with X-Service-Method and patches with the data as JSON', async () => {
    const client = createClient(running.url);
    expect(await client.service('echo').shout!({ text: 'hi' })).toEqual({ text: 'HI', provider: 'rest' });
    expect(await client.service('echo').patch('1', { a: [1, { b: null }] })).toEqual({
      id: '1',
      data: { a: [1, { b: null }] },
    });
  });

  it("sends the client headers, which a call's own headers replace whatever their case", async () => {
    const client = createClient(running.url, {
      headers: { 'X-Client': 'docs', Authorization: 'Bearer client' },
    });
    const headers = client.service('headers');
    expect(await headers.find()).toEqual({ authorization: 'Bearer client', client: 'docs' });
    expect(await headers.find({ headers: { AUTHORIZATION: 'Bearer call' } })).toMatchObject({
      authorization: 'Bearer call',
    });
    const storage = memoryStorage();
    await storage.setItem('plume-jwt', 'stored');
    const authenticated = withAuthentication(createClient(running.url), { storage });
    expect(await authenticated.service('headers').find()).toMatchObject({ authorization: 'Bearer stored' });
    const own = authenticated.service('headers').find({ headers: { Authorization: 'Basic b3du' } });
    expect(await own).toMatchObject({ authorization: 'Basic b3du' });
  });

  it('rejects methods the service does not expose with the 405 the server sends', async () => {
    const client = createClient(running.url);
    await expect(client.service('echo').remove('1')).rejects.toMatchObject({
      name: 'MethodNotAllowed',
      code: 405,
    });
    await expect(client.service('nowhere').find()).rejects.toBeInstanceOf(NotFound);
  });
});

/** A raw HTTP server for behaviours plume's own servers do not show (silence, proxies, event ids). */
async function rawServer(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  return listen(createServer(handle));
}

describe('plume/client failures', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (closers.length > 0) await closers.pop()!();
  });

  it('a call without an answer fails with Timeout after the client or call timeout', async () => {
    const silent = await rawServer(() => undefined);
    closers.push(() => silent.close());
    const client = createClient(silent.url, { timeout: 100 });
    const error = await client
      .service('slow')
      .find()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Timeout);
    expect((error as Timeout).message).toBe('GET /slow got no answer within 100 ms');
    await expect(createClient(silent.url).service('slow').get(1, { timeout: 50 })).rejects.toBeInstanceOf(
      Timeout,
    );
  });

  it('an aborted call rejects with the AbortError, and a call to a closed port with Unavailable', async () => {
    const silent = await rawServer(() => undefined);
    closers.push(() => silent.close());
    const abort = new AbortController();
    const call = createClient(silent.url).service('slow').find({ signal: abort.signal });
    abort.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });

    const gone = await rawServer(() => undefined);
    await gone.close();
    const error = await createClient(gone.url)
      .service('messages')
      .find()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Unavailable);
    expect((error as Unavailable).message).toContain(`GET /messages could not reach ${gone.url}`);
  });

  it('an error page that is not a plume error becomes the class of its status code', async () => {
    const proxy = await rawServer((_request, response) => {
      response.writeHead(502, 'Bad Gateway', { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
    });
    closers.push(() => proxy.close());
    const error = await createClient(proxy.url)
      .service('messages')
      .find()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadGateway);
    expect(error).toMatchObject({ message: '502 Bad Gateway', data: { body: '<h1>Bad Gateway</h1>' } });
  });

  it('an event stream reconnects with Last-Event-ID, honours retry:, and ends on 204', async () => {
    const seen: (string | undefined)[] = [];
    const server = await rawServer((request, response) => {
      const last = request.headers['last-event-id'] as string | undefined;
      seen.push(last);
      if (last === '2') return void response.writeHead(204).end();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (last === undefined) response.end('retry: 10\n: a comment\nid: 1\ndata: {"n":\ndata: 1}\n\n');
      else response.end('id: 2\r\nevent: tick\r\ndata: {"n":2}\r\n\r\n');
    });
    closers.push(() => server.close());
    const events = await createClient(server.url).events<{ n: number }>('ticks');
    const received: unknown[] = [];
    for await (const event of events) received.push(event);
    expect(received).toEqual([{ n: 1 }, { n: 2 }]);
    expect(seen).toEqual([undefined, '1', '2']);
    expect(events.lastEventId).toBe('2');
  });

  it('an event stream takes an error event with 503 for a dropped connection and retries a 503 answer', async () => {
    const unavailable = '{"name":"Unavailable","message":"The database is unavailable","code":503}';
    const seen: (string | undefined)[] = [];
    const server = await rawServer((request, response) => {
      const last = request.headers['last-event-id'] as string | undefined;
      seen.push(last);
      if (last === undefined) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`retry: 1\nid: 1\ndata: 1\n\nevent: error\ndata: ${unavailable}\n\n`);
      } else if (last === '1' && seen.length === 2) {
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end(unavailable);
      } else if (last === '1') {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end('retry: 1\nid: 2\ndata: 2\n\n');
      } else response.writeHead(204).end();
    });
    closers.push(() => server.close());
    const events = await createClient(server.url).events<number>('ticks');
    const received: number[] = [];
    for await (const event of events) received.push(event);
    expect(received).toEqual([1, 2]);
    expect(seen).toEqual([undefined, '1', '1', '2']);
  });

  it('an event stream answered 503 five times in a row gives up with Unavailable', async () => {
    let requests = 0;
    const server = await rawServer((_request, response) => {
      if (requests++ === 0) {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: 1\ndata: 1\n\n');
      } else {
        response
          .writeHead(503, { 'content-type': 'application/json' })
          .end('{"name":"Unavailable","message":"The database is unavailable","code":503}');
      }
    });
    closers.push(() => server.close());
    const events = await createClient(server.url).events<number>('ticks', { retryDelay: 1 });
    expect(await events.next()).toEqual({ done: false, value: 1 });
    const error = await events.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Unavailable);
    expect(error).toMatchObject({
      message: 'The event stream could not reconnect after 5 attempts',
      cause: { name: 'Unavailable', message: 'The database is unavailable' },
    });
    expect(requests).toBe(6);
  });

  it('an event stream without ids ends with the connection; an error event is thrown as its class', async () => {
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: "one"\n\nevent: error\ndata: {"name":"NotFound","message":"gone","code":404}\n\n');
    });
    closers.push(() => server.close());
    const events = await createClient(server.url).events('ticks', { reconnect: false });
    expect(await events.next()).toEqual({ done: false, value: 'one' });
    const error = await events.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFound);
    expect((error as PlumeError).message).toBe('gone');
    await expect(createClient(server.url).service('ticks').find()).resolves.toHaveProperty('close');
  });

  it('an event stream waits for its headers at most the timeout, and follows its signal after them', async () => {
    const silent = await rawServer(() => undefined);
    closers.push(() => silent.close());
    await expect(createClient(silent.url, { timeout: 50 }).events('ticks')).rejects.toBeInstanceOf(Timeout);

    const connections: string[] = [];
    const server = await rawServer((request, response) => {
      connections.push(String(request.headers['last-event-id']));
      response.writeHead(200, { 'content-type': 'text/event-stream' }).write('id: 1\ndata: 1\n\n');
    });
    closers.push(() => server.close());
    const abort = new AbortController();
    const events = await createClient(server.url, { timeout: 1000 }).events('ticks', {
      signal: abort.signal,
    });
    expect(await events.next()).toEqual({ done: false, value: 1 });
    const waiting = events.next(); // longer than the timeout: an open stream does not time out
    await new Promise((resolve) => setTimeout(resolve, 1200));
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(connections).toEqual(['undefined']); // an aborted stream does not reconnect
  });

  it('events() rejects a plain JSON answer with NotAcceptable', async () => {
    const server = await rawServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    closers.push(() => server.close());
    await expect(createClient(server.url).events('ticks')).rejects.toMatchObject({
      name: 'NotAcceptable',
      code: 406,
    });
  });
});
