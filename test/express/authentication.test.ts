import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type Params } from 'plume';
import { NotAuthenticated } from 'plume/errors';
import {
  authenticate,
  errorHandler,
  json,
  parseAuthentication,
  rest,
  serverFramework,
  type FrameworkApplication,
} from 'plume/express';
import { start } from './helpers.js';

/**
 * A tiny authentication service following the contract of plume/authentication: `jwt` reads
 * `Authorization: Bearer <token>`, `api-key` reads `X-Api-Key`; the token `good` and the key `k1` are valid.
 */
class FakeAuthentication {
  readonly parsed: { headers: Record<string, string>; strategies: string[] }[] = [];
  readonly calls: { authentication: Record<string, unknown>; params: Params; strategies: string[] }[] = [];
  constructor(readonly configuration: { authStrategies: string[]; parseStrategies?: string[] }) {}

  async create() {
    return {};
  }

  async parse(request: { headers: Record<string, string> }, ...strategies: string[]) {
    this.parsed.push({ headers: request.headers, strategies });
    const header = request.headers.authorization;
    if (strategies.includes('jwt') && header?.startsWith('Bearer ')) {
      return { strategy: 'jwt', accessToken: header.slice(7) };
    }
    const key = request.headers['x-api-key'];
    if (strategies.includes('api-key') && key !== undefined) return { strategy: 'api-key', key };
    return null;
  }

  async authenticate(authentication: Record<string, unknown>, params: Params, ...strategies: string[]) {
    this.calls.push({ authentication, params, strategies });
    const strategy = authentication.strategy;
    if (typeof strategy !== 'string' || !strategies.includes(strategy)) {
      throw new NotAuthenticated('Invalid authentication information (strategy not allowed)');
    }
    if (authentication.accessToken === 'good') {
      return { accessToken: 'good', authentication, user: { id: 1, name: 'ada' } };
    }
    if (authentication.key === 'k1') return { authentication, apiClient: { id: 'c1' } };
    throw new NotAuthenticated('Invalid token');
  }
}

const running: FrameworkApplication[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.teardown();
});

const paramsService = {
  async find(params: Params) {
    return { authentication: params.authentication ?? null, user: params.user ?? null };
  },
};

/**
 * An app with the fake authentication service as default (unless `auth` is null), `before` middleware
 * ahead of `rest()`, then whatever `routes` adds.
 */
async function serve(
  auth: FakeAuthentication | null,
  routes: (app: FrameworkApplication) => void,
  before: (app: FrameworkApplication) => void = () => undefined,
): Promise<string> {
  const app = serverFramework(createApp());
  app.use(json());
  if (auth !== null) {
    app.use('authentication', auth);
    app.set('defaultAuthentication', 'authentication');
  }
  before(app);
  app.configure(rest());
  routes(app);
  app.use(errorHandler({ logger: false }));
  const { url } = await start(app);
  running.push(app);
  return url;
}

const jwtAuth = () => new FakeAuthentication({ authStrategies: ['jwt', 'api-key'] });
const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

describe('parseAuthentication (registered by rest())', () => {
  it('puts what the default service parses from the headers into params.authentication', async () => {
    const auth = jwtAuth();
    const url = await serve(auth, (app) => app.use('items', paramsService));
    const response = await fetch(`${url}/items`, { headers: bearer('abc') });
    expect(await response.json()).toEqual({
      authentication: { strategy: 'jwt', accessToken: 'abc' },
      user: null,
    });
    expect(auth.parsed.at(-1)?.strategies).toEqual(['jwt', 'api-key']);
    expect(auth.parsed.at(-1)?.headers.authorization).toBe('Bearer abc');
    const anonymous = await fetch(`${url}/items`);
    expect(await anonymous.json()).toEqual({ authentication: null, user: null });
  });

  it('does nothing when no authentication service is registered', async () => {
    const url = await serve(null, (app) => app.use('items', paramsService));
    const response = await fetch(`${url}/items`, { headers: bearer('abc') });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ authentication: null, user: null });
  });

  it("uses the service's parseStrategies instead of its authStrategies when set", async () => {
    const auth = new FakeAuthentication({ authStrategies: ['jwt', 'api-key'], parseStrategies: ['api-key'] });
    const url = await serve(auth, (app) => app.use('items', paramsService));
    const ignored = await fetch(`${url}/items`, { headers: bearer('abc') });
    expect((await ignored.json()).authentication).toBeNull();
    const parsed = await fetch(`${url}/items`, { headers: { 'x-api-key': 'k1' } });
    expect((await parsed.json()).authentication).toEqual({ strategy: 'api-key', key: 'k1' });
  });

  it('parses for another service and strategies when registered again with { service, strategies }', async () => {
    const admin = new FakeAuthentication({ authStrategies: ['api-key'] });
    const url = await serve(
      null,
      (app) => app.use('items', paramsService),
      (app) => {
        app.use('admin-auth', admin);
        app.use(parseAuthentication({ service: 'admin-auth', strategies: ['api-key'] }));
      },
    );
    const response = await fetch(`${url}/items`, { headers: { 'x-api-key': 'k9' } });
    expect((await response.json()).authentication).toEqual({ strategy: 'api-key', key: 'k9' });
    expect(admin.parsed[0]?.strategies).toEqual(['api-key']);
  });
});

describe('authenticate()', () => {
  const me = (app: FrameworkApplication, ...middleware: ReturnType<typeof authenticate>[]) => {
    app.get('/me', ...middleware, (req, res) => {
      res.json(req.framework);
    });
  };

  it('lets an authenticated request through with the result on req.framework, without accessToken', async () => {
    const auth = jwtAuth();
    const url = await serve(auth, (app) => me(app, authenticate('jwt')));
    const response = await fetch(`${url}/me`, { headers: bearer('good') });
    expect(response.status).toBe(200);
    const framework = await response.json();
    expect(framework).toEqual({
      provider: 'rest',
      authentication: { strategy: 'jwt', accessToken: 'good' },
      user: { id: 1, name: 'ada' },
      authenticated: true,
    });
    expect(auth.calls[0]?.strategies).toEqual(['jwt']);
    expect(auth.calls[0]?.params).not.toHaveProperty('authentication');
  });

  it('answers 401 NotAuthenticated without authentication data, or with invalid data', async () => {
    const url = await serve(jwtAuth(), (app) => me(app, authenticate('jwt')));
    const missing = await fetch(`${url}/me`, { headers: { accept: 'application/json' } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ name: 'NotAuthenticated', message: 'Not authenticated' });
    const invalid = await fetch(`${url}/me`, { headers: bearer('bad') });
    expect(invalid.status).toBe(401);
    expect(await invalid.json()).toMatchObject({ name: 'NotAuthenticated', message: 'Invalid token' });
    const notAllowed = await fetch(`${url}/me`, {
      headers: { 'x-api-key': 'k1', accept: 'application/json' },
    });
    expect(notAllowed.status).toBe(401);
  });

  it('accepts several strategies: authenticate(a, b)', async () => {
    const url = await serve(jwtAuth(), (app) => me(app, authenticate('jwt', 'api-key')));
    const response = await fetch(`${url}/me`, { headers: { 'x-api-key': 'k1' } });
    expect(await response.json()).toMatchObject({ apiClient: { id: 'c1' }, authenticated: true });
  });

  it('protects a service as service middleware, so the service gets params.user', async () => {
    const url = await serve(jwtAuth(), (app) => app.use('messages', authenticate('jwt'), paramsService));
    const response = await fetch(`${url}/messages`, { headers: bearer('good') });
    expect((await response.json()).user).toEqual({ id: 1, name: 'ada' });
    expect((await fetch(`${url}/messages`)).status).toBe(401);
  });

  it('uses another authentication service with authenticate({ service, strategies })', async () => {
    const admin = new FakeAuthentication({ authStrategies: ['api-key'] });
    const url = await serve(
      jwtAuth(),
      (app) => me(app, authenticate({ service: 'admin-auth', strategies: ['api-key'] })),
      (app) => {
        app.use('admin-auth', admin);
        app.use(parseAuthentication({ service: 'admin-auth' }));
      },
    );
    const response = await fetch(`${url}/me`, { headers: { 'x-api-key': 'k1' } });
    expect(await response.json()).toMatchObject({ apiClient: { id: 'c1' }, authenticated: true });
    expect(admin.calls).toHaveLength(1);
  });

  it('reads req.authentication set by a middleware (e.g. from an access_token query parameter)', async () => {
    const url = await serve(jwtAuth(), (app) => {
      app.use((req, _res, next) => {
        const token = req.query.access_token;
        if (typeof token === 'string') req.authentication = { strategy: 'jwt', accessToken: token };
        next();
      });
      me(app, authenticate('jwt'));
    });
    const response = await fetch(`${url}/me?access_token=good`);
    expect(await response.json()).toMatchObject({ user: { id: 1, name: 'ada' }, authenticated: true });
  });

  it('answers 500 when no authentication service can be found', async () => {
    const url = await serve(null, (app) => me(app, authenticate('jwt')));
    const response = await fetch(`${url}/me`, { headers: bearer('good') });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ name: 'GeneralError' });
  });

  it('needs at least one strategy', () => {
    expect(() => authenticate({})).toThrow(TypeError);
    expect(() => authenticate({ service: 'authentication', strategies: [] })).toThrow(
      /at least one strategy/,
    );
    expect(() => authenticate('')).toThrow(TypeError);
  });
});
