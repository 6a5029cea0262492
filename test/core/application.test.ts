import { describe, expect, it } from 'vitest';
import {
  createApp,
  type Application,
  type UntypedService,
  getResponse,
  getServiceMeta,
  getServiceMethod,
  invokeService,
  restArguments,
  type Params,
} from 'plume';
import { BadRequest, MethodNotAllowed, NotFound } from 'plume/errors';

const memory = () => ({
  items: [] as { id: number; text: string }[],
  async find(_params?: Params) {
    return this.items;
  },
  async get(id: number | string) {
    const item = this.items.find((i) => i.id === Number(id));
    if (!item) throw new NotFound(`No record found for id '${id}'`);
    return item;
  },
  async create(data: { text: string } | { text: string }[]) {
    const list = Array.isArray(data) ? data : [data];
    const created = list.map((d, index) => ({ id: this.items.length + index + 1, ...d }));
    this.items.push(...created);
    return Array.isArray(data) ? created : created[0]!;
  },
  async remove(id: number | string) {
    const item = await this.get(id);
    this.items = this.items.filter((i) => i !== item);
    return item;
  },
});

describe('application', () => {
  it('registers services on paths without slashes and finds them again', async () => {
    const app = createApp();
    app.use('/messages/', memory());
    expect(Object.keys(app.services)).toEqual(['messages']);
    await app.service('messages').create({ text: 'hi' });
    expect(await app.service('/messages').find()).toEqual([{ id: 1, text: 'hi' }]);
  });

  it('service() of an unknown path throws NotFound naming the path', () => {
    expect(() => createApp().service('nope')).toThrow(new NotFound("Can not find service 'nope'"));
  });

  it('keeps the original object reachable: its own properties and this inside methods', async () => {
    const original = memory();
    const app = createApp().use('m', original);
    await app.service('m').create({ text: 'a' });
    expect(original.items).toHaveLength(1);
    expect((app.service('m') as unknown as { items: unknown[] }).items).toBe(original.items);
  });

  it('rejects a service without methods, a taken path and reserved or unimplemented method names', () => {
    const app = createApp();
    expect(() => app.use('empty', {})).toThrow(BadRequest);
    app.use('m', memory());
    expect(() => app.use('m', memory())).toThrow("Path 'm' already exists");
    expect(() => app.use('a', memory(), { methods: ['find', 'hooks'] })).toThrow('not allowed');
    expect(() => app.use('b', memory(), { methods: ['_find'] })).toThrow('not allowed');
    expect(() => app.use('c', memory(), { methods: ['constructor'] })).toThrow('not allowed');
    expect(() => app.use('d', memory(), { methods: ['missing'] })).toThrow('does not implement');
  });

  it('calls custom methods listed in options.methods with (data, params) through hooks', async () => {
    const app = createApp();
    app.use(
      'calc',
      {
        async sum(data: { values: number[] }, params: Params) {
          return { total: data.values.reduce((a, b) => a + b, 0), by: params.user };
        },
      },
      { methods: ['sum'] },
    );
    app.service('calc').hooks({ before: { sum: [(context) => void (context.params.user = 'hook')] } });
    const calc = app.service('calc') as unknown as { sum(d: unknown, p?: Params): Promise<unknown> };
    expect(await calc.sum({ values: [1, 2, 3] })).toEqual({ total: 6, by: 'hook' });
  });

  it('a typed app, its services described by an interface, is accepted where plume takes an Application', () => {
    // FeathersJS' generated declarations.ts: `export interface ServiceTypes {}`, augmented per service.
    interface ServiceTypes {
      things: UntypedService;
    }
    const app = createApp<ServiceTypes>();
    const takesApp = (target: Application) => target.service('things');
    app.use('things', { find: async () => [] });
    expect(takesApp(app)).toBe(app.service('things'));
  });

  it('get/set store settings and configure calls the function with the app', () => {
    const app = createApp();
    expect(app.set('port', 3030)).toBe(app);
    expect(app.get('port')).toBe(3030);
    let received: unknown;
    app.configure(function (this: unknown, a) {
      received = [this, a];
    });
    expect(received).toEqual([app, app]);
  });

  it('setup and teardown call each service in order and reverse order; use after setup sets the new service up', async () => {
    const app = createApp();
    const calls: string[] = [];
    const tracked = (name: string) => ({
      async find() {
        return [];
      },
      async setup(a: unknown, path: string) {
        calls.push(`setup ${name} ${path} ${a === app}`);
      },
      async teardown(_a: unknown, path: string) {
        calls.push(`teardown ${path}`);
      },
    });
    app.use('one', tracked('1')).use('two', tracked('2'));
    const server = { fake: true };
    await app.setup(server);
    expect(app.server).toBe(server);
    app.use('three', tracked('3'));
    await new Promise((resolve) => setImmediate(resolve));
    await app.teardown();
    expect(calls).toEqual([
      'setup 1 one true',
      'setup 2 two true',
      'setup 3 three true',
      'teardown three',
      'teardown two',
      'teardown one',
    ]);
  });

  it('unuse removes the service, tears it down and returns the original object', async () => {
    const app = createApp();
    let tornDown = false;
    const original = { ...memory(), teardown: () => void (tornDown = true) };
    app.use('m', original);
    expect(await app.unuse('/m/')).toBe(original);
    expect(tornDown).toBe(true);
    expect(app.lookup('m')).toBeNull();
    expect(() => app.service('m')).toThrow(NotFound);
    app.use('m', memory());
  });
});

describe('routing with placeholders', () => {
  it('lookup gives the service, the route params and the id', () => {
    const app = createApp();
    app.use('users/:userId/messages', memory());
    app.use('users', memory());
    const messages = app.service('users/:userId/messages');
    expect(app.lookup('/users/42/messages')).toMatchObject({
      value: messages,
      route: { userId: '42' },
      id: null,
    });
    expect(app.lookup('users/42/messages/7/')).toMatchObject({ route: { userId: '42' }, id: '7' });
    expect(app.lookup('users/42')).toMatchObject({ value: app.service('users'), route: {}, id: '42' });
    expect(app.lookup('users/42/messages/7/extra')).toBeNull();
    expect(app.lookup('nothing')).toBeNull();
  });

  it('exact segments win over placeholders', () => {
    const app = createApp();
    app.use(':tenant/items', memory());
    app.use('admin/items', memory());
    expect(app.lookup('admin/items')?.path).toBe('admin/items');
    expect(app.lookup('acme/items')).toMatchObject({ path: ':tenant/items', route: { tenant: 'acme' } });
  });

  it('a path that is also the start of a longer one is still found with an id', () => {
    const app = createApp();
    app.use('a', memory());
    app.use('a/b/c', memory());
    app.use('messages', memory());
    app.use('messages/archive', memory());
    // `a/b` is a step towards `a/b/c`, not a service: `b` is an id of `a`.
    expect(app.lookup('/a/b')).toMatchObject({ path: 'a', id: 'b' });
    expect(app.lookup('/a/b/c')).toMatchObject({ path: 'a/b/c', id: null });
    expect(app.lookup('/a/b/c/d')).toMatchObject({ path: 'a/b/c', id: 'd' });
    expect(app.lookup('/messages/archive')).toMatchObject({ path: 'messages/archive', id: null });
    expect(app.lookup('/messages/archive/7')).toMatchObject({ path: 'messages/archive', id: '7' });
    expect(app.lookup('//messages//')).toMatchObject({ path: 'messages', id: null });
    expect(app.lookup('/messages/%E2%82%AC')).toMatchObject({ path: 'messages', id: '€' });
    expect(app.lookup('/messages//3')).toBeNull();
    expect(() => app.lookup('/messages/%E2%82')).toThrow(BadRequest);
  });

  it('finds every one of many sibling paths, before and after the ninth is registered', () => {
    // The router compares a few sibling names one by one and hashes many: both must find the same.
    const app = createApp();
    const names = Array.from({ length: 12 }, (_, i) => `s${i}`);
    for (const [index, name] of names.entries()) {
      app.use(name, memory());
      app.use(`api/${name}`, memory());
      app.use(`api/${name}/:parentId/children`, memory());
      for (const known of names.slice(0, index + 1)) {
        expect(app.lookup(`/${known}/7`)).toMatchObject({ path: known, id: '7' });
        expect(app.lookup(`/api/${known}`)).toMatchObject({ path: `api/${known}`, id: null });
        expect(app.lookup(`/api/${known}/4/children/5`)).toMatchObject({
          path: `api/${known}/:parentId/children`,
          route: { parentId: '4' },
          id: '5',
        });
      }
      expect(app.lookup(`/s${index + 1}`)).toBeNull();
      expect(app.lookup(`/api/s${index + 1}/4/children`)).toBeNull();
    }
    expect(app.lookup('/S1')).toBeNull();
    expect(app.lookup('/s1x')).toBeNull();
  });

  it('a placeholder path under a service takes the segment before it counts as an id', () => {
    const app = createApp();
    app.use('messages', memory());
    app.use('messages/:messageId', memory());
    expect(app.lookup('/messages/3')).toMatchObject({
      path: 'messages/:messageId',
      route: { messageId: '3' },
      id: null,
    });
    expect(app.lookup('/messages')).toMatchObject({ path: 'messages', id: null });
  });

  it('URL-decodes route values and ids, and rejects malformed percent-encoding with 400', () => {
    const app = createApp();
    app.use('files/:folder/entries', memory());
    expect(app.lookup('files/a%2Fb/entries/x%20y')).toMatchObject({ route: { folder: 'a/b' }, id: 'x y' });
    expect(() => app.lookup('files/%E0%A4%A/entries')).toThrow(BadRequest);
  });

  it('routeParams from the service options are merged into the route', () => {
    const app = createApp();
    app.use('v1/items', memory(), { routeParams: { version: '1' } });
    expect(app.lookup('v1/items/3')).toMatchObject({ route: { version: '1' }, id: '3' });
  });
});

describe('events', () => {
  it('emits created, updated, patched and removed after success, one event per array item', async () => {
    const app = createApp();
    app.use('m', memory());
    const service = app.service('m');
    const events: unknown[] = [];
    service.on('created', (item, context) =>
      events.push(['created', item, (context as { method: string }).method]),
    );
    service.on('removed', (item) => events.push(['removed', item]));
    await service.create([{ text: 'a' }, { text: 'b' }]);
    await service.remove(1);
    await expect(service.remove(99)).rejects.toThrow(NotFound);
    expect(events).toEqual([
      ['created', { id: 1, text: 'a' }, 'create'],
      ['created', { id: 2, text: 'b' }, 'create'],
      ['removed', { id: 1, text: 'a' }],
    ]);
  });

  it('does not emit an event set to null by a hook, or one the service lists in its events option', async () => {
    const app = createApp();
    app.use('quiet', memory());
    app.use('own', memory(), { events: ['created'] });
    app.service('quiet').hooks({ before: [(context) => void (context.event = null)] });
    let count = 0;
    app.service('quiet').on('created', () => count++);
    app.service('own').on('created', () => count++);
    await app.service('quiet').create({ text: 'x' });
    await app.service('own').create({ text: 'x' });
    expect(count).toBe(0);
  });

  it("takes custom events from the service's own events array when options do not list any", async () => {
    const app = createApp();
    app.use('own', Object.assign(memory(), { events: ['created', 'typing'] }));
    let count = 0;
    app.service('own').on('created', () => count++);
    await app.service('own').create({ text: 'x' });
    expect(count).toBe(0);
    expect(getServiceMeta(app.service('own'))?.options.events).toEqual(['created', 'typing']);
  });
});

describe('REST mapping shared by the transports', () => {
  const app = createApp();
  app.use(
    'm',
    {
      ...memory(),
      async ping() {
        return 'pong';
      },
    },
    { methods: ['find', 'get', 'create', 'ping'] },
  );
  const service = app.service('m');

  it('maps HTTP methods and ids to service methods', () => {
    expect(getServiceMethod(service, 'GET', null)).toBe('find');
    expect(getServiceMethod(service, 'HEAD', null)).toBe('find');
    expect(getServiceMethod(service, 'GET', '1')).toBe('get');
    expect(getServiceMethod(service, 'POST', null)).toBe('create');
    expect(getServiceMethod(service, 'POST', null, 'ping')).toBe('ping');
  });

  it('reads the HTTP method in any case, as `Request` leaves `patch` and unknown methods as sent', () => {
    expect(getServiceMethod(service, 'get', '1')).toBe('get');
    expect(getServiceMethod(service, 'Head', null)).toBe('find');
    expect(getServiceMethod(service, 'post', null, 'ping')).toBe('ping');
    expect(() => getServiceMethod(service, 'patch', '1')).toThrow(/Method `patch` is not supported/);
    expect(() => getServiceMethod(service, 'delete', '1')).toThrow(/Method `remove` is not supported/);
    expect(() => getServiceMethod(service, 'trace', null)).toThrow(/Method TRACE is not allowed/);
  });

  it('answers 405 for unexposed, unknown and standard names in X-Service-Method, and for POST with an id', () => {
    for (const [verb, id, override] of [
      ['DELETE', '1', null],
      ['PATCH', '1', null],
      ['POST', null, 'create'],
      ['POST', null, 'setup'],
      ['POST', null, '_find'],
      ['POST', null, 'constructor'],
      ['POST', '1', null],
      ['TRACE', null, null],
    ] as const) {
      expect(() => getServiceMethod(service, verb, id, override)).toThrow(MethodNotAllowed);
    }
  });

  it('orders arguments per method', () => {
    const params = { provider: 'rest' };
    expect(restArguments('find', { id: null, data: undefined, params })).toEqual([params]);
    expect(restArguments('patch', { id: '1', data: { a: 1 }, params })).toEqual(['1', { a: 1 }, params]);
    expect(restArguments('ping', { id: null, data: { a: 1 }, params })).toEqual([{ a: 1 }, params]);
  });

  it('derives status codes and headers from the hook context', async () => {
    const created = await invokeService(app, service, 'create', [{ text: 'x' }, {}]);
    expect(getResponse(created)).toMatchObject({ status: 201, body: { text: 'x' } });
    const found = await invokeService(app, service, 'find', [{}]);
    expect(getResponse(found).status).toBe(200);
    found.result = null;
    expect(getResponse(found).status).toBe(204);
    found.result = 0;
    expect(getResponse(found)).toMatchObject({ status: 200, body: 0 });
    found.dispatch = { safe: true };
    found.http = { headers: { 'x-total': '3' }, location: '/m/1' };
    expect(getResponse(found)).toEqual({
      status: 303,
      headers: { 'x-total': '3', location: '/m/1' },
      body: { safe: true },
    });
    found.http.status = 202;
    expect(getResponse(found).status).toBe(202);
  });
});
