import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type Params } from 'plume';
import { bodyParser, errorHandler, queryParser, type HandlerMiddleware } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

/**
 * Under toRuntimeHandler, requests and JSON responses are built lazily for speed. Whatever part of them
 * code reads, it must behave like a real Request and Response.
 */
describe('requests and responses under toRuntimeHandler', () => {
  let server: RunningServer;

  beforeAll(async () => {
    const app = createApp();
    app.use('inspect', {
      async find(params: Params) {
        const request = params.request as Request;
        return {
          isRequest: request instanceof Request,
          tag: Object.prototype.toString.call(request),
          method: request.method,
          url: request.url,
          header: request.headers.get('x-custom'),
          mode: request.mode,
          bodyUsed: request.bodyUsed,
          aborted: request.signal.aborted,
          cloneUrl: request.clone().url,
        };
      },
      async create(data: unknown, params: Params) {
        const request = params.request as Request;
        // bodyParser already read the JSON body: the request reports it as used, like a real one.
        return { data, bodyUsed: request.bodyUsed, text: await request.text().catch(() => 'refused') };
      },
      async update(_id: string, data: unknown) {
        // A content type bodyParser does not parse: the service gets the stream.
        return { text: await new Response(data as ReadableStream).text() };
      },
    });
    const readResponse: HandlerMiddleware = async (context, next) => {
      await next();
      const response = context.response;
      if (response === undefined || context.request.headers.get('x-read-response') === null) return;
      const copy = (await response.clone().json()) as Record<string, unknown>;
      response.headers.set('x-seen-keys', Object.keys(copy).sort().join(','));
      response.headers.set('x-seen-status', String(response.status));
    };
    server = await serve(app, [errorHandler(), readResponse, queryParser(), bodyParser()]);
  });

  afterAll(async () => {
    await server.close();
  });

  it('gives services a Request whose every member works', async () => {
    const response = await fetch(`${server.url}/inspect?x=1`, { headers: { 'x-custom': 'yes' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      isRequest: true,
      tag: '[object Request]',
      method: 'GET',
      url: `${server.url}/inspect?x=1`,
      header: 'yes',
      mode: 'cors',
      bodyUsed: false,
      aborted: false,
      cloneUrl: `${server.url}/inspect?x=1`,
    });
  });

  it('a JSON body read by bodyParser counts as used; reading it again is refused', async () => {
    const response = await fetch(`${server.url}/inspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ data: { text: 'hi' }, bodyUsed: true, text: 'refused' });
  });

  it('streams a body of another content type to the service', async () => {
    const response = await fetch(`${server.url}/inspect/1`, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'plain words',
    });
    expect(await response.json()).toEqual({ text: 'plain words' });
  });

  it('middleware can read the JSON response and change its headers', async () => {
    const response = await fetch(`${server.url}/inspect`, {
      headers: { 'x-read-response': '1', origin: 'https://app.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-seen-status')).toBe('200');
    expect(response.headers.get('x-seen-keys')).toBe(
      'aborted,bodyUsed,cloneUrl,header,isRequest,method,mode,tag,url',
    );
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('vary')).toBe('Origin');
    expect((await response.json()) as unknown).toMatchObject({ method: 'GET' });
  });

  it('sends CORS headers and a correct Content-Length on the plain JSON path', async () => {
    const response = await fetch(`${server.url}/inspect`, { headers: { origin: 'https://app.example' } });
    const text = await response.text();
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('content-length')).toBe(String(new TextEncoder().encode(text).byteLength));
  });
});
