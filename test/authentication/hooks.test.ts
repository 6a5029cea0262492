import bcrypt from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type HookContext, type Params } from 'plume';
import {
  authenticate,
  disallow,
  hashPassword,
  LocalStrategy,
  omitProtected,
  passwordHash,
  protect,
} from 'plume/authentication';
import { resolve, resolveData } from 'plume/schema';
import { BadRequest, GeneralError, MethodNotAllowed, NotAuthenticated } from 'plume/errors';
import { createAuthApp, MemoryUsers, type AuthApp } from './helpers.js';

const apps: AuthApp[] = [];
afterEach(async () => {
  while (apps.length > 0) await apps.pop()?.app.teardown();
});

/** A service echoing the params it was called with. */
const echo = {
  async find(params: Params) {
    return {
      user: params.user ?? null,
      authenticated: params.authenticated ?? null,
      apiClient: params.apiClient ?? null,
      authentication: params.authentication ?? null,
    };
  },
  async get(id: string | number) {
    return { id };
  },
};

async function setupApp(hooks: Parameters<ReturnType<AuthApp['app']['service']>['hooks']>[0]) {
  const ctx = createAuthApp();
  apps.push(ctx);
  ctx.app.use('messages', echo);
  ctx.app.service('messages').hooks(hooks);
  await ctx.app.setup();
  await ctx.app.service('users').create({ email: 'ada@example.com', password: 'pw', name: 'Ada' });
  const { accessToken } = await ctx.auth.create({
    strategy: 'local',
    email: 'ada@example.com',
    password: 'pw',
  });
  return { ...ctx, accessToken: accessToken as string };
}

describe('authenticate hook', () => {
  it('as a before hook: sets params.user, params.authentication and params.authenticated for a valid token', async () => {
    const { app, accessToken } = await setupApp({ before: { find: [authenticate('jwt')] } });
    const result = (await app.service('messages').find({
      provider: 'rest',
      authentication: { strategy: 'jwt', accessToken },
    })) as Record<string, unknown>;
    expect(result.user).toMatchObject({ id: '1', email: 'ada@example.com' });
    expect(result.authenticated).toBe(true);
    expect(result.authentication).toMatchObject({ strategy: 'jwt', accessToken, payload: { sub: '1' } });
  });

  it('as an around hook: same behaviour', async () => {
    const { app, accessToken } = await setupApp({ around: { find: [authenticate('jwt')] } });
    const result = (await app.service('messages').find({
      provider: 'rest',
      authentication: { strategy: 'jwt', accessToken },
    })) as Record<string, unknown>;
    expect(result.user).toMatchObject({ id: '1' });
    await expect(app.service('messages').find({ provider: 'rest' })).rejects.toBeInstanceOf(NotAuthenticated);
  });

  it('rejects external calls without authentication, or with a bad token, with 401', async () => {
    const { app } = await setupApp({ before: { find: [authenticate('jwt')] } });
    await expect(app.service('messages').find({ provider: 'rest' })).rejects.toThrow(
      new NotAuthenticated('Not authenticated'),
    );
    await expect(
      app
        .service('messages')
        .find({ provider: 'rest', authentication: { strategy: 'jwt', accessToken: 'bad' } }),
    ).rejects.toBeInstanceOf(NotAuthenticated);
  });

  it('rejects a strategy it does not allow', async () => {
    const { app } = await setupApp({ before: { find: [authenticate('jwt')] } });
    await expect(
      app
        .service('messages')
        .find({ provider: 'rest', authentication: { strategy: 'api-key', apiKey: 'key-1' } }),
    ).rejects.toThrow('strategy not allowed');
  });

  it('accepts any of several strategies: authenticate("jwt", "api-key")', async () => {
    const { app } = await setupApp({ before: { find: [authenticate('jwt', 'api-key')] } });
    const result = (await app.service('messages').find({
      provider: 'rest',
      authentication: { strategy: 'api-key', apiKey: 'key-1' },
    })) as Record<string, unknown>;
    expect(result.apiClient).toEqual({ key: 'key-1' });
    expect(result.user).toBeNull();
  });

  it('lets internal calls without authentication through, unless allowInternal is false', async () => {
    const { app } = await setupApp({
      before: {
        find: [authenticate('jwt')],
        get: [authenticate({ strategies: ['jwt'], allowInternal: false })],
      },
    });
    await expect(app.service('messages').find({})).resolves.toMatchObject({ user: null });
    await expect(app.service('messages').get('1')).rejects.toBeInstanceOf(NotAuthenticated);
  });

  it('skips the check when params.authenticated is already true', async () => {
    const { app } = await setupApp({ before: { find: [authenticate('jwt')] } });
    const result = await app
      .service('messages')
      .find({ provider: 'rest', authenticated: true, user: { id: 'x' } });
    expect(result).toMatchObject({ user: { id: 'x' } });
  });

  it('uses another authentication service with { service, strategies }', async () => {
    const ctx = createAuthApp();
    apps.push(ctx);
    const { AuthenticationService } = await import('plume/authentication');
    const { ApiKeyStrategy, SECRET } = await import('./helpers.js');
    const admin = new AuthenticationService(ctx.app, {
      secret: SECRET,
      entity: null,
      authStrategies: ['api-key'],
      'api-key': { keys: ['admin-key'] },
      path: 'admin-auth',
    });
    admin.register('api-key', new ApiKeyStrategy());
    ctx.app.use('admin-auth', admin);
    ctx.app.use('messages', echo);
    ctx.app
      .service('messages')
      .hooks({ before: { find: [authenticate({ service: 'admin-auth', strategies: ['api-key'] })] } });
    await ctx.app.setup();
    const ok = await ctx.app
      .service('messages')
      .find({ provider: 'rest', authentication: { strategy: 'api-key', apiKey: 'admin-key' } });
    expect(ok).toMatchObject({ apiClient: { key: 'admin-key' }, authenticated: true });
    // key-1 is valid on the default service only
    await expect(
      ctx.app
        .service('messages')
        .find({ provider: 'rest', authentication: { strategy: 'api-key', apiKey: 'key-1' } }),
    ).rejects.toBeInstanceOf(NotAuthenticated);
  });

  it('needs a strategy, a before/around position and an authentication service', async () => {
    expect(() => authenticate({ strategies: [] })).toThrow('needs at least one allowed strategy');
    const { app } = await setupApp({ after: { find: [authenticate('jwt')] } });
    await expect(app.service('messages').find({})).rejects.toThrow('must be used as a before or around hook');
    const bare = createApp();
    bare.use('messages', echo);
    bare.service('messages').hooks({ before: { find: [authenticate('jwt')] } });
    await expect(bare.service('messages').find({ provider: 'rest' })).rejects.toBeInstanceOf(GeneralError);
  });
});

describe('hashPassword and protect hooks', () => {
  it('hashes the password on create, patch and arrays, without changing the caller data', async () => {
    const ctx = createAuthApp();
    apps.push(ctx);
    await ctx.app.setup();
    const data = { email: 'b@example.com', password: 'secret' };
    await ctx.app.service('users').create(data);
    expect(data.password).toBe('secret');
    const stored = ctx.users.records.get('1')!;
    expect(stored.password).toMatch(/^\$2[aby]\$04\$/);
    expect(await bcrypt.compare('secret', stored.password as string)).toBe(true);
    await ctx.app.service('users').patch('1', { password: 'changed' });
    expect(await bcrypt.compare('changed', ctx.users.records.get('1')!.password as string)).toBe(true);
    await ctx.app.service('users').patch('1', { name: 'no password change' });
    expect(await bcrypt.compare('changed', ctx.users.records.get('1')!.password as string)).toBe(true);

    const hook = hashPassword('password', { cost: 4 });
    const context = {
      method: 'create',
      data: [{ password: 'a' }, { password: 'b' }, { name: 'none' }],
      app: ctx.app,
      params: {},
    } as unknown as HookContext;
    await hook(context);
    const hashed = context.data as Record<string, string>[];
    expect(await bcrypt.compare('a', hashed[0]!.password!)).toBe(true);
    expect(await bcrypt.compare('b', hashed[1]!.password!)).toBe(true);
    expect(hashed[2]).toEqual({ name: 'none' });
  });

  it('answers 400 for a password that is not a non-empty string', async () => {
    const ctx = createAuthApp();
    apps.push(ctx);
    await ctx.app.setup();
    await expect(ctx.app.service('users').create({ email: 'x', password: { $ne: 1 } })).rejects.toThrow(
      new BadRequest("'password' must be a non-empty string"),
    );
    await expect(ctx.app.service('users').create({ email: 'x', password: '' })).rejects.toBeInstanceOf(
      BadRequest,
    );
    expect(() => hashPassword('password', { cost: 3 })).toThrow('from 4 to 31');
  });

  it('uses the default cost 10 without configuration', async () => {
    const app = createApp();
    const context = { method: 'create', data: { password: 'x' }, app, params: {} } as unknown as HookContext;
    await hashPassword()(context);
    expect((context.data as { password: string }).password).toMatch(/^\$2[aby]\$10\$/);
  });

  it('protect sets dispatch without the fields for a record, an array and a page; result keeps them', async () => {
    const hook = protect('password', 'secret');
    for (const [result, expected] of [
      [{ id: 1, password: 'h', secret: 's' }, { id: 1 }],
      [
        [{ id: 1, password: 'h' }, { id: 2 }],
        [{ id: 1 }, { id: 2 }],
      ],
      [
        { total: 1, limit: 10, skip: 0, data: [{ id: 1, password: 'h' }] },
        { total: 1, limit: 10, skip: 0, data: [{ id: 1 }] },
      ],
    ] as const) {
      const context = { result } as unknown as HookContext;
      await hook(context);
      expect(context.dispatch).toEqual(expected);
      expect(context.result).toBe(result);
    }
    expect(omitProtected('text', ['password'])).toBe('text');
  });

  it('keeps hashes away from external callers of the users service, but not from internal ones', async () => {
    const ctx = createAuthApp();
    apps.push(ctx);
    await ctx.app.setup();
    await ctx.app.service('users').create({ email: 'c@example.com', password: 'pw' });
    const { invokeService } = await import('plume');
    const context = await invokeService(ctx.app, ctx.app.service('users'), 'find', [
      { provider: 'rest', query: {} },
    ]);
    expect(context.dispatch).toEqual([{ id: '1', email: 'c@example.com' }]);
    expect(((context.result as Record<string, unknown>[])[0] ?? {}).password).toMatch(/^\$2/);
  });
});

describe('disallow hook', () => {
  it('disallow() rejects every external call with 405 and lets internal calls through', async () => {
    const { app } = await setupApp({ before: { find: [disallow()] } });
    await expect(app.service('messages').find({ provider: 'rest' })).rejects.toBeInstanceOf(MethodNotAllowed);
    await expect(app.service('messages').find({})).resolves.toBeDefined();
  });

  it("disallow('rest') rejects only that provider; 'server' rejects internal calls", async () => {
    const { app } = await setupApp({ before: { find: [disallow('rest')], get: [disallow('server')] } });
    await expect(app.service('messages').find({ provider: 'rest' })).rejects.toThrow(
      "Method 'find' on 'messages' is not allowed for provider 'rest'",
    );
    await expect(app.service('messages').find({ provider: 'socketio' })).resolves.toBeDefined();
    await expect(app.service('messages').get(1)).rejects.toBeInstanceOf(MethodNotAllowed);
    await expect(app.service('messages').get(1, { provider: 'rest' })).resolves.toEqual({ id: 1 });
  });
});

describe('passwordHash resolver (FeathersJS 5 authentication-local)', () => {
  async function setupProfiles() {
    const ctx = createAuthApp();
    apps.push(ctx);
    const profiles = new MemoryUsers();
    ctx.app.use('profiles', profiles);
    const hashed = resolve({ password: passwordHash({ strategy: 'local' }) });
    ctx.app
      .service('profiles')
      .hooks({ before: { create: [resolveData(hashed)], patch: [resolveData(hashed)] } });
    await ctx.app.setup();
    return { ...ctx, profiles };
  }

  it("hashes the password with the local strategy's hashSize, which then logs in; an absent one stays absent", async () => {
    const { app, profiles, auth } = await setupProfiles();
    const created = (await app.service('profiles').create({ email: 'ada@example.com', password: 'pw' })) as {
      id: string;
      password: string;
    };
    expect(created.password).toMatch(/^\$2[ab]\$04\$/);
    expect(await bcrypt.compare('pw', created.password)).toBe(true);
    const patched = (await app.service('profiles').patch(created.id, { email: 'a@example.com' })) as {
      password: string;
    };
    expect(patched.password).toBe(created.password);
    expect(profiles.records.size).toBe(1);
    const local = auth.strategies.get('local') as LocalStrategy;
    expect(await local.comparePassword('pw', created.password)).toBe(true);
  });

  it('refuses a password that is not a non-empty string with 400, and an unknown strategy with 500', async () => {
    const { app } = await setupProfiles();
    const refused = app.service('profiles').create({ email: 'x@example.com', password: 5 });
    await expect(refused).rejects.toBeInstanceOf(BadRequest);
    await expect(refused).rejects.toMatchObject({
      message: 'Error resolving data',
      errors: { password: { message: 'A password must be a non-empty string' } },
    });
    const context = { app } as HookContext;
    await expect(passwordHash({ strategy: 'jwt' })('pw', {}, context)).rejects.toThrow(
      "passwordHash: 'jwt' is not a registered local strategy",
    );
    await expect(
      passwordHash({ strategy: 'local', service: 'nothing' })('pw', {}, context),
    ).rejects.toBeInstanceOf(GeneralError);
  });
});
