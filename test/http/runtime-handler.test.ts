import { connect } from 'node:net';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type Params } from 'plume';
import { createHandler, toRuntimeHandler } from 'plume/http';
import { listen, type RunningServer } from '../transports/servers.js';
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

  it('a JSON body cut off before its Content-Length never reaches the service; the server keeps serving', async () => {
    const before = created;
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /docs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"text":',
    );
    // Let the server read the part that came, then hang up in the middle of the body.
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(created).toBe(before);
    const response = await fetch(`${server.url}/docs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'whole' }),
    });
    expect(response.status).toBe(201);
    expect(created).toBe(before + 1);
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

/**
 * Sends `requests` (raw HTTP text) one after another on one connection from `localAddress` and
 * returns each response's header lines and body. A response is complete at its Content-Length, or when the server closes.
 */
function exchange(
  url: string,
  requests: string[],
  localAddress = '127.0.0.1',
): Promise<{ head: string[]; body: string }[]> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress });
    const answers: { head: string[]; body: string }[] = [];
    let buffer = Buffer.alloc(0);
    const take = (): void => {
      const end = buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const length = head.find((line) => /^content-length:/i.test(line));
      if (length === undefined) return; // read to the end of the connection
      const size = Number(length.split(':')[1]);
      if (buffer.byteLength < end + 4 + size) return;
      answers.push({ head, body: buffer.subarray(end + 4, end + 4 + size).toString('utf8') });
      buffer = buffer.subarray(end + 4 + size);
      const next = requests[answers.length];
      if (next === undefined) socket.end();
      else socket.write(next);
    };
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      take();
    });
    socket.on('end', () => {
      if (buffer.byteLength > 0) {
        const end = buffer.indexOf('\r\n\r\n');
        const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
        answers.push({ head, body: buffer.subarray(end + 4).toString('utf8') });
      }
      resolve(answers);
    });
    socket.on('error', reject);
    socket.write(requests[0] as string);
  });
}

/** The values of header `name` in raw header lines (the status line first). */
const headerValues = (head: string[], name: string): string[] =>
  head
    .filter((line) => line.toLowerCase().startsWith(`${name}:`))
    .map((line) => line.slice(name.length + 1).trim());

describe('toRuntimeHandler: the length of JSON answers and the client address', () => {
  let server: RunningServer;
  const text = 'héllo wörld ✓';

  beforeAll(async () => {
    const app = createApp();
    app.use('notes', {
      async get(id: string) {
        return { id, text };
      },
      async find(params: Params) {
        return { ip: params.ip };
      },
    });
    // A hook's own header takes the response off the plain-object path onto `Headers`.
    app.use('tagged', {
      async get(id: string) {
        return { id, text };
      },
    });
    app.service('tagged').hooks({
      around: {
        all: [
          async (context, next) => {
            await next();
            context.http = { ...context.http, headers: { 'x-tag': 'yes' } };
          },
        ],
      },
    });
    server = await serve(app);
  });

  afterAll(async () => {
    await server.close();
  });

  it('sends one Content-Length, the UTF-8 byte length, over HTTP/1.1, HTTP/1.0 and for HEAD', async () => {
    const expected = JSON.stringify({ id: '1', text });
    const [kept, second, tagged, head] = await exchange(server.url, [
      'GET /notes/1 HTTP/1.1\r\nHost: a\r\n\r\n',
      'GET /notes/1 HTTP/1.1\r\nHost: a\r\n\r\n',
      'GET /tagged/1 HTTP/1.1\r\nHost: a\r\n\r\n',
      'HEAD /notes/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
    ]);
    for (const answer of [kept, second, tagged]) {
      expect(answer!.head[0]).toBe('HTTP/1.1 200 OK');
      expect(headerValues(answer!.head, 'content-length')).toEqual([String(Buffer.byteLength(expected))]);
      expect(headerValues(answer!.head, 'transfer-encoding')).toEqual([]);
      expect(answer!.body).toBe(expected);
    }
    expect(headerValues(tagged!.head, 'x-tag')).toEqual(['yes']);
    expect(headerValues(head!.head, 'content-length')).toEqual([String(Buffer.byteLength(expected))]);
    expect(head!.body).toBe('');

    // HTTP/1.0 has no chunked coding: the length must be a header, and the server closes after it.
    const [old] = await exchange(server.url, ['GET /notes/1 HTTP/1.0\r\n\r\n']);
    expect(old!.head[0]).toBe('HTTP/1.1 200 OK');
    expect(headerValues(old!.head, 'content-length')).toEqual([String(Buffer.byteLength(expected))]);
    expect(old!.body).toBe(expected);
  });

  it('gives params.ip the peer address on every request of a connection and on a new one', async () => {
    const request = 'GET /notes HTTP/1.1\r\nHost: a\r\n\r\n';
    // Every 127.x.y.z address is the loopback interface on Linux: two clients with two addresses.
    const first = await exchange(server.url, [request, request, request]);
    const other = await exchange(server.url, [request, request], '127.0.0.2');
    const again = await exchange(server.url, [request]);
    const ips = [...first, ...other, ...again].map(
      (answer) => (JSON.parse(answer.body) as { ip: string }).ip,
    );
    expect(ips).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.2', '127.0.0.2', '127.0.0.1']);
  });
});

describe('toRuntimeHandler: requests without a Host header', () => {
  let server: RunningServer;

  beforeAll(async () => {
    const app = createApp();
    app.use('notes', {
      async get(id: string) {
        return { id };
      },
    });
    // docs/http.md's recipe: Node lets the request through instead of answering an empty 400 itself.
    server = await listen(createServer({ requireHostHeader: false }, toRuntimeHandler(createHandler(app))));
  });

  afterAll(async () => {
    await server.close();
  });

  it('answers an HTTP/1.1 request without Host with a JSON 400 (RFC 9112 §3.2)', async () => {
    const [answer] = await exchange(server.url, ['GET /notes/1 HTTP/1.1\r\nConnection: close\r\n\r\n']);
    expect(answer!.head[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(headerValues(answer!.head, 'content-type')[0]).toMatch(/^application\/json/);
    // One chunk: its size line, the JSON, then the last chunk.
    expect(headerValues(answer!.head, 'transfer-encoding')).toEqual(['chunked']);
    expect(JSON.parse(answer!.body.split('\r\n')[1]!)).toMatchObject({
      name: 'BadRequest',
      code: 400,
      message: 'An HTTP/1.1 request must have a Host header (RFC 9112 §3.2)',
    });
  });

  it('serves an HTTP/1.0 request without Host, and an HTTP/1.1 one with an empty Host', async () => {
    const [old] = await exchange(server.url, ['GET /notes/1 HTTP/1.0\r\n\r\n']);
    expect(old!.head[0]).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(old!.body)).toEqual({ id: '1' });
    const [empty] = await exchange(server.url, [
      'GET /notes/2 HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n',
    ]);
    expect(empty!.head[0]).toBe('HTTP/1.1 200 OK');
    expect(JSON.parse(empty!.body)).toEqual({ id: '2' });
  });
});
