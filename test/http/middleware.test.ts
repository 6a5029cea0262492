import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, type Params } from 'plume';
import { Forbidden } from 'plume/errors';
import { bodyParser, createHandler, errorHandler, queryParser, type HandlerMiddleware } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

const echo = {
  async find(params: Params) {
    return { query: params.query, user: params.user ?? null, provider: params.provider };
  },
  async get(id: string) {
    if (id === 'forbidden') throw new Forbidden('Not yours');
    if (id === 'crash') throw new Error('db password is hunter2');
    return { id };
  },
};

describe('middleware', () => {
  const servers: RunningServer[] = [];
  const start = async (middleware?: HandlerMiddleware[]) => {
    const app = createApp().use('echo', echo);
    const server = await serve(app, middleware);
    servers.push(server);
    return server.url;
  };

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('custom middleware can set params such as the user', async () => {
    const setUser: HandlerMiddleware = async (context, next) => {
      const token = context.request.headers.get('authorization');
      if (token !== null) context.params.user = { token };
      await next();
    };
    const url = await start([errorHandler(), queryParser(), bodyParser(), setUser]);
    const response = await fetch(`${url}/echo`, { headers: { authorization: 'Bearer abc' } });
    expect(await response.json()).toEqual({ query: {}, user: { token: 'Bearer abc' }, provider: 'rest' });
  });

  it('middleware that does not call next() answers with context.response', async () => {
    const maintenance: HandlerMiddleware = async (context) => {
      context.response = new Response('down for maintenance', { status: 503 });
    };
    const url = await start([errorHandler(), maintenance]);
    const response = await fetch(`${url}/echo`);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('down for maintenance');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('middleware sees the response of the rest of the chain after next()', async () => {
    const timing: HandlerMiddleware = async (context, next) => {
      await next();
      context.response?.headers.set('x-handled-by', 'plume');
    };
    const url = await start([errorHandler(), timing, queryParser(), bodyParser()]);
    expect((await fetch(`${url}/echo/1`)).headers.get('x-handled-by')).toBe('plume');
  });

  it('middleware can read the JSON body of the response after next() and replace it', async () => {
    const envelope: HandlerMiddleware = async (context, next) => {
      await next();
      const response = context.response!;
      const peeked = (await response.clone().json()) as unknown;
      context.response = Response.json({ data: await response.json(), peeked }, { status: response.status });
    };
    const url = await start([errorHandler(), envelope, queryParser(), bodyParser()]);
    const response = await fetch(`${url}/echo/7`);
    expect(await response.json()).toEqual({ data: { id: '7' }, peeked: { id: '7' } });
  });

  it('a response body cloned by middleware is still sent whole', async () => {
    const peek: HandlerMiddleware = async (context, next) => {
      await next();
      await context.response!.clone().text();
    };
    const url = await start([errorHandler(), peek, queryParser(), bodyParser()]);
    expect(await (await fetch(`${url}/echo/8`)).json()).toEqual({ id: '8' });
  });

  it('queryParser(fn) replaces the query string parser', async () => {
    const flat = queryParser((query) => Object.fromEntries(new URLSearchParams(query)));
    const url = await start([errorHandler(), flat, bodyParser()]);
    const response = await fetch(`${url}/echo?a[b]=1&n=2`);
    expect((await response.json()).query).toEqual({ 'a[b]': '1', n: '2' });
  });

  it('the default query parser drops __proto__, constructor and prototype keys at every depth', async () => {
    const url = await start();
    const query =
      '__proto__[admin]=1&a[constructor][prototype][x]=2&b[prototype]=3&c[d][__pr%6Fto__][e]=4&ok=yes';
    const response = await fetch(`${url}/echo?${query}`);
    const body = await response.json();
    // qs skips keys that would touch Object.prototype; plume also removes `prototype` (b's only key).
    expect(body.query).toEqual({ b: {}, ok: 'yes' });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('the default query parser limits depth to 5 and arrays to 100 indices', async () => {
    const url = await start();
    const deep = await (await fetch(`${url}/echo?a[b][c][d][e][f][g]=1`)).json();
    expect(deep.query).toEqual({ a: { b: { c: { d: { e: { f: { '[g]': '1' } } } } } } });
    const sparse = await (await fetch(`${url}/echo?list[150]=x&small[1]=y`)).json();
    expect(sparse.query).toEqual({ list: { '150': 'x' }, small: ['y'] });
  });

  describe('errorHandler', () => {
    it('answers plume errors with their status and JSON and does not log them', async () => {
      const logger = { error: vi.fn() };
      const url = await start([errorHandler({ logger }), queryParser(), bodyParser()]);
      const response = await fetch(`${url}/echo/forbidden`);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        name: 'Forbidden',
        message: 'Not yours',
        code: 403,
        className: 'forbidden',
      });
      expect(logger.error).not.toHaveBeenCalled();
    });

    it('answers other errors with a generic 500 and logs the original error', async () => {
      const logger = { error: vi.fn() };
      const url = await start([errorHandler({ logger }), queryParser(), bodyParser()]);
      const response = await fetch(`${url}/echo/crash`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({
        name: 'GeneralError',
        message: 'Internal server error',
        code: 500,
        className: 'general-error',
      });
      expect(text).not.toContain('hunter2');
      expect(logger.error).toHaveBeenCalledTimes(1);
      expect((logger.error.mock.calls[0]![0] as Error).message).toBe('db password is hunter2');
    });

    it('logs to console.error by default and not at all with logger: false', async () => {
      const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const byDefault = await start();
      await fetch(`${byDefault}/echo/crash`);
      expect(spy).toHaveBeenCalledTimes(1);
      const silent = await start([errorHandler({ logger: false }), queryParser(), bodyParser()]);
      expect((await fetch(`${silent}/echo/crash`)).status).toBe(500);
      expect(spy).toHaveBeenCalledTimes(1);
    });

    it('without errorHandler in the chain, errors are still answered as JSON', async () => {
      const url = await start([queryParser(), bodyParser()]);
      const response = await fetch(`${url}/echo/forbidden`);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ name: 'Forbidden' });
    });

    it('a chain that leaves no response answers 500', async () => {
      const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const url = await start([errorHandler(), async () => undefined]);
      const response = await fetch(`${url}/echo`);
      expect(response.status).toBe(500);
      expect(spy).toHaveBeenCalledTimes(1);
    });
  });
});

describe('createHandler on its own (any Web Standard runtime)', () => {
  let handler: (request: Request) => Promise<Response>;

  beforeAll(() => {
    handler = createHandler(createApp().use('echo', echo));
  });

  it('answers a Request with a Response without any server', async () => {
    const response = await handler(new Request('http://localhost/echo?x=1'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ query: { x: '1' }, user: null, provider: 'rest' });
  });

  it('a path with malformed percent-encoding answers 400', async () => {
    const response = await handler(new Request('http://localhost/echo/%E0%A4%A'));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ name: 'BadRequest' });
  });
});
