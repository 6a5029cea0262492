import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type Params } from 'plume';
import { bodyParser, createHandler, errorHandler, queryParser } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

/** Describes the data a service received, so the test can see what the body parser produced. */
function describeData(data: unknown): unknown {
  if (data instanceof ReadableStream) return { stream: true };
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    out[key] =
      value instanceof File ? { file: value.name, type: value.type, size: value.size } : describeData(value);
  }
  return out;
}

const inspector = {
  async create(data: unknown) {
    return { data: describeData(data), prototypeIntact: Object.getPrototypeOf(data) === Object.prototype };
  },
  async update(_id: string, data: unknown) {
    return { data: describeData(data) };
  },
  async patch(_id: string, data: unknown) {
    return { data: describeData(data) };
  },
};

const uploads = {
  async create(data: unknown, params: Params) {
    if (!(data instanceof ReadableStream)) throw new Error('expected a stream');
    let bytes = 0;
    let chunks = 0;
    const reader = (data as ReadableStream<Uint8Array>).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      bytes += read.value.byteLength;
      chunks++;
    }
    return { bytes, chunks, type: params.headers?.['content-type'] ?? null };
  },
  async readFile(data: Record<string, unknown>) {
    const file = data.file as File;
    return { name: file.name, text: await file.text(), title: data.title };
  },
};

describe('request body parsing', () => {
  let server: RunningServer;
  const post = (path: string, body: BodyInit | null, headers: Record<string, string> = {}, method = 'POST') =>
    fetch(`${server.url}${path}`, { method, body, headers });

  beforeAll(async () => {
    const app = createApp();
    app.use('inspect', inspector);
    app.use('uploads', uploads, { methods: ['create', 'readFile'] });
    app.use('small', inspector);
    server = await serve(app);
  });

  afterAll(async () => {
    await server.close();
  });

  it('parses application/json into the data of create, update and patch', async () => {
    const body = JSON.stringify({ text: 'hi', nested: { n: 1 }, list: [1, 2] });
    const expected = { data: { text: 'hi', nested: { n: 1 }, list: [1, 2] } };
    const headers = { 'content-type': 'application/json; charset=utf-8' };
    expect(await (await post('/inspect', body, headers)).json()).toMatchObject(expected);
    expect(await (await post('/inspect/1', body, headers, 'PUT')).json()).toEqual(expected);
    expect(await (await post('/inspect/1', body, headers, 'PATCH')).json()).toEqual(expected);
  });

  it('a JSON __proto__ key stays an own property and never changes a prototype', async () => {
    const response = await post('/inspect', '{"__proto__":{"polluted":true},"a":1}', {
      'content-type': 'application/json',
    });
    expect((await response.json()).prototypeIntact).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses application/x-www-form-urlencoded into fields, repeated names into arrays', async () => {
    const response = await post('/inspect', 'name=Ann+Lee&tag=a&tag=b&__proto__=x&empty=', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(await response.json()).toEqual({
      data: { name: 'Ann Lee', tag: ['a', 'b'], empty: '' },
      prototypeIntact: true,
    });
  });

  it('parses multipart/form-data: files as File objects, other fields as strings, repeats as arrays', async () => {
    const form = new FormData();
    form.append('title', 'holiday');
    form.append('tag', 'sea');
    form.append('tag', 'sun');
    form.append('photo', new File(['PNGDATA'], 'beach.png', { type: 'image/png' }));
    const response = await post('/inspect', form);
    expect(await response.json()).toEqual({
      data: {
        title: 'holiday',
        tag: ['sea', 'sun'],
        photo: { file: 'beach.png', type: 'image/png', size: 7 },
      },
      prototypeIntact: true,
    });
  });

  it('a custom method can read an uploaded file', async () => {
    const form = new FormData();
    form.append('title', 'notes');
    form.append('file', new File(['hello file'], 'notes.txt', { type: 'text/plain' }));
    const response = await fetch(`${server.url}/uploads`, {
      method: 'POST',
      body: form,
      headers: { 'x-service-method': 'readFile' },
    });
    expect(await response.json()).toEqual({ name: 'notes.txt', text: 'hello file', title: 'notes' });
  });

  it('passes any other content type to the service as an unread ReadableStream', async () => {
    const response = await post('/inspect', 'plain text', { 'content-type': 'text/plain' });
    expect(await response.json()).toMatchObject({ data: { stream: true } });
  });

  it('streams a 10 MiB upload to the service, which counts it chunk by chunk', async () => {
    const size = 10 * 1024 * 1024;
    const chunk = new Uint8Array(64 * 1024).fill(7);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close();
        controller.enqueue(chunk);
        sent += chunk.byteLength;
      },
    });
    const response = await fetch(`${server.url}/uploads`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/octet-stream' },
      duplex: 'half',
    } as RequestInit);
    const result = await response.json();
    expect(result.bytes).toBe(size);
    expect(result.type).toBe('application/octet-stream');
    // A buffered body would arrive as one chunk.
    expect(result.chunks).toBeGreaterThan(1);
  });

  it('answers 400 naming the content type when the body does not parse', async () => {
    const response = await post('/inspect', '{"broken": ', { 'content-type': 'application/json' });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ name: 'BadRequest', code: 400 });
    expect(body.message).toContain('application/json');
    const bad = await post('/inspect', 'no boundary', { 'content-type': 'multipart/form-data' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain('multipart/form-data');
  });

  it('answers 400 when POST, PUT or PATCH has no body', async () => {
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const response = await post(method === 'POST' ? '/inspect' : '/inspect/1', null, {}, method);
      expect(response.status, method).toBe(400);
      expect((await response.json()).message).toContain('body is required');
    }
  });

  it('answers 413 PayloadTooLarge for a parsed body with a Content-Length over 1 MiB', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024) });
    const response = await post('/inspect', big, { 'content-type': 'application/json' });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ name: 'PayloadTooLarge', code: 413 });
  });

  it('answers 413 for a chunked JSON upload as soon as it passes the limit', async () => {
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(new TextEncoder().encode(pulls === 1 ? '["' : 'x'.repeat(64 * 1024)));
      },
    });
    const response = await fetch(`${server.url}/inspect`, {
      method: 'POST',
      body: endless,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ name: 'PayloadTooLarge' });
  });
});

describe('bodyParser as Web Standard middleware (no socket)', () => {
  const app = createApp().use('inspect', inspector);

  it('cancels a body stream that passes its limit instead of reading it to the end', async () => {
    const handler = createHandler(app, [errorHandler(), queryParser(), bodyParser({ limit: 1000 })]);
    let cancelled = false;
    let produced = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        produced += 100;
        controller.enqueue(new Uint8Array(100).fill(32));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = await handler(
      new Request('http://localhost/inspect', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(cancelled).toBe(true);
    expect(produced).toBeLessThan(10_000);
  });

  it('bodyParser({ limit }) sets the limit in bytes, checked against Content-Length', async () => {
    const handler = createHandler(app, [errorHandler(), queryParser(), bodyParser({ limit: 10 })]);
    const response = await handler(
      new Request('http://localhost/inspect', {
        method: 'POST',
        body: '{"text":"more than ten bytes"}',
        headers: { 'content-type': 'application/json', 'content-length': '30' },
      }),
    );
    expect(response.status).toBe(413);
    expect((await response.json()).message).toContain('10 bytes');
  });
});
