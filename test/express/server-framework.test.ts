import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, request, ServerResponse, type Server } from 'node:http';
import { createServer as createHttpsServer, get as httpsGet } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type Application, type HookContext, type Params } from 'plume';
import { BadRequest } from 'plume/errors';
import {
  errorHandler,
  json,
  original,
  rest,
  Router,
  serverFramework,
  type FrameworkApplication,
} from 'plume/express';
import { createRestApp, jsonHeaders, start, urlOf } from './helpers.js';

/** A service that records its lifecycle calls. */
function lifecycleService() {
  const calls: { name: string; app: unknown; path: string }[] = [];
  return {
    calls,
    async find(params?: Params) {
      return { route: params?.route, provider: params?.provider };
    },
    async setup(app: Application, path: string) {
      calls.push({ name: 'setup', app, path });
    },
    async teardown(app: Application, path: string) {
      calls.push({ name: 'teardown', app, path });
    },
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

/** Listens on 127.0.0.1 with a free port, closing the server after the test. */
async function listenOn<S extends Server | ReturnType<typeof createHttpsServer>>(server: S): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return (server.address() as AddressInfo).port;
}

async function startApp(app: FrameworkApplication): Promise<string> {
  const { url } = await start(app);
  closers.push(() => app.teardown());
  return url;
}

describe('serverFramework()', () => {
  it('without an application returns a plain Express application', async () => {
    const app = serverFramework();
    expect(typeof app).toBe('function');
    expect(app).not.toHaveProperty('service');
    app.get('/hello', (_req, res) => {
      res.send('hi');
    });
    const server = app.listen(0, '127.0.0.1');
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    await once(server, 'listening');
    expect(await (await fetch(`${urlOf(server)}/hello`)).text()).toBe('hi');
  });

  it('returns the app with both Express and plume functions', async () => {
    const app = serverFramework(createApp());
    app.set('greeting', 'hello');
    expect(app.get('greeting')).toBe('hello');
    app.get('/greeting', (req, res) => {
      res.send(String(req.app.get('greeting')));
    });
    app.configure(rest());
    app.use('lifecycle', lifecycleService());
    const seen: unknown[] = [];
    app.hooks({ before: [(context: HookContext) => void seen.push(context.app)] });
    expect(typeof app.service('lifecycle').find).toBe('function');
    const url = await startApp(app);
    expect(await (await fetch(`${url}/greeting`)).text()).toBe('hello');
    expect(await (await fetch(`${url}/lifecycle`)).json()).toEqual({ route: {}, provider: 'rest' });
    expect(seen).toEqual([app]);
  });

  it('keeps the settings and event listeners the plume app had before', () => {
    const plain = createApp();
    plain.set('paginate', { default: 10 });
    const events: unknown[] = [];
    plain.on('custom', (value: unknown) => events.push(value));
    const app = serverFramework(plain);
    expect(app.get('paginate')).toEqual({ default: 10 });
    app.emit('custom', 42);
    expect(events).toEqual([42]);
  });

  it('with an existing Express app extends that app, keeping its routes', async () => {
    const existing = original();
    existing.get('/old', (_req, res) => {
      res.send('still here');
    });
    const app = serverFramework(createApp(), existing);
    expect(app).toBe(existing);
    app.configure(rest());
    app.use('lifecycle', lifecycleService());
    const url = await startApp(app);
    expect(await (await fetch(`${url}/old`)).text()).toBe('still here');
    expect((await fetch(`${url}/lifecycle`)).status).toBe(200);
  });

  it('rejects something that is not a plume application, or not an Express application, with a TypeError', () => {
    expect(() => serverFramework({} as Application)).toThrow(/plume application/);
    expect(() => serverFramework(null as unknown as Application)).toThrow(TypeError);
    expect(() => serverFramework(createApp(), {} as never)).toThrow(/Express application/);
  });

  it('answers requests no middleware handles with a JSON 404 even without notFound()', async () => {
    const app = serverFramework(createApp());
    const url = await startApp(app);
    const response = await fetch(`${url}/missing`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ name: 'NotFound', code: 404 });
  });

  it('answers errors no error handler catches without leaking the stack', async () => {
    const app = serverFramework(createApp());
    app.get('/boom', () => {
      throw new Error('secret internals');
    });
    app.set('env', 'development');
    const errors: unknown[] = [];
    const originalError = console.error;
    console.error = (error: unknown) => void errors.push(error);
    try {
      const url = await startApp(app);
      const response = await fetch(`${url}/boom`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).not.toContain('secret internals');
      expect(text).not.toContain('at ');
    } finally {
      console.error = originalError;
    }
    expect(errors).toHaveLength(1);
  });
});

describe('app.use', () => {
  it('passes middleware functions, arrays, routers and Express apps to Express', async () => {
    const app = createRestApp();
    const order: string[] = [];
    app.use((_req, _res, next) => {
      order.push('function');
      next();
    });
    app.use('/list', [
      (_req, _res, next) => {
        order.push('array 1');
        next();
      },
      (_req, res) => {
        order.push('array 2');
        res.send('from array');
      },
    ]);
    const router = Router();
    router.get('/item', (_req, res) => {
      res.send('from router');
    });
    app.use('/router', router);
    const sub = original();
    sub.get('/', (_req, res) => {
      res.send('from sub-app');
    });
    app.use('/sub', sub);
    const url = await startApp(app);
    expect(await (await fetch(`${url}/list`)).text()).toBe('from array');
    expect(order).toEqual(['function', 'array 1', 'array 2']);
    expect(await (await fetch(`${url}/router/item`)).text()).toBe('from router');
    expect(await (await fetch(`${url}/sub`)).text()).toBe('from sub-app');
  });

  it('registers a service object with plume, with or without options', async () => {
    const app = createRestApp();
    app.use('plain', { find: async () => ['plain'] });
    app.use(
      'custom',
      { find: async () => [], run: async (data: unknown) => ({ ran: data }) },
      { methods: ['run'] },
    );
    const url = await startApp(app);
    expect(await (await fetch(`${url}/plain`)).json()).toEqual(['plain']);
    const ran = await fetch(`${url}/custom`, {
      method: 'POST',
      headers: { ...jsonHeaders, 'x-service-method': 'run' },
      body: JSON.stringify({ a: 1 }),
    });
    expect(await ran.json()).toEqual({ ran: { a: 1 } });
  });

  it('rejects arguments that are neither middleware, a service nor final options', () => {
    const app = createRestApp();
    const service = { find: async () => [] };
    expect(() => app.use('bad', service, 'after' as never)).toThrow(
      /expected middleware functions, got a string/,
    );
    expect(() => app.use('bad', service, {}, () => undefined)).toThrow(TypeError);
    expect(() => app.use('bad', service, { framework: { before: 'x' } })).toThrow(/must be arrays/);
  });

  it('a null or undefined path with a service is a BadRequest, as on a plain plume app', () => {
    const app = createRestApp();
    const service = { find: async () => [] };
    expect(() => app.use(null as unknown as string, service)).toThrow(BadRequest);
    expect(() => app.use(undefined as unknown as string, service)).toThrow(
      "'undefined' is not a valid service path",
    );
  });
});

describe('app.listen and app.setup', () => {
  it('listen resolves to the listening HTTP server after setting up every service', async () => {
    const app = createRestApp();
    const service = lifecycleService();
    app.use('lifecycle', service);
    const { server } = await start(app);
    expect(server.listening).toBe(true);
    expect(app.server).toBe(server);
    expect(service.calls).toEqual([{ name: 'setup', app, path: 'lifecycle' }]);
    await app.teardown();
    expect(service.calls.map((c) => c.name)).toEqual(['setup', 'teardown']);
    expect(server.listening).toBe(false);
  });

  it("listen's requests and responses are Node's and Express' objects, with the app's prototypes", async () => {
    const app = createRestApp();
    (app.request as unknown as Record<string, unknown>).addedBefore = 'before';
    const seen: Record<string, unknown>[] = [];
    app.use('/objects', (req, res) => {
      const request = req as unknown as Record<string, unknown>;
      seen.push({
        incomingMessage: req instanceof IncomingMessage,
        serverResponse: res instanceof ServerResponse,
        requestConstructor: req.constructor === IncomingMessage,
        responseConstructor: res.constructor === ServerResponse,
        requestPrototype: Object.getPrototypeOf(req) === app.request,
        responsePrototype: Object.getPrototypeOf(res) === app.response,
        app: (req.app as unknown) === app && (res.app as unknown) === app,
        addedBefore: request.addedBefore,
        addedAfter: request.addedAfter,
        framework: req.framework,
      });
      res.json({ ok: true });
    });
    const { url } = await start(app);
    (app.request as unknown as Record<string, unknown>).addedAfter = 'after';
    for (let i = 0; i < 2; i++) expect((await fetch(`${url}/objects`)).status).toBe(200);
    expect(seen).toEqual(
      Array.from({ length: 2 }, () => ({
        incomingMessage: true,
        serverResponse: true,
        requestConstructor: true,
        responseConstructor: true,
        requestPrototype: true,
        responsePrototype: true,
        app: true,
        addedBefore: 'before',
        addedAfter: 'after',
        framework: { provider: 'rest' },
      })),
    );
  });

  it('listen rejects when the port is taken', async () => {
    const blocker = createServer();
    const port = await listenOn(blocker);
    const app = createRestApp();
    await expect(app.listen(port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('a sub-app mounted in another app works after its own setup(server)', async () => {
    const api = createRestApp();
    const service = lifecycleService();
    api.use('users/:userId/items', service);
    api.use(errorHandler());
    const main = original();
    main.use('/api', api);
    const server = createServer(main);
    const port = await listenOn(server);
    await api.setup(server);
    expect(service.calls).toEqual([{ name: 'setup', app: api, path: 'users/:userId/items' }]);
    const response = await fetch(`http://127.0.0.1:${port}/api/users/7/items`);
    expect(await response.json()).toEqual({ route: { userId: '7' }, provider: 'rest' });
  });

  it('an app behind a virtual-host middleware works after setup(server)', async () => {
    const api = createRestApp();
    const service = lifecycleService();
    api.use('items', service);
    const main = original();
    main.use((req, res, next) => {
      if (req.hostname === 'api.example.test') api(req, res, next);
      else next();
    });
    main.use((_req, res) => {
      res.send('main site');
    });
    const server = createServer(main);
    const port = await listenOn(server);
    await api.setup(server);
    expect(service.calls.map((c) => c.name)).toEqual(['setup']);
    const get = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/items', headers: { host } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end();
      });
    expect(JSON.parse(await get('api.example.test'))).toEqual({ route: {}, provider: 'rest' });
    expect(await get('www.example.test')).toBe('main site');
  });

  const openssl = (() => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  // The certificate is made with the openssl command line; node:crypto cannot create X.509 certificates.
  it.skipIf(!openssl)('an HTTPS server created separately works after setup(server)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plume-https-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '1',
      ].concat(['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1']),
      { stdio: 'ignore' },
    );
    const cert = readFileSync(certFile);
    const app = createRestApp();
    const service = lifecycleService();
    app.use('items', service);
    const server = createHttpsServer({ key: readFileSync(keyFile), cert }, app);
    const port = await listenOn(server);
    await app.setup(server);
    expect(service.calls.map((c) => c.name)).toEqual(['setup']);
    const body = await new Promise<string>((resolve, reject) => {
      httpsGet({ host: '127.0.0.1', port, path: '/items', ca: cert }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(JSON.parse(body)).toEqual({ route: {}, provider: 'rest' });
  });
});

describe('json() before rest()', () => {
  it('gives services the parsed body', async () => {
    const app = serverFramework(createApp());
    app.use(json());
    app.configure(rest());
    app.use('echo', { create: async (data: unknown) => data });
    const url = await startApp(app);
    const response = await fetch(`${url}/echo`, {
      method: 'POST',
      headers: jsonHeaders,
      body: '{"a":[1,2]}',
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ a: [1, 2] });
  });
});
