import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HookContext, Params } from 'plume';
import { BadRequest, NotFound } from 'plume/errors';
import { transports, type RunningServer } from './servers.js';

/**
 * The REST behaviour every HTTP transport shares (spec: "REST mapping", "Request params"): the same
 * requests must get the same answers from the Web Standard handler and from Express. Requests send
 * `Accept: application/json`, since Express answers errors with HTML otherwise (spec: "Errors").
 *
 * Left out on purpose, because SEED.md lets the transports differ (each is tested in its own folder):
 * - query arrays longer than 20 items (Express turns them into objects, spec "Limits"; the Web
 *   Standard handler keeps arrays up to 100 indices);
 * - body types other than JSON and CORS (Web Standard only);
 * - a method resolving `undefined` (Express falls through to `notFound`);
 * - `params.request` (Web Standard) versus `req.framework` properties (Express).
 */

interface Todo {
  id: number;
  text: string;
  done?: boolean;
}

function todoService() {
  let items: Todo[] = [];
  let nextId = 1;
  const find = (id: number | string): Todo => {
    const item = items.find((i) => i.id === Number(id));
    if (item === undefined) throw new NotFound(`No record found for id '${id}'`);
    return item;
  };
  return {
    async find(params?: Params) {
      const done = params?.query?.done;
      return done === undefined ? items : items.filter((i) => String(i.done ?? false) === done);
    },
    async get(id: number | string) {
      return find(id);
    },
    async create(data: Omit<Todo, 'id'>) {
      const item = { ...data, id: nextId++ };
      items.push(item);
      return item;
    },
    async update(id: number | string, data: Omit<Todo, 'id'>) {
      const item = { ...data, id: find(id).id };
      items = items.map((i) => (i.id === item.id ? item : i));
      return item;
    },
    async patch(id: number | string, data: Partial<Todo>) {
      return Object.assign(find(id), data, { id: Number(id) });
    },
    async remove(id: number | string) {
      const item = find(id);
      items = items.filter((i) => i !== item);
      return item;
    },
    async archive(data: { ids: number[] }, params: Params) {
      return { archived: data.ids, provider: params.provider };
    },
    async secret() {
      return 'never over HTTP';
    },
  };
}

const echoService = {
  async find(params: Params) {
    return { query: params.query, provider: params.provider, route: params.route };
  },
  async get(id: string, params: Params) {
    return { id, route: params.route, query: params.query };
  },
};

const statusService = {
  async find() {
    return null;
  },
  async get(id: string) {
    if (id === 'bad') throw new BadRequest('Bad id', { data: { id } });
    if (id === 'crash') throw new Error('connection string postgres://secret');
    return { id };
  },
  async create(data: unknown) {
    return data;
  },
};

/** `get` answers a Web Standard `Response`; `find` an async iterator of three items (Server-Sent Events). */
const rawService = {
  async get(id: string) {
    return new Response(`file ${id}`, {
      status: 207,
      headers: { 'content-type': 'text/plain', 'x-file': id },
    });
  },
  async find() {
    return (async function* () {
      yield { n: 1 };
      yield 'two';
      yield [3];
    })();
  },
};

const json = { accept: 'application/json' };
const jsonBody = { ...json, 'content-type': 'application/json' };

describe.each(transports)('REST over $name', (transport) => {
  let server: RunningServer;
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { ...json, ...(init.headers as object) } });
  const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { ...jsonBody, ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    const app = transport.createApp();
    app.use('todos', todoService(), {
      methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'archive'],
    });
    app.use('readonly', { find: (params: Params) => echoService.find(params) });
    app.use('echo', echoService);
    app.use('users/:userId/messages', echoService);
    app.use('statuses', statusService);
    app.use('raw', rawService);
    app.service('statuses').hooks({
      after: {
        get: [
          (context: HookContext) => {
            if (context.id === 'teapot') context.http.status = 418;
            if (context.id === 'moved') context.http.location = '/statuses/new place';
            if (context.id === 'headers') context.http.headers = { 'x-total': '42' };
          },
        ],
      },
    });
    server = await transport.start(app);
  });

  afterAll(async () => {
    await server.close();
  });

  describe('method mapping', () => {
    it('POST creates with 201 and returns the created record', async () => {
      const response = await send('POST', '/todos', { text: 'write tests' });
      expect(response.status).toBe(201);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({ id: 1, text: 'write tests' });
    });

    it('GET on the path finds, GET with an id gets, both with 200', async () => {
      await send('POST', '/todos', { text: 'second', done: true });
      const list = await call('/todos');
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([
        { id: 1, text: 'write tests' },
        { id: 2, text: 'second', done: true },
      ]);
      const one = await call('/todos/2');
      expect(one.status).toBe(200);
      expect(await one.json()).toEqual({ id: 2, text: 'second', done: true });
    });

    it('PUT updates, PATCH patches and DELETE removes the record with that id', async () => {
      const updated = await send('PUT', '/todos/1', { text: 'replaced' });
      expect(updated.status).toBe(200);
      expect(await updated.json()).toEqual({ id: 1, text: 'replaced' });
      const patched = await send('PATCH', '/todos/1', { done: true });
      expect(await patched.json()).toEqual({ id: 1, text: 'replaced', done: true });
      const removed = await call('/todos/1', { method: 'DELETE' });
      expect(removed.status).toBe(200);
      expect(await removed.json()).toEqual({ id: 1, text: 'replaced', done: true });
      expect((await call('/todos/1')).status).toBe(404);
    });

    it('the query string reaches find as params.query', async () => {
      const response = await call('/todos?done=true');
      expect(await response.json()).toEqual([{ id: 2, text: 'second', done: true }]);
    });
  });

  describe('status codes and headers', () => {
    it('a method resolving null answers 204 with an empty body', async () => {
      const response = await call('/statuses');
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
    });

    it('http.status set by a hook wins over the default', async () => {
      const response = await call('/statuses/teapot');
      expect(response.status).toBe(418);
      expect(await response.json()).toEqual({ id: 'teapot' });
    });

    it('http.location answers 303 with an encoded Location header', async () => {
      const response = await call('/statuses/moved', { redirect: 'manual' });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/statuses/new%20place');
    });

    it('http.headers are sent', async () => {
      const response = await call('/statuses/headers');
      expect(response.headers.get('x-total')).toBe('42');
    });
  });

  describe('errors', () => {
    it('a plume error thrown by the service answers its status with the toJSON() body', async () => {
      const response = await call('/statuses/bad');
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual({
        name: 'BadRequest',
        message: 'Bad id',
        code: 400,
        className: 'bad-request',
        data: { id: 'bad' },
      });
    });

    it('an unexpected error answers 500 GeneralError without a stack', async () => {
      const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const response = await call('/statuses/crash');
        expect(response.status).toBe(500);
        const body = await response.json();
        expect(body).toMatchObject({ name: 'GeneralError', code: 500, className: 'general-error' });
        expect(body).not.toHaveProperty('stack');
      } finally {
        spy.mockRestore();
      }
    });

    it('a path no service is registered on answers 404 NotFound JSON', async () => {
      for (const path of ['/nothing-here', '/todos/1/extra', '/users/1']) {
        const response = await call(path);
        expect(response.status, path).toBe(404);
        expect(await response.json()).toMatchObject({ name: 'NotFound', code: 404 });
      }
    });

    it('an HTTP method the service does not implement answers 405 MethodNotAllowed JSON', async () => {
      const removed = await call('/readonly', { method: 'DELETE' });
      expect(removed.status).toBe(405);
      expect(await removed.json()).toMatchObject({ name: 'MethodNotAllowed', code: 405 });
      expect((await send('POST', '/readonly', { a: 1 })).status).toBe(405);
      expect((await send('PATCH', '/readonly/1', { a: 1 })).status).toBe(405);
      expect((await call('/readonly/1')).status).toBe(405);
    });

    it('POST with an id answers 405', async () => {
      expect((await send('POST', '/todos/1', { text: 'x' })).status).toBe(405);
    });
  });

  describe('custom methods', () => {
    it('POST with X-Service-Method calls the listed custom method with (data, params)', async () => {
      const response = await send('POST', '/todos', { ids: [1, 2] }, { 'x-service-method': 'archive' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ archived: [1, 2], provider: 'rest' });
    });

    it('POST on an id with X-Service-Method answers 405 instead of dropping the id', async () => {
      const response = await send('POST', '/todos/1', { ids: [1] }, { 'x-service-method': 'archive' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).not.toContain('POST');
      expect(await response.json()).toMatchObject({
        name: 'MethodNotAllowed',
        message: 'Method `archive` is called on the collection, not on an id',
      });
    });

    it.each(['secret', 'create', 'find', '_find', 'setup', 'constructor', 'hooks', 'nonexistent'])(
      'X-Service-Method %s (not a listed custom method) answers 405',
      async (method) => {
        const response = await send('POST', '/todos', { text: 'x' }, { 'x-service-method': method });
        expect(response.status).toBe(405);
        expect(await response.json()).toMatchObject({ name: 'MethodNotAllowed', code: 405 });
      },
    );
  });

  describe('params', () => {
    it("sets provider 'rest', an empty route and an empty query on a plain find", async () => {
      const response = await call('/echo');
      expect(await response.json()).toEqual({ query: {}, provider: 'rest', route: {} });
    });

    it('parses nested brackets in the query string and keeps every value a string', async () => {
      const response = await call('/echo?a[b]=1&list[]=x&list[]=y&n=5&$limit=2&flag=true&t[$in][]=3');
      const body = await response.json();
      expect(body.query).toEqual({
        a: { b: '1' },
        list: ['x', 'y'],
        n: '5',
        $limit: '2',
        flag: 'true',
        t: { $in: ['3'] },
      });
    });

    it('keeps a query array of 20 items an array on every transport', async () => {
      const items = Array.from({ length: 20 }, (_, i) => `ids[]=${i}`).join('&');
      const body = await (await call(`/echo?${items}`)).json();
      expect(body.query.ids).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    });

    it('fills params.route from path placeholders, with and without an id', async () => {
      const list = await call('/users/42/messages?x=1');
      expect(await list.json()).toEqual({ query: { x: '1' }, provider: 'rest', route: { userId: '42' } });
      const one = await call('/users/42/messages/7');
      expect(await one.json()).toEqual({ id: '7', route: { userId: '42' }, query: {} });
    });

    it('URL-decodes ids and placeholder values', async () => {
      const response = await call('/users/a%20b/messages/c%C3%A9');
      expect(await response.json()).toEqual({ id: 'cé', route: { userId: 'a b' }, query: {} });
    });
  });
});
