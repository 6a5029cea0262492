import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type Params } from 'plume';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

/** A raw HTTP/1.1 request, for what fetch will not send (a forged Host, a body that never comes). */
function rawRequest(
  url: string,
  options: { method?: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ response: IncomingMessage; text: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          req.destroy();
          resolve({ response, text });
        });
      },
    );
    req.on('error', reject);
    // The body is written but the request is deliberately never ended when a larger length was announced.
    if (options.body !== undefined) req.write(options.body);
    else req.end();
  });
}

describe('toRuntimeHandler', () => {
  let server: RunningServer;
  let created = 0;
  let arrived: () => void = () => undefined;
  let aborted: Promise<void>;

  beforeAll(async () => {
    const app = createApp();
    app.use('slow', {
      // Waits until the client goes away: resolves when the request signal aborts.
      async find(params: Params) {
        const signal = (params.request as Request).signal;
        aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        arrived();
        await aborted;
        return [];
      },
    });
    app.use('docs', {
      async create(data: unknown) {
        created++;
        return data;
      },
      async get(id: string) {
        if (id === 'cookies') {
          const headers = new Headers();
          headers.append('set-cookie', 'session=abc; HttpOnly');
          headers.append('set-cookie', 'theme=dark');
          return new Response(null, { status: 204, headers });
        }
        if (id === 'broken') {
          let sent = false;
          const body = new ReadableStream<Uint8Array>({
            pull(controller) {
              if (sent) return controller.error(new Error('disk failed'));
              sent = true;
              controller.enqueue(new TextEncoder().encode('partial'));
            },
          });
          return new Response(body);
        }
        // 8 MiB in 64 KiB chunks, produced only as fast as they are written.
        let chunks = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (chunks++ === 128) return controller.close();
            controller.enqueue(new Uint8Array(64 * 1024).fill(97));
          },
        });
        return new Response(body, { headers: { 'content-type': 'application/octet-stream' } });
      },
    });
    server = await serve(app);
  });

  afterAll(async () => {
    await server.close();
  });

  it('aborts params.request.signal when the client disconnects before the response', async () => {
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const controller = new AbortController();
    const pending = fetch(`${server.url}/slow`, { signal: controller.signal });
    await reached;
    controller.abort();
    await expect(pending).rejects.toThrow();
    await aborted;
    expect((await fetch(`${server.url}/docs/cookies`)).status).toBe(204);
  });

  it('keeps several Set-Cookie headers of a Response apart', async () => {
    const response = await fetch(`${server.url}/docs/cookies`);
    expect(response.headers.getSetCookie()).toEqual(['session=abc; HttpOnly', 'theme=dark']);
  });

  it('streams a large Response body completely', async () => {
    const response = await fetch(`${server.url}/docs/large`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.byteLength).toBe(128 * 64 * 1024);
    expect(bytes.every((byte) => byte === 97)).toBe(true);
  });

  it('a body stream that fails mid-way cuts the connection and the server keeps serving', async () => {
    const response = await fetch(`${server.url}/docs/broken`);
    await expect(response.text()).rejects.toThrow();
    expect((await fetch(`${server.url}/docs/cookies`)).status).toBe(204);
  });

  it('refuses a parsed body whose Content-Length is over the limit with 413 before it is sent', async () => {
    const { response, text } = await rawRequest(server.url, {
      method: 'POST',
      path: '/docs',
      headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) },
      body: '{"a":',
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers.connection).toBe('close');
    expect(JSON.parse(text)).toMatchObject({ name: 'PayloadTooLarge', code: 413 });
    expect(created).toBe(0);
  });

  it('answers 400 for a Host header that would change the routed path', async () => {
    const { response, text } = await rawRequest(server.url, {
      path: '/docs/cookies',
      headers: { host: 'example.com/admin#' },
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ name: 'BadRequest', message: 'Invalid Host header' });
  });
});
