import qs from 'qs';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type HookContext, type Params } from 'plume';
import { BadRequest } from 'plume/errors';
import {
  errorHandler,
  json,
  queryParser,
  rest,
  serverFramework,
  urlencoded,
  type FrameworkApplication,
} from 'plume/express';
import type { NextFunction, Request, Response } from 'express';
import { createRestApp, jsonHeaders, start } from './helpers.js';

const running: FrameworkApplication[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.teardown();
});

/** Adds the error handler, serves the app and returns its base URL. */
async function serve(app: FrameworkApplication): Promise<string> {
  app.use(errorHandler({ logger: false }));
  const { url } = await start(app);
  running.push(app);
  return url;
}

const paramsService = {
  async find(params: Params) {
    return params;
  },
  async get(id: string, params: Params) {
    return { id, user: params.user };
  },
  async create(data: unknown, params: Params) {
    return { data, user: params.user };
  },
};

/** Middleware that records its name and calls next(). */
function record(log: string[], name: string) {
  return (_req: Request, _res: Response, next: NextFunction) => {
    log.push(name);
    next();
  };
}

describe('service middleware: app.use(path, before, service, after)', () => {
  it('runs before and after middleware around the service in the order given', async () => {
    const log: string[] = [];
    const app = createRestApp();
    app.use(
      'items',
      record(log, 'before 1'),
      [record(log, 'before 2')],
      {
        async find() {
          log.push('service');
          return [1];
        },
      },
      record(log, 'after 1'),
      record(log, 'after 2'),
    );
    const url = await serve(app);
    expect(await (await fetch(`${url}/items`)).json()).toEqual([1]);
    expect(log).toEqual(['before 1', 'before 2', 'service', 'after 1', 'after 2']);
  });

  it('after middleware sees res.data and res.hook, and may change what is sent', async () => {
    const seen: { data?: unknown; method?: string; result?: unknown; status?: number }[] = [];
    const app = createRestApp();
    app.use(
      'items',
      { get: async (id: string) => ({ id }) },
      (req: Request, res: Response, next: NextFunction) => {
        const hook = res.hook as HookContext;
        seen.push({ data: res.data, method: hook.method, result: hook.result, status: res.statusCode });
        res.data = { wrapped: res.data };
        next();
      },
    );
    const url = await serve(app);
    expect(await (await fetch(`${url}/items/3`)).json()).toEqual({ wrapped: { id: '3' } });
    expect(seen).toEqual([{ data: { id: '3' }, method: 'get', result: { id: '3' }, status: 200 }]);
  });

  it('an after middleware that sends without next() skips the rest, formatter included', async () => {
    const log: string[] = [];
    const app = serverFramework(createApp());
    app.configure(
      rest((_req, res) => {
        log.push('formatter');
        res.json(res.data);
      }),
    );
    app.use(
      'items',
      { find: async () => [1] },
      (_req: Request, res: Response) => {
        log.push('sender');
        res.type('text').send('sent by middleware');
      },
      record(log, 'after sender'),
    );
    const url = await serve(app);
    const response = await fetch(`${url}/items`);
    expect(await response.text()).toBe('sent by middleware');
    expect(log).toEqual(['sender']);
  });

  it('middleware given as the framework service option works the same', async () => {
    const log: string[] = [];
    const app = createRestApp();
    app.use(
      'items',
      { find: async () => [] },
      { framework: { before: [record(log, 'before')], after: [record(log, 'after')] } },
    );
    const url = await serve(app);
    await fetch(`${url}/items`);
    expect(log).toEqual(['before', 'after']);
  });

  it('runs only for REST requests, never for internal calls', async () => {
    const log: string[] = [];
    const app = createRestApp();
    app.use('items', record(log, 'before'), { find: async () => [] }, record(log, 'after'));
    await app.service('items').find();
    expect(log).toEqual([]);
  });

  it('a before middleware can set params through req.framework', async () => {
    const app = createRestApp();
    const setUser = (req: Request, _res: Response, next: NextFunction) => {
      req.framework.user = { name: 'ada' };
      next();
    };
    app.use('items', setUser, paramsService);
    const url = await serve(app);
    const response = await fetch(`${url}/items/1`, { headers: jsonHeaders });
    expect(await response.json()).toEqual({ id: '1', user: { name: 'ada' } });
  });

  it('an error in a before middleware skips the service and reaches the error handler', async () => {
    const log: string[] = [];
    const app = createRestApp();
    app.use(
      'items',
      () => {
        throw new BadRequest('Rejected by middleware');
      },
      {
        async find() {
          log.push('service');
          return [];
        },
      },
      record(log, 'after'),
    );
    const url = await serve(app);
    const response = await fetch(`${url}/items`, { headers: jsonHeaders });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ name: 'BadRequest', message: 'Rejected by middleware' });
    expect(log).toEqual([]);
  });
});

describe('params from req.framework', () => {
  it("gives every REST call provider 'rest', query, headers, route and properties set by earlier middleware", async () => {
    const app = serverFramework(createApp());
    app.use((req, _res, next) => {
      req.framework.tenant = 'acme';
      next();
    });
    app.configure(rest());
    app.use('orgs/:orgId/members', paramsService);
    const url = await serve(app);
    const response = await fetch(`${url}/orgs/o1/members?role=admin`, { headers: { 'x-custom': 'yes' } });
    const params = await response.json();
    expect(params).toMatchObject({
      provider: 'rest',
      tenant: 'acme',
      query: { role: 'admin' },
      route: { orgId: 'o1' },
    });
    expect(params.headers['x-custom']).toBe('yes');
  });

  it('middleware registered after rest() does not reach services (register it before, or as service middleware)', async () => {
    const app = createRestApp();
    app.use('items', paramsService);
    app.use((req, _res, next) => {
      req.framework.late = true;
      next();
    });
    const url = await serve(app);
    const params = await (await fetch(`${url}/items`)).json();
    expect(params).not.toHaveProperty('late');
  });

  it('keeps properties an earlier middleware put on req.framework', async () => {
    const main = serverFramework(createApp());
    main.use((req, _res, next) => {
      req.framework = { ...req.framework, traceId: 't-1' };
      next();
    });
    main.configure(rest());
    main.use('items', paramsService);
    const url = await serve(main);
    expect(await (await fetch(`${url}/items`)).json()).toMatchObject({ traceId: 't-1', provider: 'rest' });
  });
});

describe('formatters', () => {
  it('rest() answers JSON whatever the Accept header', async () => {
    const app = createRestApp();
    app.use('items', { find: async () => [{ a: 1 }] });
    const url = await serve(app);
    for (const accept of ['application/json', 'text/html', '*/*']) {
      const response = await fetch(`${url}/items`, { headers: { accept } });
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual([{ a: 1 }]);
    }
  });

  it('rest(formatter) replaces the JSON formatter and may negotiate with res.format', async () => {
    const app = serverFramework(createApp());
    app.configure(
      rest((_req, res) => {
        res.format({
          'text/plain': () => res.send(`items: ${(res.data as number[]).join(',')}`),
          'application/json': () => res.json(res.data),
        });
      }),
    );
    app.use('items', { find: async () => [1, 2] });
    const url = await serve(app);
    const text = await fetch(`${url}/items`, { headers: { accept: 'text/plain' } });
    expect(await text.text()).toBe('items: 1,2');
    const data = await fetch(`${url}/items`, { headers: { accept: 'application/json' } });
    expect(await data.json()).toEqual([1, 2]);
    const refused = await fetch(`${url}/items`, { headers: { accept: 'image/png' } });
    expect(refused.status).toBe(406);
    expect(await refused.json()).toMatchObject({ name: 'NotAcceptable', code: 406 });
  });

  it('rest({ formatter }) is the same as rest(formatter)', async () => {
    const app = serverFramework(createApp());
    app.configure(
      rest({ formatter: (_req, res) => void res.send(`count ${(res.data as unknown[]).length}`) }),
    );
    app.use('items', { find: async () => [1, 2, 3] });
    const url = await serve(app);
    expect(await (await fetch(`${url}/items`)).text()).toBe('count 3');
  });

  it('rest(null) and rest(undefined) use the default JSON formatter, as in FeathersJS', async () => {
    for (const options of [null, undefined]) {
      const app = serverFramework(createApp());
      app.configure(rest(options));
      app.use('items', { find: async () => [1, 2, 3] });
      const url = await serve(app);
      const response = await fetch(`${url}/items`);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toEqual([1, 2, 3]);
    }
  });

  it("an application's own error middleware finds the error's status on res.statusCode", async () => {
    const app = createRestApp();
    app.use('items', { get: async (id: string) => ({ id }) });
    app.use('broken', {
      get: async () => {
        throw new Error('database down');
      },
    });
    app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
      // Written the FeathersJS way: trust the status rest() set, fall back to 500.
      res
        .status(res.statusCode === 200 ? 500 : res.statusCode)
        .json({ seen: res.statusCode, error: error.name });
    });
    const { url } = await start(app);
    running.push(app);
    const post = await fetch(`${url}/items`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ seen: 405, error: 'MethodNotAllowed' });
    const patch = await fetch(`${url}/items/1`, { method: 'PATCH', headers: jsonHeaders, body: '{}' });
    expect(await patch.json()).toEqual({ seen: 405, error: 'MethodNotAllowed' });
    const badPath = await fetch(`${url}/items/%E0%A4%A`);
    expect(await badPath.json()).toEqual({ seen: 400, error: 'BadRequest' });
    const crash = await fetch(`${url}/broken/1`);
    expect(await crash.json()).toEqual({ seen: 500, error: 'Error' });
  });

  it('a method resolving undefined answers 204 with no body, like the Web Standard handler', async () => {
    const app = createRestApp();
    app.use('items', { find: async () => undefined });
    const url = await serve(app);
    const response = await fetch(`${url}/items`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('HEAD answers like GET without a body', async () => {
    const app = createRestApp();
    app.use('items', { get: async (id: string) => ({ id }) });
    const url = await serve(app);
    const response = await fetch(`${url}/items/1`, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.text()).toBe('');
  });

  it('rest() refuses an app that did not come from serverFramework', () => {
    expect(() => createApp().configure(rest())).toThrow(/serverFramework/);
  });
});

describe('query strings', () => {
  const items = (count: number) => Array.from({ length: count }, (_, i) => `id[$in][]=${i}`).join('&');
  const expected = Array.from({ length: 21 }, (_, i) => String(i));

  it('turns an array of more than 20 items into an object keyed by index by default', async () => {
    const app = createRestApp();
    app.use('items', paramsService);
    const url = await serve(app);
    const params = await (await fetch(`${url}/items?${items(21)}`)).json();
    expect(Array.isArray(params.query.id.$in)).toBe(false);
    expect(params.query.id.$in).toEqual(Object.fromEntries(expected.map((v) => [v, v])));
  });

  it("keeps 21 items an array after app.set('query parser', …) with a higher arrayLimit", async () => {
    for (const parser of [
      queryParser({ arrayLimit: 100 }),
      (text: string) => qs.parse(text, { arrayLimit: 100 }),
    ]) {
      const app = createRestApp();
      app.set('query parser', parser);
      app.use('items', paramsService);
      const url = await serve(app);
      const params = await (await fetch(`${url}/items?${items(21)}`)).json();
      expect(params.query.id.$in).toEqual(expected);
    }
  });

  it('never lets __proto__, constructor or prototype keys through', async () => {
    const app = createRestApp();
    app.use('items', paramsService);
    const url = await serve(app);
    const search = '__proto__[polluted]=1&a[__proto__][polluted]=1&constructor[prototype][polluted]=1&ok=1';
    const params = await (await fetch(`${url}/items?${search}`)).json();
    expect(params.query).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('body parsers', () => {
  it('json() and urlencoded({ extended: true }) before rest() give services parsed data', async () => {
    const app = serverFramework(createApp());
    app.use(json());
    app.use(urlencoded({ extended: true }));
    app.configure(rest());
    app.use('items', paramsService);
    const url = await serve(app);
    const fromJson = await fetch(`${url}/items`, {
      method: 'POST',
      headers: jsonHeaders,
      body: '{"a":{"b":1}}',
    });
    expect(await fromJson.json()).toEqual({ data: { a: { b: 1 } } });
    const fromForm = await fetch(`${url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a[b]=1&list[]=x&list[]=y',
    });
    expect(await fromForm.json()).toEqual({ data: { a: { b: '1' }, list: ['x', 'y'] } });
  });

  it('POST, PUT and PATCH without a body answer 400 BadRequest, like the Web Standard handler', async () => {
    const app = createRestApp();
    app.use('items', { ...paramsService, update: async () => ({}), patch: async () => ({}) });
    const url = await serve(app);
    for (const [method, path] of [
      ['POST', '/items'],
      ['PUT', '/items/1'],
      ['PATCH', '/items/1'],
    ]) {
      const response = await fetch(`${url}${path}`, { method, headers: jsonHeaders });
      expect(response.status, method).toBe(400);
      expect(await response.json()).toMatchObject({
        name: 'BadRequest',
        message: `A request body is required for ${method} requests`,
      });
    }
  });

  it('a body no parser read answers 415 UnsupportedMediaType naming the content type', async () => {
    const app = createRestApp();
    app.use('items', paramsService);
    const url = await serve(app);
    const response = await fetch(`${url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(415);
    expect((await response.json()).message).toContain("'text/plain'");
  });

  it('invalid JSON answers 400 BadRequest', async () => {
    const app = createRestApp();
    app.use('items', paramsService);
    const url = await serve(app);
    const response = await fetch(`${url}/items`, { method: 'POST', headers: jsonHeaders, body: '{"a":' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ name: 'BadRequest', code: 400 });
  });

  it('a body larger than the json() limit answers 413 PayloadTooLarge', async () => {
    const app = serverFramework(createApp());
    app.use(json({ limit: 10 }));
    app.configure(rest());
    app.use('items', paramsService);
    const url = await serve(app);
    const response = await fetch(`${url}/items`, {
      method: 'POST',
      headers: jsonHeaders,
      body: '{"a":"0123456789"}',
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ name: 'PayloadTooLarge', code: 413 });
  });
});

describe('custom methods and 405', () => {
  it('X-Service-Method calls a listed custom method and refuses others with 405', async () => {
    const app = createRestApp();
    app.use(
      'jobs',
      {
        find: async () => [],
        start: async (data: unknown, params: Params) => ({ started: data, provider: params.provider }),
        hidden: async () => 'hidden',
      },
      { methods: ['find', 'start'] },
    );
    const url = await serve(app);
    const post = (method: string) =>
      fetch(`${url}/jobs`, {
        method: 'POST',
        headers: { ...jsonHeaders, 'x-service-method': method },
        body: '{"n":1}',
      });
    const started = await post('start');
    expect(started.status).toBe(200);
    expect(await started.json()).toEqual({ started: { n: 1 }, provider: 'rest' });
    for (const method of ['hidden', 'create', 'find', 'nope']) {
      const refused = await post(method);
      expect(refused.status, method).toBe(405);
      expect(await refused.json()).toMatchObject({ name: 'MethodNotAllowed' });
    }
    const deleted = await fetch(`${url}/jobs/1`, { method: 'DELETE', headers: jsonHeaders });
    expect(deleted.status).toBe(405);
  });
});
