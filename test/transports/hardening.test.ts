import { request as httpRequest } from 'node:http';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type Application } from 'plume';
import {
  errorHandler as expressErrorHandler,
  json,
  notFound,
  rest,
  serverFramework,
  type FrameworkApplication,
} from 'plume/express';
import { bodyParser, createHandler, errorHandler, queryParser, toRuntimeHandler } from 'plume/http';
import { listen, type RunningServer } from './servers.js';

// Issue 14 item 8: small differences between the transports, each answered the same way now.
const LIMIT = 1000;

interface Served {
  name: string;
  start(register: (app: Application) => void): Promise<RunningServer>;
}

const served: Served[] = [
  {
    name: 'web standard handler',
    async start(register) {
      const app = createApp();
      register(app);
      const handler = createHandler(app, [errorHandler(), queryParser(), bodyParser({ limit: LIMIT })]);
      const server = createServer(toRuntimeHandler(handler, { limit: LIMIT }));
      const running = await listen(server);
      await app.setup(server);
      return running;
    },
  },
  {
    name: 'express',
    async start(register) {
      const app = serverFramework(createApp()) as FrameworkApplication;
      app.use(json({ limit: LIMIT }));
      app.configure(rest());
      register(app);
      app.use(notFound());
      app.use(expressErrorHandler({ logger: false }));
      const server = await app.listen(0, '127.0.0.1');
      const { port } = server.address() as { port: number };
      return { url: `http://127.0.0.1:${port}`, close: () => app.teardown().then(() => undefined) };
    },
  },
];

/** Sends raw bytes (fetch would re-encode a string body). */
function sendBytes(url: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe.each(served)('transport differences closed ($name)', (transport) => {
  let server: RunningServer;
  const stored: unknown[] = [];

  beforeAll(async () => {
    server = await transport.start((app) => {
      app.use('notes', {
        async find() {
          return [];
        },
        async create(data: unknown) {
          stored.push(data);
          return data;
        },
      });
      app.use('readonly', {
        async find() {
          return [];
        },
        async get(id: string) {
          return { id };
        },
      });
      app.use('files', {
        async get(id: string) {
          if (id === 'binary') {
            return new Response('bytes', { headers: { 'content-type': 'application/octet-stream' } });
          }
          return new Response('hello', { headers: { 'content-type': 'text/plain' } });
        },
      });
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('a Response returned by a service keeps its Content-Type exactly', async () => {
    const text = await fetch(`${server.url}/files/text`);
    expect(text.headers.get('content-type')).toBe('text/plain');
    expect(await text.text()).toBe('hello');
    const binary = await fetch(`${server.url}/files/binary`);
    expect(binary.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('a JSON body with invalid UTF-8 is 400, never stored with replacement characters', async () => {
    const body = Buffer.concat([Buffer.from('{"text":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const answer = await sendBytes(`${server.url}/notes`, body);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ name: 'BadRequest', code: 400 });
    expect(JSON.parse(answer.text).message).toMatch(/^Invalid application\/json request body/);
    expect(stored).toEqual([]);
    // Valid multi-byte UTF-8 still passes.
    const ok = await sendBytes(`${server.url}/notes`, Buffer.from('{"text":"héllo ✓"}'));
    expect(ok.status).toBe(201);
    expect(stored).toEqual([{ text: 'héllo ✓' }]);
  });

  it('405 answers carry an Allow header (RFC 9110 §15.5.6)', async () => {
    const post = await fetch(`${server.url}/readonly`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const remove = await fetch(`${server.url}/readonly/1`, {
      method: 'DELETE',
      headers: { accept: 'application/json' },
    });
    expect(remove.status).toBe(405);
    expect(remove.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const postOnId = await fetch(`${server.url}/notes/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    expect(postOnId.status).toBe(405);
    expect(postOnId.headers.get('allow')).toBe('OPTIONS');
  });

  it('413 has the same body on both transports', async () => {
    const answer = await sendBytes(
      `${server.url}/notes`,
      Buffer.from(JSON.stringify({ text: 'x'.repeat(2 * LIMIT) })),
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toEqual({
      name: 'PayloadTooLarge',
      message: `Request body is larger than the limit of ${LIMIT} bytes`,
      code: 413,
      className: 'payload-too-large',
      data: { limit: LIMIT },
    });
  });
});
