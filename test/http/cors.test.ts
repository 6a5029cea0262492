import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from 'plume';
import { NotAuthenticated } from 'plume/errors';
import { bodyParser, CORS_ALLOW_HEADERS, errorHandler, queryParser } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { readEvents, serve } from './helpers.js';

describe('CORS', () => {
  let server: RunningServer;
  const origin = 'https://app.example.com';

  beforeAll(async () => {
    const app = createApp();
    app.use('things', {
      async find() {
        return [];
      },
      async get(id: string) {
        if (id === 'passthrough') return new Response('raw', { headers: { vary: 'Accept' } });
        return { id };
      },
    });
    app.use('events', {
      async find() {
        return (async function* () {
          yield 1;
        })();
      },
    });
    // Rejects every request without a token, as authentication middleware would.
    const requireToken = async (context: { request: Request }, next: () => Promise<void>) => {
      if (!context.request.headers.get('authorization')) throw new NotAuthenticated('Token missing');
      await next();
    };
    server = await serve(app, [errorHandler(), requireToken, queryParser(), bodyParser()]);
  });

  afterAll(async () => {
    await server.close();
  });

  const auth = { authorization: 'Bearer t' };

  it('a successful response echoes the Origin and varies on it', async () => {
    const response = await fetch(`${server.url}/things`, { headers: { ...auth, origin } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('without an Origin header the allowed origin is *', async () => {
    const response = await fetch(`${server.url}/things`, { headers: auth });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('vary')).toBeNull();
  });

  it('error responses carry the allowed origin too', async () => {
    const unauthenticated = await fetch(`${server.url}/things`, { headers: { origin } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe(origin);
    const missing = await fetch(`${server.url}/nowhere`, { headers: { ...auth, origin } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('event streams and Responses from services carry it, keeping their own Vary', async () => {
    const stream = await fetch(`${server.url}/events`, { headers: { ...auth, origin } });
    expect(stream.headers.get('access-control-allow-origin')).toBe(origin);
    await readEvents(stream, 1);
    const raw = await fetch(`${server.url}/things/passthrough`, { headers: { ...auth, origin } });
    expect(raw.headers.get('access-control-allow-origin')).toBe(origin);
    expect(raw.headers.get('vary')).toBe('Accept, Origin');
  });

  it('an OPTIONS preflight answers 204 with the allowed methods, headers and credentials, before any middleware', async () => {
    const response = await fetch(`${server.url}/things/1`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    expect(response.headers.get('access-control-allow-methods')).toBe(
      'GET, POST, PUT, PATCH, DELETE, OPTIONS',
    );
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'accept, accept-language, content-language, content-type, range, authorization, x-service-method',
    );
    expect(CORS_ALLOW_HEADERS).toBe(response.headers.get('access-control-allow-headers'));
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(await response.text()).toBe('');
  });
});
