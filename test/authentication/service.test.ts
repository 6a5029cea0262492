import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from 'plume';
import { AuthenticationService, JWTStrategy, LocalStrategy } from 'plume/authentication';
import { NotAuthenticated } from 'plume/errors';
import { createAuthApp, SECRET, type AuthApp } from './helpers.js';

const apps: AuthApp[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (apps.length > 0) await apps.pop()?.app.teardown();
});

async function setupApp(...args: Parameters<typeof createAuthApp>) {
  const ctx = createAuthApp(...args);
  apps.push(ctx);
  await ctx.app.setup();
  await ctx.app.service('users').create({ email: 'ada@example.com', password: 'correct horse', name: 'Ada' });
  return ctx;
}

/** The registered authentication service, untyped (results are checked by the assertions). */
const authService = (app: AuthApp['app']): any => app.service('authentication');

const login = { strategy: 'local', email: 'ada@example.com', password: 'correct horse' };

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(NotAuthenticated);
  return error as NotAuthenticated;
}

describe('AuthenticationService registration and configuration', () => {
  it('makes the first authentication service the default one, by path', () => {
    const { app } = createAuthApp();
    expect(app.get('defaultAuthentication')).toBe('authentication');
    const second = new AuthenticationService(app, { secret: SECRET, path: 'admin-auth' });
    app.use('admin-auth', second);
    expect(app.get('defaultAuthentication')).toBe('authentication');
    new AuthenticationService(app, { secret: SECRET, path: 'other', isDefault: true });
    expect(app.get('defaultAuthentication')).toBe('other');
  });

  it('corrects the default path at setup when registered at another path than its path option', async () => {
    const app = createApp();
    app.use('users', {
      async get() {},
      async find() {
        return [];
      },
    });
    const auth = new AuthenticationService(app, {
      secret: SECRET,
      service: 'users',
      authStrategies: ['jwt'],
    });
    auth.register('jwt', new JWTStrategy());
    app.use('auth', auth);
    await app.setup();
    expect(app.get('defaultAuthentication')).toBe('auth');
  });

  it("merges app.get('authentication') with the constructor options and fills in defaults", () => {
    const app = createApp();
    app.set('authentication', { secret: 'from-settings', service: 'people', jwtOptions: { issuer: 'me' } });
    const auth = new AuthenticationService(app, { service: 'users' });
    expect(auth.configuration).toMatchObject({
      secret: 'from-settings',
      service: 'users',
      entity: 'user',
      authStrategies: ['jwt', 'local'],
      jwtOptions: { algorithm: 'HS256', expiresIn: '1d', issuer: 'me' },
    });
  });

  it("takes FeathersJS' (app, configKey, options) form: the configuration comes from that app setting", () => {
    const app = createApp();
    app.set('authentication', { secret: 'user-secret', service: 'users' });
    app.set('adminAuthentication', { secret: 'admin-secret', service: 'admins' });
    const admin = new AuthenticationService(app, 'adminAuthentication', { path: 'admin/authentication' });
    expect(admin.configuration).toMatchObject({ secret: 'admin-secret', service: 'admins' });
    expect(app.get('defaultAuthentication')).toBe('admin/authentication');
    expect(new AuthenticationService(app, 'authentication').configuration).toMatchObject({
      secret: 'user-secret',
    });
  });

  it('fails at setup with a clear message when the secret is missing', async () => {
    const { app } = createAuthApp({ secret: undefined });
    await expect(app.setup()).rejects.toThrow(
      "A 'secret' must be provided in your authentication configuration",
    );
  });

  it('fails at setup without an entity service, with an unknown one, or with an unregistered strategy', async () => {
    await expect(createAuthApp({ service: undefined }).app.setup()).rejects.toThrow(
      "The 'service' option is not set",
    );
    await expect(createAuthApp({ service: 'people' }).app.setup()).rejects.toThrow(
      "The 'people' entity service does not exist",
    );
    await expect(createAuthApp({ authStrategies: ['jwt', 'oauth'] }).app.setup()).rejects.toThrow(
      "The authentication strategy 'oauth' is listed",
    );
    await expect(
      createAuthApp({ jwtOptions: { algorithm: 'RS256' as 'HS256' } }).app.setup(),
    ).rejects.toThrow("jwtOptions.algorithm 'RS256' is not supported");
  });

  it('refuses a jwt strategy option that belongs in jwtOptions', async () => {
    const { app } = createAuthApp({ jwt: { expiresIn: '1h' } as never });
    await expect(app.setup()).rejects.toThrow("Invalid JWT strategy option 'jwt.expiresIn'");
  });
});

describe('AuthenticationService.create (login)', () => {
  it('logs in with local credentials: accessToken, authentication { strategy, payload } and the user without password', async () => {
    const { app } = await setupApp();
    const result = await authService(app).create(login);
    expect(result).toEqual({
      accessToken: expect.any(String),
      authentication: { strategy: 'local', payload: expect.any(Object) },
      user: { id: '1', email: 'ada@example.com', name: 'Ada' },
    });
    const payload = decodeJwt(result.accessToken);
    expect(payload.sub).toBe('1');
    expect(result.authentication.payload).toEqual(payload);
  });

  it('adds params.payload claims to the token', async () => {
    const { auth } = await setupApp();
    const result = await auth.create(login, { payload: { role: 'admin' } });
    expect(decodeJwt(result.accessToken as string).role).toBe('admin');
  });

  it('re-authenticates with { strategy: jwt, accessToken } and returns the same token and the user', async () => {
    const { app } = await setupApp();
    const { accessToken } = await authService(app).create(login);
    const again = await authService(app).create({ strategy: 'jwt', accessToken });
    expect(again.accessToken).toBe(accessToken);
    expect(again.authentication).toMatchObject({ strategy: 'jwt', accessToken, payload: { sub: '1' } });
    expect(again.user).toEqual({ id: '1', email: 'ada@example.com', name: 'Ada' });
  });

  it('gives the same 401 message for an unknown user and a wrong password', async () => {
    const { auth } = await setupApp();
    const wrong = await failure(auth.create({ ...login, password: 'wrong' }));
    const unknown = await failure(auth.create({ ...login, email: 'nobody@example.com' }));
    expect(wrong.message).toBe('Invalid login');
    expect(unknown.message).toBe('Invalid login');
  });

  it('still compares a bcrypt hash when the user does not exist', async () => {
    const { auth } = await setupApp();
    // bcrypt runs in a worker thread: the comparison with a dummy hash is made by comparePassword.
    const compare = vi.spyOn(LocalStrategy.prototype, 'comparePassword');
    await failure(auth.create({ ...login, email: 'nobody@example.com' }));
    expect(compare).toHaveBeenCalledTimes(1);
    expect(compare.mock.calls[0]).toEqual(['correct horse', undefined]);
  });

  it('never puts non-string credentials into the user query (no { $ne } login)', async () => {
    const { auth, users } = await setupApp();
    users.findCalls.length = 0;
    expect(
      (await failure(auth.create({ strategy: 'local', email: { $ne: null }, password: 'x' }))).message,
    ).toBe('Invalid login');
    await failure(auth.create({ strategy: 'local', email: 'ada@example.com', password: { $gt: '' } }));
    await failure(auth.create({ strategy: 'local', email: 'ada@example.com' }));
    expect(users.findCalls).toHaveLength(0);
  });

  it('finds the user with an internal find, $limit 1 and paginate: false', async () => {
    const { auth, users } = await setupApp();
    users.findCalls.length = 0;
    await auth.create(login, { provider: 'rest' });
    expect(users.findCalls).toEqual([{ query: { email: 'ada@example.com', $limit: 1 }, paginate: false }]);
  });

  it('uses configured username and password fields', async () => {
    const { auth } = await setupApp({
      local: { usernameField: 'name', passwordField: 'secret', entityPasswordField: 'password', hashSize: 4 },
    });
    const result = await auth.create({ strategy: 'local', name: 'Ada', secret: 'correct horse' });
    expect(result.user).toMatchObject({ email: 'ada@example.com' });
    expect(result.user).not.toHaveProperty('password');
  });

  it('answers 401 for a missing, unknown or not allowed strategy', async () => {
    const { auth } = await setupApp({ authStrategies: ['jwt', 'local'] });
    expect((await failure(auth.create({ email: 'x' }))).message).toBe(
      'Invalid authentication information (no `strategy` set)',
    );
    expect((await failure(auth.create({ strategy: 'oauth' }))).message).toBe(
      'Invalid authentication information (strategy not allowed)',
    );
    // registered but not in authStrategies
    expect((await failure(auth.create({ strategy: 'api-key', apiKey: 'key-1' }))).message).toBe(
      'Invalid authentication information (strategy not allowed)',
    );
    await failure(auth.create('local' as never));
  });

  it('answers 401 for a jwt login without a token or with a token of a deleted user', async () => {
    const { auth, users } = await setupApp();
    expect((await failure(auth.create({ strategy: 'jwt' }))).message).toBe('No access token');
    const { accessToken } = await auth.create(login);
    users.records.clear();
    expect((await failure(auth.create({ strategy: 'jwt', accessToken }))).message).toBe(
      'Invalid access token: the entity no longer exists',
    );
  });

  it("emits 'login' instead of 'created' (whose payload would carry the token to listeners)", async () => {
    const { app } = await setupApp();
    const events: string[] = [];
    authService(app).on('login', () => events.push('login'));
    authService(app).on('created', () => events.push('created'));
    await authService(app).create(login);
    expect(events).toEqual(['login']);
  });
});

describe('AuthenticationService.remove (logout)', () => {
  it('verifies the token from params.authentication and returns the authentication result', async () => {
    const { app } = await setupApp();
    const { accessToken } = await authService(app).create(login);
    const result = await authService(app).remove(null, { authentication: { strategy: 'jwt', accessToken } });
    expect(result).toMatchObject({ accessToken, user: { id: '1' } });
    expect(result.user).not.toHaveProperty('password');
    const byId = await authService(app).remove(accessToken, {
      authentication: { strategy: 'jwt', accessToken },
    });
    expect(byId.accessToken).toBe(accessToken);
  });

  it('answers 401 without authentication, with an invalid token, or with an id that is not the token', async () => {
    const { auth } = await setupApp();
    const { accessToken } = await auth.create(login);
    expect((await failure(auth.remove(null, {}))).message).toBe('Not authenticated');
    await failure(auth.remove(null, { authentication: { strategy: 'jwt', accessToken: 'x.y.z' } }));
    expect(
      (await failure(auth.remove('other', { authentication: { strategy: 'jwt', accessToken } }))).message,
    ).toBe('Invalid access token');
  });
});

describe('AuthenticationService.parse and authenticate (the transports contract)', () => {
  it('parses Bearer and JWT schemes case-insensitively, and api keys', async () => {
    const { auth } = await setupApp();
    const parse = (headers: Record<string, string>) => auth.parse({ headers }, 'jwt', 'api-key');
    expect(await parse({ authorization: 'Bearer abc' })).toEqual({ strategy: 'jwt', accessToken: 'abc' });
    expect(await parse({ authorization: 'bearer abc' })).toEqual({ strategy: 'jwt', accessToken: 'abc' });
    expect(await parse({ Authorization: 'JWT abc' })).toEqual({ strategy: 'jwt', accessToken: 'abc' });
    expect(await parse({ authorization: 'Basic abc' })).toBeNull();
    expect(await parse({ authorization: ' abc ' })).toEqual({ strategy: 'jwt', accessToken: 'abc' });
    expect(await parse({ authorization: 'Bearer ' })).toBeNull();
    expect(await parse({ 'x-api-key': 'key-1' })).toEqual({ strategy: 'api-key', apiKey: 'key-1' });
    expect(await parse({})).toBeNull();
    expect(await auth.parse({ headers: { 'x-api-key': 'key-1' } }, 'jwt')).toBeNull();
    expect(await auth.parse({ headers: { authorization: 'Bearer a' } }, 'unknown', 'jwt')).toEqual({
      strategy: 'jwt',
      accessToken: 'a',
    });
  });

  it('authenticates only with the allowed strategies', async () => {
    const { auth } = await setupApp();
    const result = await auth.authenticate({ strategy: 'api-key', apiKey: 'key-1' }, {}, 'api-key');
    expect(result).toEqual({ authentication: { strategy: 'api-key' }, apiClient: { key: 'key-1' } });
    await failure(auth.authenticate({ strategy: 'api-key', apiKey: 'key-1' }, {}, 'jwt'));
    await failure(auth.authenticate({ strategy: 'api-key', apiKey: 'nope' }, {}, 'api-key'));
  });

  it('registers strategies after setup too', async () => {
    const { auth } = await setupApp();
    auth.register('local2', new LocalStrategy());
    expect(auth.getStrategyNames()).toContain('local2');
    const result = await auth.authenticate({ ...login, strategy: 'local2' }, {}, 'local2');
    expect(result.authentication).toEqual({ strategy: 'local2' });
  });
});
