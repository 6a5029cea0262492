import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createLogger, errorLogger, loggablePath, type Logger } from 'plume';
import * as express from 'plume/express';
import {
  accessLog,
  bodyParser,
  createHandler,
  errorHandler,
  queryParser,
  toRuntimeHandler,
} from 'plume/http';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';

/** A logger writing JSON (or pretty) lines into `lines`, at every level. */
function capture(pretty = false): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
  return { logger: createLogger({ level: 'trace', pretty, destination }), lines };
}

const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, any>);
const accessLines = (lines: string[], requestId: string) =>
  parsed(lines).filter((line) => line.requestId === requestId);

describe.each(['web', 'express'] as const)('the example on the %s transport logs', (transport) => {
  let database: Database;
  let running: RunningServer;
  const { logger, lines } = capture();

  beforeAll(async () => {
    database = await connectDatabase('', `plume_logging_${randomBytes(4).toString('hex')}`);
    running = await startServer({
      port: 0,
      transport,
      database,
      hashCost: 4,
      apiKeys: ['API-KEY-SECRET'],
      logger,
    });
  });
  afterAll(async () => {
    await running?.close();
    await database?.close();
  });

  const call = (path: string, requestId: string, init: RequestInit = {}) =>
    fetch(running.url + path, { ...init, headers: { 'x-request-id': requestId, ...init.headers } });
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('one access line per request: request id, method, path, status and duration', async () => {
    const response = await call('/messages?$limit=2', `list-${transport}`);
    expect(response.status).toBe(200);
    const missing = await call('/nowhere', `missing-${transport}`, {
      headers: { accept: 'application/json' },
    });
    expect(missing.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 50)); // Express logs when the response has closed
    const [list] = accessLines(lines, `list-${transport}`);
    expect(accessLines(lines, `list-${transport}`)).toHaveLength(1);
    expect(list).toMatchObject({ level: 30, method: 'GET', path: '/messages?$limit=2', status: 200 });
    expect(list!.durationMs).toEqual(expect.any(Number));
    expect(list!.msg).toMatch(/^GET \/messages\?\$limit=2 200 [\d.]+ ms$/);
    expect(accessLines(lines, `missing-${transport}`)).toEqual([
      expect.objectContaining({ level: 30, method: 'GET', path: '/nowhere', status: 404 }),
    ]);
    // A 404 is one debug line at most, never an error with a stack.
    const notFound = parsed(lines).filter((line) => line.level !== 30 && /NotFound/.test(line.msg ?? ''));
    expect(notFound.every((line) => line.level <= 20 && line.err === undefined)).toBe(true);
    expect(parsed(lines).filter((line) => line.level >= 50)).toEqual([]);
  });

  it('a body that is not JSON is one debug line, never an error with a stack', async () => {
    // Express' body-parser throws a SyntaxError with status 400: errorLogger took it for a 5xx.
    const bad = await call('/messages', `bad-json-${transport}`, { ...json({}), body: '{"text":' });
    expect(bad.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 50)); // Express logs when the response has closed
    const errors = parsed(lines).filter((line) => line.level >= 50);
    expect(errors.map((line) => line.err?.message ?? line.msg)).toEqual([]);
    expect(parsed(lines).some((line) => line.level === 20 && /^400 \w+: /.test(line.msg ?? ''))).toBe(true);
  });

  it('a request id the client sends that is not a plain token is replaced by a UUID', async () => {
    await call('/messages', 'not a plain id!');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = parsed(lines).findLast((entry) => entry.path === '/messages');
    expect(line?.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('no Authorization header, cookie, access token, API key or password in any line, at any level', async () => {
    const password = 'correct horse battery';
    expect(
      (await call('/users', 'secret-1', json({ email: `eve-${transport}@example.com`, password }))).status,
    ).toBe(201);
    const login = await call(
      '/authentication',
      'secret-2',
      json({ strategy: 'local', email: `eve-${transport}@example.com`, password }),
    );
    const { accessToken } = (await login.json()) as { accessToken: string };
    const wrong = json({
      strategy: 'local',
      email: `eve-${transport}@example.com`,
      password: 'WRONG-PASSWORD',
    });
    expect((await call('/authentication', 'secret-3', wrong)).status).toBe(401);
    const headers = { authorization: `Bearer ${accessToken}`, cookie: 'sid=COOKIE-SECRET' };
    expect((await call('/users', 'secret-4', { headers })).status).toBe(200);
    expect((await call(`/users?access_token=${accessToken}&$limit=1`, 'secret-5')).status).toBe(200);
    expect(
      (await call('/users', 'secret-6', { headers: { authorization: 'Bearer BAD-TOKEN-SECRET' } })).status,
    ).toBe(401);
    expect((await call('/users', 'secret-7', { headers: { 'x-api-key': 'API-KEY-SECRET' } })).status).toBe(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = lines.join('\n');
    for (const secret of [
      accessToken,
      'COOKIE-SECRET',
      'BAD-TOKEN-SECRET',
      'API-KEY-SECRET',
      password,
      'WRONG-PASSWORD',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/bearer/i);
    for (const id of ['secret-1', 'secret-2', 'secret-3', 'secret-4', 'secret-5', 'secret-6', 'secret-7']) {
      expect(accessLines(lines, id)).toHaveLength(1);
    }
    expect(accessLines(lines, 'secret-5')[0]!.path).toBe('/users?access_token=[redacted]&$limit=1');
  });
});

describe('server errors', () => {
  const boom = { find: async () => Promise.reject(new TypeError('kaput')) };

  async function listen(server: Server): Promise<string> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const stop = (server: Server) => new Promise((resolve) => server.close(resolve));

  function expectOneErrorWithStack(lines: string[]): void {
    const errors = parsed(lines).filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.err.stack).toMatch(/TypeError: kaput\n\s+at /);
  }

  it('the Web Standard handler logs a 5xx at error with the stack through the app logger', async () => {
    const { logger, lines } = capture();
    const app = createApp().set('logger', logger);
    app.use('boom', boom);
    const server = createServer(
      toRuntimeHandler(createHandler(app, [accessLog(), errorHandler(), queryParser(), bodyParser()])),
    );
    const url = await listen(server);
    const response = await fetch(`${url}/boom`);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('kaput');
    await stop(server);
    expectOneErrorWithStack(lines);
    expect(parsed(lines).filter((line) => line.status === 500 && line.level === 30)).toHaveLength(1);
  });

  it('the Express errorHandler given errorLogger(logger) logs a 5xx at error with the stack', async () => {
    const { logger, lines } = capture();
    const app = express.serverFramework(createApp());
    app.set('logger', logger);
    app.use(express.accessLog());
    app.configure(express.rest());
    app.use('boom', boom);
    app.use(express.notFound());
    app.use(express.errorHandler({ logger: errorLogger(logger as Logger) }));
    const server = await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect((await fetch(`${url}/boom`, { headers: { accept: 'application/json' } })).status).toBe(500);
    await app.teardown();
    expectOneErrorWithStack(lines);
  });
});

describe('createLogger', () => {
  it('writes one human-readable line per request when pretty', async () => {
    const { logger, lines } = capture(true);
    const app = createApp().set('logger', logger);
    app.use('things', { find: async () => [] });
    const server = createServer(toRuntimeHandler(createHandler(app, [accessLog(), errorHandler()])));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/things?token=abc`, {
      headers: { 'x-request-id': 'pretty-1' },
    });
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO.*GET \/things\?token=\[redacted\] 200 [\d.]+ ms.*"requestId":"pretty-1"/);
  });

  it('redacts credentials in objects that code logs', () => {
    const { logger, lines } = capture();
    logger.info(
      { headers: { authorization: 'Bearer X1', cookie: 'C1' }, user: { password: 'P1' } },
      'careless',
    );
    expect(lines.join('')).not.toMatch(/X1|C1|P1/);
  });

  it('loggablePath drops the origin and redacts credential parameters', () => {
    expect(loggablePath('http://h:1/a?access_token=x&b=2&api_key=k&%61ccess_token=y')).toBe(
      '/a?access_token=[redacted]&b=2&api_key=[redacted]&%61ccess_token=[redacted]',
    );
  });
});
