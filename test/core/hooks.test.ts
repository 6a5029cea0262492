import { describe, expect, it } from 'vitest';
import { createApp, type HookContext } from 'plume';
import { BadRequest, NotFound } from 'plume/errors';

function setup() {
  const log: string[] = [];
  const app = createApp();
  app.use('things', {
    async find() {
      log.push('method');
      return [{ id: 1 }];
    },
    async get(id: string | number) {
      log.push('method');
      if (id === 'missing') throw new NotFound('No record found for id missing');
      return { id };
    },
  });
  const around = (name: string) => async (_context: HookContext, next: () => Promise<void>) => {
    log.push(`${name} in`);
    await next();
    log.push(`${name} out`);
  };
  const regular = (name: string) => () => {
    log.push(name);
  };
  return { app, log, around, regular, service: app.service('things') };
}

describe('hook execution order (docs/hooks.md)', () => {
  it('runs app around/before, service around/before, method, service after, app after', async () => {
    const { app, log, around, regular, service } = setup();
    app.hooks({
      around: { all: [around('app around all')], find: [around('app around find')] },
      before: { all: regular('app before all'), find: [regular('app before find')] },
      after: { all: [regular('app after all')], find: regular('app after find') },
    });
    service.hooks({
      around: { all: [around('service around all')], find: [around('service around find')] },
      before: { all: [regular('service before all')], find: [regular('service before find')] },
      after: { all: [regular('service after all')], find: [regular('service after find')] },
    });
    await service.find();
    expect(log).toEqual([
      'app around all in',
      'app around find in',
      'app before all',
      'app before find',
      'service around all in',
      'service around find in',
      'service before all',
      'service before find',
      'method',
      'service after all',
      'service after find',
      'service around find out',
      'service around all out',
      'app after all',
      'app after find',
      'app around find out',
      'app around all out',
    ]);
  });

  it('runs hooks of one kind in registration order, including later hooks() calls', async () => {
    const { log, regular, service } = setup();
    service.hooks({ before: [regular('first'), regular('second')] });
    service.hooks({ before: { find: regular('third') } });
    service.hooks({ before: regular('fourth') });
    await service.find();
    expect(log).toEqual(['first', 'second', 'fourth', 'third', 'method']);
  });

  it('an array given to hooks() is a list of around hooks for all methods', async () => {
    const { log, around, service } = setup();
    service.hooks([around('a')]);
    await service.get(1);
    expect(log).toEqual(['a in', 'method', 'a out']);
  });

  it('a before hook that sets context.result skips the method and inner levels; after hooks still run', async () => {
    const { app, log, regular, service } = setup();
    app.hooks({
      before: [
        (context) => {
          log.push('app before');
          context.result = ['from cache'];
        },
        regular('app before 2'),
      ],
      after: [regular('app after')],
    });
    service.hooks({ before: [regular('service before')] });
    expect(await service.find()).toEqual(['from cache']);
    expect(log).toEqual(['app before', 'app before 2', 'app after']);
  });

  it('context.type is before, after or error inside regular hooks and around otherwise', async () => {
    const { service } = setup();
    const types: string[] = [];
    service.hooks({
      around: {
        all: [
          async (context, next) => {
            types.push(context.type);
            await next();
            types.push(context.type);
          },
        ],
      },
      before: [(context) => void types.push(context.type)],
      after: [(context) => void types.push(context.type)],
      error: [(context) => void types.push(context.type)],
    });
    await service.find();
    await expect(service.get('missing')).rejects.toBeInstanceOf(NotFound);
    expect(types).toEqual(['around', 'before', 'after', 'around', 'around', 'before', 'error']);
  });

  it('error hooks run method-specific first, then all; setting result recovers', async () => {
    const { app, log, service } = setup();
    service.hooks({
      error: {
        all: [
          (context) => {
            log.push(`service error all: ${(context.error as Error).name}`);
            context.result = { recovered: true };
          },
        ],
        get: [(context) => void log.push(`service error get (original method ${context.original?.method})`)],
      },
    });
    app.hooks({ after: [(context) => void log.push(`app after: ${JSON.stringify(context.result)}`)] });
    expect(await service.get('missing')).toEqual({ recovered: true });
    expect(log).toEqual([
      'method',
      'service error get (original method get)',
      'service error all: NotFound',
      'app after: {"recovered":true}',
    ]);
  });

  it('an error hook can replace the error, and unrecovered errors reach the app error hooks and the caller', async () => {
    const { app, service } = setup();
    const seen: string[] = [];
    service.hooks({
      error: [
        () => {
          throw new BadRequest('replaced');
        },
      ],
    });
    app.hooks({ error: [(context) => void seen.push((context.error as Error).message)] });
    await expect(service.get('missing')).rejects.toThrow('replaced');
    expect(seen).toEqual(['replaced']);
  });

  it('a before hook may change id, data and params, and the method receives them', async () => {
    const app = createApp();
    app.use('echo', {
      async patch(id: unknown, data: unknown, params: unknown) {
        return { id, data, params };
      },
    });
    app.service('echo').hooks({
      before: {
        patch: [
          (context) => {
            context.id = 'changed';
            context.data = { changed: true };
            context.params = { ...context.params, user: 'alice' };
          },
        ],
      },
    });
    expect(await app.service('echo').patch(1, { a: 1 }, { query: {} })).toEqual({
      id: 'changed',
      data: { changed: true },
      params: { query: {}, user: 'alice' },
    });
  });

  it('calling next() twice in an around hook rejects instead of running the method twice', async () => {
    const { log, service } = setup();
    service.hooks([
      async (_context, next) => {
        await next();
        await next();
      },
    ]);
    await expect(service.find()).rejects.toThrow('next() called multiple times');
    expect(log).toEqual(['method']);
  });

  it('an unknown hook type is rejected', () => {
    const { service } = setup();
    expect(() => service.hooks({ befor: [] })).toThrow("'befor' is not a valid hook type");
  });

  it('an around hook that sets context.result before next() skips the method; inner hooks still run', async () => {
    const { app, log, around, regular, service } = setup();
    app.hooks({ after: [regular('app after')] });
    service.hooks({
      around: {
        find: [
          async (context, next) => {
            log.push('cache');
            context.result = ['from cache'];
            await next();
          },
          around('inner around'),
        ],
      },
      before: [regular('service before')],
      after: [regular('service after')],
    });
    expect(await service.find()).toEqual(['from cache']);
    expect(log).toEqual([
      'cache',
      'inner around in',
      'service before',
      'service after',
      'inner around out',
      'app after',
    ]);
    // Without a result set beforehand the method runs as usual.
    log.length = 0;
    expect(await service.get(1)).toEqual({ id: 1 });
    expect(log).toEqual(['service before', 'method', 'service after', 'app after']);
  });

  it('calls every hook with this = the service, whose own properties it can read', async () => {
    const app = createApp();
    app.use('things', {
      prefix: 'thing:',
      async get(id: string) {
        if (id === 'missing') throw new NotFound('missing');
        return { id };
      },
    });
    const service = app.service('things');
    const seen: [string, unknown][] = [];
    function record(this: { prefix: string }, name: string) {
      seen.push([name, this]);
      return this.prefix;
    }
    app.hooks({
      around: [
        async function (this: { prefix: string }, _context: HookContext, next: () => Promise<void>) {
          record.call(this, 'app around');
          await next();
        },
      ],
      before: [
        function (this: { prefix: string }) {
          record.call(this, 'app before');
        },
      ],
    });
    service.hooks({
      around: {
        get: [
          async function (this: { prefix: string }, context: HookContext, next: () => Promise<void>) {
            context.params = { ...context.params, label: record.call(this, 'service around') };
            await next();
          },
        ],
      },
      after: [
        function (this: { prefix: string }) {
          record.call(this, 'service after');
        },
      ],
      error: [
        function (this: { prefix: string }, context: HookContext) {
          context.result = { recovered: record.call(this, 'service error') };
        },
      ],
    });
    expect(await service.get('a')).toEqual({ id: 'a' });
    expect(await service.get('missing')).toEqual({ recovered: 'thing:' });
    expect(seen.map(([name]) => name)).toEqual([
      'app around',
      'app before',
      'service around',
      'service after',
      'app around',
      'app before',
      'service around',
      'service error',
    ]);
    for (const [, self] of seen) expect(self).toBe(service);
  });

  it('accepts a method map of around hooks: { all, <method> } as in FeathersJS', async () => {
    const { app, log, around, service } = setup();
    service.hooks({ get: [around('get only')], all: [around('all methods')] });
    app.hooks({ find: around('app find') });
    await service.get(1);
    await service.find();
    expect(log).toEqual([
      'all methods in',
      'get only in',
      'method',
      'get only out',
      'all methods out',
      'app find in',
      'all methods in',
      'method',
      'all methods out',
      'app find out',
    ]);
  });

  it('a method map naming a method the service does not have, or an impossible method name on the app, is rejected', () => {
    const { service } = setup();
    expect(() => service.hooks({ craete: [async () => undefined] })).toThrow(BadRequest);
    expect(() => service.hooks({ craete: [async () => undefined] })).toThrow("'craete' is not a valid");
    // On the app any method name is accepted, but not names no method can have.
    const { app } = setup();
    expect(() => app.hooks({ anyCustomMethod: [async () => undefined] })).not.toThrow();
    expect(() => app.hooks({ _private: [async () => undefined] })).toThrow(BadRequest);
  });
});

describe('app-level setup and teardown hooks (FeathersJS 5 `app.hooks({ setup, teardown })`)', () => {
  it('run around every service setup and teardown with { app, server } and this = the app', async () => {
    const { app, log } = setup();
    app.use('other', {
      async find() {
        return [];
      },
      async setup() {
        log.push('service setup');
      },
      async teardown() {
        log.push('service teardown');
      },
    });
    const server = { name: 'server' };
    app.hooks({
      setup: [
        async function (this: unknown, context, next) {
          log.push(`setup in ${this === app} ${context.app === app} ${context.server === server}`);
          await next();
          log.push(`setup out ${app.isSetup}`);
        },
        async (_context, next) => {
          log.push('second setup in');
          await next();
        },
      ],
      teardown: async (context, next) => {
        await next();
        log.push(`teardown out ${context.app.isSetup}`);
      },
    });
    // The generated FeathersJS 5 app registers empty lists.
    app.hooks({ setup: [], teardown: [] });
    await app.setup(server);
    await app.teardown();
    expect(log).toEqual([
      'setup in true true true',
      'second setup in',
      'service setup',
      'setup out true',
      'service teardown',
      'teardown out false',
    ]);
    expect(app.server).toBe(server);
  });

  it('a setup hook that throws fails app.setup() and the services are not set up', async () => {
    const { app } = setup();
    app.hooks({
      setup: [
        async () => {
          throw new BadRequest('no database');
        },
      ],
    });
    await expect(app.setup()).rejects.toThrow('no database');
    expect(app.isSetup).toBe(false);
  });

  it('may sit beside method hooks in one map; a hook that is not a function is a BadRequest', async () => {
    const { app, log, regular, service } = setup();
    app.hooks({ setup: [], before: { find: [regular('app before find')] } });
    await service.find();
    expect(log).toEqual(['app before find', 'method']);
    expect(() => app.hooks({ setup: ['nope' as never] })).toThrow("A 'setup' hook is not a function");
  });
});
