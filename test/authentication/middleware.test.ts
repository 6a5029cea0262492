import bcrypt from 'bcryptjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Params } from 'plume';
import {
  accessTokenFromQuery,
  createPasswordHash,
  expressAccessTokenFromQuery,
  parseAuthenticationMiddleware,
  type AuthenticationHandlerContext,
} from 'plume/authentication';
import { BadRequest } from 'plume/errors';
import { createAuthApp, type AuthApp } from './helpers.js';

const apps: AuthApp[] = [];
afterEach(async () => {
  while (apps.length > 0) await apps.pop()?.app.teardown();
});

function contextFor(
  ctx: AuthApp,
  url: string,
  headers: Record<string, string> = {},
  query?: Params['query'],
) {
  const request = new Request(url, { headers });
  const context: AuthenticationHandlerContext = {
    app: ctx.app,
    request,
    url: new URL(url),
    params: { provider: 'rest', headers, ...(query === undefined ? {} : { query }) },
  };
  return context;
}

const done = async () => undefined;

describe('createHandler middleware', () => {
  it('parseAuthenticationMiddleware sets params.authentication from the headers, and nothing without them', async () => {
    const ctx = createAuthApp();
    apps.push(ctx);
    await ctx.app.setup();
    const withToken = contextFor(ctx, 'http://x/messages', { authorization: 'Bearer abc' });
    await parseAuthenticationMiddleware()(withToken, done);
    expect(withToken.params.authentication).toEqual({ strategy: 'jwt', accessToken: 'abc' });
    const withKey = contextFor(ctx, 'http://x/messages', { 'x-api-key': 'k' });
    await parseAuthenticationMiddleware({ strategies: ['jwt'] })(withKey, done);
    expect(withKey.params.authentication).toBeUndefined();
    await parseAuthenticationMiddleware({ strategies: ['api-key'] })(withKey, done);
    expect(withKey.params.authentication).toEqual({ strategy: 'api-key', apiKey: 'k' });
    const nowhere = contextFor(ctx, 'http://x/messages', { authorization: 'Bearer abc' });
    await parseAuthenticationMiddleware({ service: 'missing' })(nowhere, done);
    expect(nowhere.params.authentication).toBeUndefined();
  });

  it('accessTokenFromQuery strips the token from the URL and the query; a header token wins', async () => {
    const ctx = createAuthApp();
    apps.push(ctx);
    const context = contextFor(ctx, 'http://x/files?access_token=t1&a=1', {}, { access_token: 't1', a: '1' });
    await accessTokenFromQuery()(context, done);
    expect(context.params.authentication).toEqual({ strategy: 'jwt', accessToken: 't1' });
    expect(context.params.query).toEqual({ a: '1' });
    expect(context.url.href).toBe('http://x/files?a=1');
    const both = contextFor(ctx, 'http://x/files?access_token=t1');
    both.params.authentication = { strategy: 'jwt', accessToken: 'from-header' };
    await accessTokenFromQuery()(both, done);
    expect(both.params.authentication).toEqual({ strategy: 'jwt', accessToken: 'from-header' });
    expect(both.url.search).toBe('');
    const array = contextFor(ctx, 'http://x/files', {}, { access_token: ['a', 'b'] });
    await accessTokenFromQuery()(array, done);
    expect(array.params.authentication).toBeUndefined();
    expect(array.params.query).toEqual({});
  });
});

describe('expressAccessTokenFromQuery', () => {
  it('moves the token to req.framework.authentication and keeps other framework params', () => {
    const req = { query: { access_token: 'tok', page: '2' }, framework: { provider: 'rest' } as Params };
    let nextCalls = 0;
    expressAccessTokenFromQuery()(req, {}, () => nextCalls++);
    expect(nextCalls).toBe(1);
    expect(req.query).toEqual({ page: '2' });
    expect(req.framework).toEqual({
      provider: 'rest',
      authentication: { strategy: 'jwt', accessToken: 'tok' },
    });
  });

  it('leaves requests without the parameter alone, and uses another parameter name when told', () => {
    const req = { query: { page: '2' }, framework: { provider: 'rest' } as Params };
    expressAccessTokenFromQuery()(req, {}, () => undefined);
    expect(req).toEqual({ query: { page: '2' }, framework: { provider: 'rest' } });
    const custom = { query: { token: 'x' } } as { query: unknown; framework?: Params };
    expressAccessTokenFromQuery({ parameter: 'token' })(custom, {}, () => undefined);
    expect(custom.framework).toEqual({ authentication: { strategy: 'jwt', accessToken: 'x' } });
  });
});

describe('createPasswordHash', () => {
  it('hashes with the given cost and refuses non-strings', async () => {
    const hash = await createPasswordHash('pw', 4);
    expect(hash).toMatch(/^\$2[aby]\$04\$/);
    expect(await bcrypt.compare('pw', hash)).toBe(true);
    await expect(createPasswordHash(undefined)).rejects.toBeInstanceOf(BadRequest);
  });
});
