import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type Params } from 'plume';
import { bodyParser, errorHandler, parseQueryString, queryParser, type HandlerMiddleware } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

/** Sends a GET with the request target as written (fetch would normalise it) and a Host of our choice. */
function send(
  base: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { port, host } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: target, setHost: false, agent: false, headers: { host, ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Reads `context.url` before `queryParser` when asked, and may change its query like `accessTokenFromQuery`. */
const readUrl: HandlerMiddleware = async (context, next) => {
  const headers = context.params.headers;
  if (headers['x-read-url'] !== undefined) {
    const { href, pathname, search } = context.url;
    context.params.seen = { href, pathname, search };
  }
  const drop = headers['x-drop-param'];
  if (typeof drop === 'string') context.url.searchParams.delete(drop);
  await next();
};

const answer = (params: Params) => ({
  url: (params.request as Request).url,
  query: params.query,
  seen: params.seen ?? null,
});

describe('request URLs through toRuntimeHandler', () => {
  let server: RunningServer;
  let origin: string;

  beforeAll(async () => {
    const app = createApp();
    app.use('echo', {
      async find(params: Params) {
        return answer(params);
      },
      async get(id: string, params: Params) {
        return { id, ...answer(params) };
      },
    });
    server = await serve(app, [errorHandler(), readUrl, queryParser(), bodyParser()]);
    origin = server.url;
  });

  afterAll(async () => {
    await server.close();
  });

  // Targets Node passes on as they are; what the handler sees must be what the WHATWG URL parser makes of them.
  const targets = [
    '/echo',
    '/echo?',
    '/echo?a=1&b[c]=2&b[d]=3',
    '/echo?b=%zz',
    '/echo?a=%2e%2e&b=x.y',
    "/echo?q='x'",
    '/echo?q="x"&r=<y>&s={z}|^`',
    '/echo?a=1#fragment',
    '/echo#fragment',
    '/echo/a%20b',
    '/echo/caf%C3%A9',
    '/echo/x.json',
    '/echo/.hidden',
    '/echo/./3',
    '/echo/../echo/3',
    '/echo/%2e%2e/echo/4',
    '/echo/%2E/5',
    '/echo/.%2e/echo/6',
    '/echo/x/..',
    "/echo/it's",
    '/echo/a|b',
    '/echo/a"b',
    '/echo/a{b}',
    '/echo/a^b',
    '/echo/a`b',
    '/x/../echo?a=1',
    '//echo',
    '/echo\\7',
    `/echo?long=${'x'.repeat(8000)}`,
    `/echo/${'y'.repeat(8000)}`,
  ];

  it.each(targets)('GET %s: url, path and query as the URL parser gives them', async (target) => {
    const expected = new URL(`${origin}${target}`);
    const query = parseQueryString(expected.search.slice(1));
    const { status, body } = await send(origin, target);
    expect(status).toBe(200);
    expect(body).toMatchObject({ url: expected.href, query, seen: null });
    const read = await send(origin, target, { 'x-read-url': '1' });
    expect(read.status).toBe(200);
    const { href, pathname, search } = expected;
    expect(read.body).toMatchObject({ url: href, query, seen: { href, pathname, search } });
  });

  it('agrees with the URL parser on 300 generated targets (dot segments, %2e, quotes, brackets)', async () => {
    // Segments and queries the handler's check of "targets the parser copies as they are" must tell apart.
    const segments = [
      '3',
      'x',
      '.',
      '..',
      '%2e',
      '%2E',
      '.%2e',
      '%2',
      '%41',
      "it's",
      '[x]',
      'a|b',
      'x.y',
      '',
    ];
    const queries = ['', '?', '?a=1&b[c]=2', "?q='x'", '?..', '?a=/./', '#f', '?a=1#f', '?%2e'];
    let seed = 20261127;
    // A fixed sequence (the same targets every run), small enough to stay exact in a double.
    const next = (n: number): number => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (let i = 0; i < 300; i++) {
      let target = '/echo';
      for (let count = 1 + next(3); count > 0; count--) target += `/${segments[next(segments.length)]}`;
      target += queries[next(queries.length)];
      const expected = new URL(`${origin}${target}`);
      const parts = expected.pathname.replace(/^\/+|\/+$/g, '').split('/');
      const routed = parts[0] === 'echo' && parts.length <= 2;
      let decodes = true;
      try {
        decodeURIComponent(parts[1] ?? '');
      } catch {
        decodes = false;
      }
      const { status, body } = await send(origin, target);
      expect({ target, status }).toEqual({ target, status: routed ? (decodes ? 200 : 400) : 404 });
      if (status === 200) {
        expect({ target, url: body.url, query: body.query }).toEqual({
          target,
          url: expected.href,
          query: parseQueryString(expected.search.slice(1)),
        });
      }
    }
  });

  it('routes a path with dot segments or an encoded id as the parsed URL says', async () => {
    expect((await send(origin, '/echo/../echo/3')).body).toMatchObject({ id: '3' });
    expect((await send(origin, '/echo/%2e%2e/echo/4')).body).toMatchObject({ id: '4' });
    expect((await send(origin, '/echo/a%20b')).body).toMatchObject({ id: 'a b' });
    expect((await send(origin, '/echo/caf%C3%A9')).body).toMatchObject({ id: 'café' });
    expect((await send(origin, '/echo\\7')).body).toMatchObject({ id: '7' });
    expect((await send(origin, '/echo/x/..')).body).not.toHaveProperty('id');
  });

  it('answers 400 or 404 for targets that are no usable path', async () => {
    expect((await send(origin, '/echo/%zz')).status).toBe(400);
    expect((await send(origin, '/echo/%zz?x=1', { 'x-read-url': '1' })).status).toBe(400);
    expect((await send(origin, '/echo/%FF')).status).toBe(400);
    expect((await send(origin, '*')).status).toBe(400);
    expect((await send(origin, '/echo/a/b')).status).toBe(404);
    expect((await send(origin, '/echo//3')).status).toBe(404);
  });

  it('takes the URL of an absolute-form target from the target, not from Host', async () => {
    const { status, body } = await send(origin, 'HTTP://Example.COM:80/echo/1?x=1');
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: '1', url: 'http://example.com/echo/1?x=1', query: { x: '1' } });
  });

  it('builds the origin from Host as the URL parser normalises it, every time', async () => {
    for (let i = 0; i < 2; i++) {
      expect((await send(origin, '/echo?a=1', { host: 'EXAMPLE.com:80' })).body).toMatchObject({
        url: 'http://example.com/echo?a=1',
      });
      expect((await send(origin, '/echo', { host: '[::1]:8080' })).body).toMatchObject({
        url: 'http://[::1]:8080/echo',
      });
      expect((await send(origin, '/echo', { host: '' })).body).toMatchObject({
        url: 'http://localhost/echo',
      });
      // Hosts the URL parser refuses are refused every time, never remembered as valid.
      expect((await send(origin, '/echo', { host: '999.1.1.1' })).status).toBe(400);
      expect((await send(origin, '/echo', { host: 'a:b' })).status).toBe(400);
      expect((await send(origin, '/echo', { host: 'x.test/admin' })).status).toBe(400);
    }
  });

  it('applies changes middleware makes to context.url before queryParser', async () => {
    const { body } = await send(origin, '/echo?secret=1&a=2', { 'x-drop-param': 'secret' });
    expect(body).toMatchObject({ query: { a: '2' }, url: `${origin}/echo?secret=1&a=2` });
  });
});
