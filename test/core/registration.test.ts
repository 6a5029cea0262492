import { describe, expect, it } from 'vitest';
import { createApp, type HookContext } from 'plume';
import { BadRequest, NotFound } from 'plume/errors';

/** Service registration cases FeathersJS applications rely on (issue 21, items 4 to 8). */

const echo = () => ({
  async get(id: string) {
    return { id };
  },
  async create(data: unknown) {
    return data;
  },
});

describe('service registration', () => {
  it('service() of Object.prototype member names throws NotFound like any unknown path', () => {
    const app = createApp().use('messages', echo());
    for (const path of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '/valueOf/']) {
      expect(() => app.service(path)).toThrow(NotFound);
    }
    expect(() => app.service('constructor')).toThrow("Can not find service 'constructor'");
    expect(Object.keys(app.services)).toEqual(['messages']);
  });

  it('paths named like Object.prototype members are ordinary paths', async () => {
    const app = createApp().use('constructor', echo()).use('__proto__', echo());
    expect(await app.service('constructor').get('1')).toEqual({ id: '1' });
    expect(await app.service('__proto__').get('2')).toEqual({ id: '2' });
    expect(Object.keys(app.services).sort()).toEqual(['__proto__', 'constructor']);
    await app.unuse('__proto__');
    expect(() => app.service('__proto__')).toThrow(NotFound);
    await expect(app.unuse('toString')).rejects.toBeInstanceOf(NotFound);
  });

  it('options.methods [] registers an internal-only service: its methods and hooks still run', async () => {
    const app = createApp();
    app.use('internal', echo(), { methods: [] });
    const seen: string[] = [];
    app.service('internal').hooks({ before: [(context: HookContext) => void seen.push(context.method)] });
    expect(await app.service('internal').get('7')).toEqual({ id: '7' });
    expect(seen).toEqual(['get']);
    // Still an error: an object without any method, setup or teardown.
    expect(() => app.use('empty', {}, { methods: [] })).toThrow(BadRequest);
  });

  it('invalid arguments to use() throw BadRequest, not a TypeError', () => {
    const app = createApp();
    const calls: [unknown, unknown][] = [
      [null, echo()],
      [undefined, echo()],
      [42, echo()],
      ['things', null],
      ['things', 'a string'],
      ['things', () => ({})],
    ];
    for (const [path, service] of calls) {
      expect(() => app.use(path as string, service as object)).toThrow(BadRequest);
    }
    expect(() => app.use(null as unknown as string, echo())).toThrow("'null' is not a valid service path");
    expect(() => app.use('things', null as unknown as object)).toThrow(
      "Invalid service object passed for path 'things'",
    );
  });

  it('hooked methods keep the own properties of the methods they wrap, symbols included', () => {
    const tag = Symbol('tag');
    const original = echo();
    const get = Object.getOwnPropertyDescriptor(original, 'get')?.value as object;
    Object.assign(get, { [tag]: 'tagged', docs: { summary: 'Get one' } });
    class Store {
      async find() {
        return [];
      }
    }
    Object.assign(Object.getOwnPropertyDescriptor(Store.prototype, 'find')?.value as object, {
      cached: true,
    });
    const app = createApp().use('echo', original).use('store', new Store());
    const method = (path: string, name: string) =>
      Object.getOwnPropertyDescriptor(app.service(path), name)?.value as Record<string | symbol, unknown>;
    const hooked = method('echo', 'get');
    expect(hooked).not.toBe(get);
    expect(hooked[tag]).toBe('tagged');
    expect(hooked.docs).toEqual({ summary: 'Get one' });
    expect(hooked.name).toBe('get');
    expect(method('store', 'find').cached).toBe(true);
  });
});

describe('one service object in two apps', () => {
  it('a plain object registered in two apps: each app emits its own events, once per call', async () => {
    const service = echo();
    const first = createApp().use('messages', service);
    const second = createApp().use('messages', service);
    const events: string[] = [];
    first.service('messages').on('created', (data) => events.push(`first ${JSON.stringify(data)}`));
    second.service('messages').on('created', (data) => events.push(`second ${JSON.stringify(data)}`));
    await first.service('messages').create({ n: 1 });
    await second.service('messages').create({ n: 2 });
    expect(events).toEqual(['first {"n":1}', 'second {"n":2}']);
  });

  it('a service of one app registered in another runs both apps’ hooks and emits once per call', async () => {
    const inner = createApp().use('dummy', echo());
    const dummy = inner.service('dummy');
    dummy.hooks({
      before: {
        create: [
          (context: HookContext) => void (context.data = { ...(context.data as object), inner: true }),
        ],
      },
    });
    const outer = createApp();
    outer.use('testing', dummy);
    outer.service('testing').hooks({
      before: {
        create: [
          (context: HookContext) => void (context.data = { ...(context.data as object), outer: true }),
        ],
      },
    });
    const events: unknown[] = [];
    dummy.on('created', (data) => events.push(data));
    expect(await outer.service('testing').create({ message: 'Hi' })).toEqual({
      message: 'Hi',
      outer: true,
      inner: true,
    });
    expect(events).toEqual([{ message: 'Hi', outer: true, inner: true }]);
    await inner.service('dummy').create({ message: 'direct' });
    expect(events).toHaveLength(2);
  });
});
