import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from 'plume';
import { bodyParser, errorHandler, queryParser, type CorsOptions } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

// Issue 14 item 7: the Web Standard handler's CORS can be restricted (SEED.md's rules stay the default).
const allowed = 'https://app.example.com';
const unknown = 'https://evil.example';
const middleware = () => [errorHandler(), queryParser(), bodyParser()];

async function start(cors: CorsOptions): Promise<RunningServer> {
  const app = createApp();
  app.use('things', {
    async find() {
      return [];
    },
  });
  return serve(app, middleware(), undefined, { cors });
}

const preflight = (url: string, origin: string) =>
  fetch(`${url}/things`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });

describe('CORS options of createHandler: an origin allow-list', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await start({
      origin: [allowed],
      credentials: true,
      allowedHeaders: ['content-type', 'authorization'],
      exposedHeaders: ['x-total'],
      maxAge: 600,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('a preflight from an allowed origin gets its settings', async () => {
    const response = await preflight(server.url, allowed);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    expect(response.headers.get('access-control-allow-methods')).toBe(
      'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    );
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('a preflight from an unknown origin gets no Access-Control-Allow-* headers', async () => {
    const response = await preflight(server.url, unknown);
    expect(response.status).toBe(204);
    const cors = [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
    expect(cors).toEqual([]);
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('responses carry the allowed origin, credentials and exposed headers; unknown origins get none', async () => {
    const ok = await fetch(`${server.url}/things`, { headers: { origin: allowed } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(allowed);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('access-control-expose-headers')).toBe('x-total');
    const refused = await fetch(`${server.url}/things`, { headers: { origin: unknown } });
    expect(refused.status).toBe(200); // CORS is enforced by the browser; the server only withholds the headers
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect(refused.headers.get('access-control-allow-credentials')).toBeNull();
    expect(refused.headers.get('vary')).toBe('Origin');
    const missing = await fetch(`${server.url}/nowhere`, { headers: { origin: unknown } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers toRuntimeHandler gives itself (413) follow the policy too', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) });
    const send = (origin: string) =>
      fetch(`${server.url}/things`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: big,
      });
    expect((await send(unknown)).headers.get('access-control-allow-origin')).toBeNull();
    expect((await send(allowed)).headers.get('access-control-allow-origin')).toBe(allowed);
  });
});

describe('CORS options of createHandler: other forms', () => {
  const running: RunningServer[] = [];
  afterAll(async () => {
    for (const server of running) await server.close();
  });

  it('an origin function decides per request', async () => {
    const server = await start({ origin: (origin) => origin.endsWith('.example.com') });
    running.push(server);
    expect((await preflight(server.url, allowed)).headers.get('access-control-allow-origin')).toBe(allowed);
    expect((await preflight(server.url, unknown)).headers.get('access-control-allow-origin')).toBeNull();
  });

  it('any origin without credentials answers * and no credentials header', async () => {
    const server = await start({ origin: true });
    running.push(server);
    const response = await preflight(server.url, unknown);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    const get = await fetch(`${server.url}/things`, { headers: { origin: unknown } });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('refuses malformed options at createHandler time', async () => {
    await expect(start({ origin: 42 as unknown as string })).rejects.toThrow(TypeError);
    await expect(start({ maxAge: -1 })).rejects.toThrow(/maxAge/);
  });
});
