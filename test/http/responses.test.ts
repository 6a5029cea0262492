import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, type HookContext } from 'plume';
import { BadRequest } from 'plume/errors';
import type { RunningServer } from '../transports/servers.js';
import { readEvents, serve } from './helpers.js';

describe('responses', () => {
  let server: RunningServer;
  let releaseSecond: () => void = () => undefined;
  let streamClosed: Promise<void>;
  let markStreamClosed: () => void = () => undefined;

  beforeAll(async () => {
    const app = createApp();
    app.use('files', {
      async get(id: string) {
        return new Response(`contents of ${id}`, {
          status: 202,
          headers: { 'content-type': 'text/plain', 'x-file': id },
        });
      },
    });
    app.use('counter', {
      // A finite stream: three events, then the response ends.
      async find() {
        return (async function* () {
          for (let n = 1; n <= 3; n++) yield { n };
        })();
      },
    });
    app.use('ticker', {
      // An endless stream; its finally block tells the test the iterator was closed.
      async find() {
        return (async function* () {
          try {
            for (let i = 0; ; i++) {
              yield { tick: i };
              await sleep(5);
            }
          } finally {
            markStreamClosed();
          }
        })();
      },
    });
    app.use('stepper', {
      // Yields once, then waits for the test: the first event must arrive before the second exists.
      async find() {
        return (async function* () {
          yield { step: 1 };
          await new Promise<void>((resolve) => (releaseSecond = resolve));
          yield { step: 2 };
        })();
      },
    });
    app.use('failing-stream', {
      async find() {
        return (async function* () {
          yield { ok: true };
          throw new BadRequest('Stream broke');
        })();
      },
    });
    app.use('items', {
      async find() {
        return [{ id: 1 }];
      },
      async get(id: string) {
        return { id };
      },
      async create(data: unknown) {
        return data;
      },
      async remove() {
        return null;
      },
    });
    app.service('items').hooks({
      after: {
        find: [
          (context: HookContext) => {
            context.http.headers = { 'set-cookie': ['a=1; Path=/', 'b=2; HttpOnly'], 'x-count': '1' };
          },
        ],
        get: [
          (context: HookContext) => {
            if (context.id === 'text') context.http.headers = { 'content-type': 'text/plain' };
          },
        ],
        create: [
          (context: HookContext) => {
            context.http.location = `/items/${(context.result as { id: string }).id}`;
          },
        ],
      },
    });
    server = await serve(app);
  });

  afterAll(async () => {
    await server.close();
  });

  it('sends a Response returned by a service as it is, with its status and headers', async () => {
    const response = await fetch(`${server.url}/files/report.txt`);
    expect(response.status).toBe(202);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(response.headers.get('x-file')).toBe('report.txt');
    expect(await response.text()).toBe('contents of report.txt');
  });

  it('sends an async iterator as text/event-stream, one data line per item, ending with the iterator', async () => {
    const response = await fetch(`${server.url}/counter`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(await response.text()).toBe('data: {"n":1}\n\ndata: {"n":2}\n\ndata: {"n":3}\n\n');
  });

  it('flushes each event as soon as it is yielded', async () => {
    const response = await fetch(`${server.url}/stepper`);
    const first = await readEvents(response, 1);
    expect(first.events).toEqual(['data: {"step":1}']);
    releaseSecond();
    const { value } = await first.reader.read();
    expect(new TextDecoder().decode(value)).toBe('data: {"step":2}\n\n');
  });

  it('closes the iterator (its finally runs) when the client disconnects', async () => {
    streamClosed = new Promise<void>((resolve) => (markStreamClosed = resolve));
    const controller = new AbortController();
    const response = await fetch(`${server.url}/ticker`, { signal: controller.signal });
    const { events } = await readEvents(response, 2);
    expect(events).toEqual(['data: {"tick":0}', 'data: {"tick":1}']);
    controller.abort();
    await streamClosed;
    // The server is still healthy afterwards.
    expect((await fetch(`${server.url}/items`)).status).toBe(200);
  });

  it('ends a stream whose iterator throws with an error event carrying the error JSON', async () => {
    const response = await fetch(`${server.url}/failing-stream`);
    const text = await response.text();
    expect(text).toBe(
      'data: {"ok":true}\n\nevent: error\ndata: {"name":"BadRequest","message":"Stream broke","code":400,"className":"bad-request"}\n\n',
    );
  });

  it('sends two Set-Cookie headers from http.headers separately', async () => {
    const response = await fetch(`${server.url}/items`);
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; HttpOnly']);
    expect(response.headers.get('x-count')).toBe('1');
  });

  it('lets http.headers override the JSON content type', async () => {
    const response = await fetch(`${server.url}/items/text`);
    expect(response.headers.get('content-type')).toBe('text/plain');
  });

  it('create answers 201 with a Location header; a null result answers 204', async () => {
    const created = await fetch(`${server.url}/items`, {
      method: 'POST',
      body: JSON.stringify({ id: 'n 1' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/items/n%201');
    expect(await created.json()).toEqual({ id: 'n 1' });
    const removed = await fetch(`${server.url}/items/1`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
  });

  it('HEAD answers like GET, with the same status and headers and no body', async () => {
    const get = await fetch(`${server.url}/items/abc`);
    const head = await fetch(`${server.url}/items/abc`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String((await get.text()).length));
    expect(await head.text()).toBe('');
    const find = await fetch(`${server.url}/items`, { method: 'HEAD' });
    expect(find.headers.getSetCookie()).toHaveLength(2);
    expect(await find.text()).toBe('');
  });

  it('HEAD on a stream closes the iterator without reading from it', async () => {
    let nextCalls = 0;
    let markReturned: () => void = () => undefined;
    const returned = new Promise<void>((resolve) => (markReturned = resolve));
    const app = createApp().use('probe', {
      async find() {
        return {
          [Symbol.asyncIterator]: () => ({
            next: async () => ({ value: ++nextCalls, done: false }),
            return: async () => {
              markReturned();
              return { value: undefined, done: true as const };
            },
          }),
        };
      },
    });
    const local = await serve(app);
    try {
      const head = await fetch(`${local.url}/probe`, { method: 'HEAD' });
      expect(head.headers.get('content-type')).toBe('text/event-stream');
      expect(await head.text()).toBe('');
      await returned;
      expect(nextCalls).toBe(0);
    } finally {
      await local.close();
    }
  });

  it('a result JSON cannot represent answers 500 and is logged', async () => {
    const app = createApp().use('cyclic', {
      async find() {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    });
    const local = await serve(app);
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await fetch(`${local.url}/cyclic`);
      expect(response.status).toBe(500);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
      await local.close();
    }
  });
});
