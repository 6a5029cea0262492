import { SignJWT, decodeJwt } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { Params } from 'plume';
import { authenticate, disallow } from 'plume/authentication';
import { base64url, createAuthApp, SECRET } from './helpers.js';
import { authTransports, captureLog, type CapturedLog, type Served } from './servers.js';

const running: Served[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.close();
});

const jsonHeaders = { accept: 'application/json', 'content-type': 'application/json' };
const key = new TextEncoder().encode(SECRET);

/** Echoes who called and with which query; `fail` in the query makes it throw a 500 that mentions the query. */
const messages = {
  async find(params: Params) {
    if (params.query?.fail !== undefined)
      throw new Error(`find failed for query ${JSON.stringify(params.query)}`);
    return { user: params.user ?? null, apiClient: params.apiClient ?? null, query: params.query };
  },
};

describe.each(authTransports)('authentication over HTTP ($name)', (transport) => {
  async function serve(
    options: Parameters<typeof createAuthApp>[0] = {},
  ): Promise<{ url: string; log: CapturedLog }> {
    const app = transport.createApp();
    createAuthApp(options, app);
    app.use('messages', messages);
    app.service('messages').hooks({ before: { find: [authenticate('jwt', 'api-key')] } });
    app.service('users').hooks({ before: { remove: [disallow('rest')] } });
    const log = captureLog();
    const served = await transport.start(app, log);
    running.push(served);
    return { url: served.url, log };
  }

  async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
    return fetch(url, {
      method: 'POST',
      headers: { ...jsonHeaders, ...headers },
      body: JSON.stringify(body),
    });
  }

  /** Signs up Ada and logs her in; gives the base URL, the token and the log. */
  async function loggedIn(options: Parameters<typeof createAuthApp>[0] = {}) {
    const { url, log } = await serve(options);
    const signup = await post(`${url}/users`, {
      email: 'ada@example.com',
      password: 'correct horse',
      name: 'Ada',
    });
    expect(signup.status).toBe(201);
    const login = await post(`${url}/authentication`, {
      strategy: 'local',
      email: 'ada@example.com',
      password: 'correct horse',
    });
    const body = (await login.json()) as { accessToken: string };
    return { url, log, accessToken: body.accessToken, login, body };
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, { headers: { accept: 'application/json', ...headers } });

  it('signup never returns the hash; local login answers 201 with token, payload and user without password', async () => {
    const { url } = await serve();
    const signup = await post(`${url}/users`, {
      email: 'ada@example.com',
      password: 'correct horse',
      name: 'Ada',
    });
    expect(await signup.json()).toEqual({ id: '1', email: 'ada@example.com', name: 'Ada' });
    const login = await post(`${url}/authentication`, {
      strategy: 'local',
      email: 'ada@example.com',
      password: 'correct horse',
    });
    expect(login.status).toBe(201);
    const body = await login.json();
    expect(body).toEqual({
      accessToken: expect.any(String),
      authentication: { strategy: 'local', payload: decodeJwt(body.accessToken) },
      user: { id: '1', email: 'ada@example.com', name: 'Ada' },
    });
    const users = await get(`${url}/users`);
    expect(await users.json()).toEqual([{ id: '1', email: 'ada@example.com', name: 'Ada' }]);
  });

  it('wrong password and unknown user both answer 401 Invalid login', async () => {
    const { url } = await loggedIn();
    for (const credentials of [
      { email: 'ada@example.com', password: 'wrong' },
      { email: 'nobody@example.com', password: 'correct horse' },
      { email: { $ne: null }, password: 'correct horse' },
    ]) {
      const response = await post(`${url}/authentication`, { strategy: 'local', ...credentials });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ name: 'NotAuthenticated', message: 'Invalid login' });
    }
  });

  it('re-authenticates with the jwt strategy and returns the same token', async () => {
    const { url, accessToken } = await loggedIn();
    const response = await post(`${url}/authentication`, { strategy: 'jwt', accessToken });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.accessToken).toBe(accessToken);
    expect(body.user).toEqual({ id: '1', email: 'ada@example.com', name: 'Ada' });
  });

  it('a protected service answers 401 without a token and 200 with params.user for Bearer or JWT schemes', async () => {
    const { url, accessToken } = await loggedIn();
    const anonymous = await get(`${url}/messages`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ name: 'NotAuthenticated', message: 'Not authenticated' });
    for (const authorization of [`Bearer ${accessToken}`, `JWT ${accessToken}`, `bearer ${accessToken}`]) {
      const response = await get(`${url}/messages`, { authorization });
      expect(response.status).toBe(200);
      expect((await response.json()).user).toEqual({ id: '1', email: 'ada@example.com', name: 'Ada' });
    }
  });

  it('reads a token sent without a scheme (Authorization: <token>), as FeathersJS does', async () => {
    const { url, accessToken } = await loggedIn();
    const response = await get(`${url}/messages`, { authorization: accessToken });
    expect(response.status).toBe(200);
    expect((await response.json()).user).toEqual({ id: '1', email: 'ada@example.com', name: 'Ada' });
    const forged = await get(`${url}/messages`, { authorization: `${accessToken}x` });
    expect(forged.status).toBe(401);
    // A scheme the strategy does not know is still not a token.
    expect((await get(`${url}/messages`, { authorization: `Basic ${accessToken}` })).status).toBe(401);
  });

  it('rejects every bad token with 401: other algorithm, alg none, wrong signature, expired, wrong audience or issuer', async () => {
    const { url, accessToken } = await loggedIn({
      jwtOptions: { audience: 'https://api.example', issuer: 'plume-tests' },
    });
    const claims = decodeJwt(accessToken);
    const signed = (alg: string, changes: (jwt: SignJWT) => SignJWT = (jwt) => jwt) =>
      changes(
        new SignJWT({ sub: claims.sub })
          .setProtectedHeader({ alg, typ: 'access' })
          .setIssuedAt()
          .setAudience('https://api.example')
          .setIssuer('plume-tests')
          .setExpirationTime('1h'),
      ).sign(key);
    const [header, , signature] = accessToken.split('.');
    const bad = {
      'other algorithm': await signed('HS512'),
      'alg none': `${base64url({ alg: 'none', typ: 'access' })}.${base64url(claims)}.`,
      'wrong signature': `${header}.${base64url({ ...claims, sub: '2' })}.${signature}`,
      expired: await signed('HS256', (jwt) => jwt.setExpirationTime(Math.floor(Date.now() / 1000) - 60)),
      'wrong audience': await signed('HS256', (jwt) => jwt.setAudience('someone-else')),
      'wrong issuer': await signed('HS256', (jwt) => jwt.setIssuer('someone-else')),
      garbage: 'not-a-token',
    };
    // A correctly signed token from the same helper passes, so the failures below are about the defects.
    expect((await get(`${url}/messages`, { authorization: `Bearer ${await signed('HS256')}` })).status).toBe(
      200,
    );
    for (const [name, token] of Object.entries(bad)) {
      const response = await get(`${url}/messages`, { authorization: `Bearer ${token}` });
      expect(response.status, name).toBe(401);
      expect((await response.json()).name, name).toBe('NotAuthenticated');
      const login = await post(`${url}/authentication`, { strategy: 'jwt', accessToken: token });
      expect(login.status, name).toBe(401);
    }
  });

  it('accepts the api-key strategy on a service that allows it, and rejects a wrong key', async () => {
    const { url } = await serve();
    const ok = await get(`${url}/messages`, { 'x-api-key': 'key-1' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ apiClient: { key: 'key-1' }, user: null });
    const wrong = await get(`${url}/messages`, { 'x-api-key': 'key-2' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ message: 'Invalid API key' });
  });

  it('authenticates a browser link with ?access_token, removes it from the query, and never logs it', async () => {
    const { url, accessToken, log } = await loggedIn();
    const link = await get(`${url}/messages?page=2&access_token=${accessToken}`);
    expect(link.status).toBe(200);
    expect(await link.json()).toEqual({
      user: { id: '1', email: 'ada@example.com', name: 'Ada' },
      apiClient: null,
      query: { page: '2' },
    });
    const failing = await get(`${url}/messages?fail=yes&access_token=${accessToken}`);
    expect(failing.status).toBe(500);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toContain('"fail":"yes"');
    expect(log.lines[0]).not.toContain(accessToken);
    expect(JSON.stringify(await failing.json())).not.toContain(accessToken);
    const invalid = await get(`${url}/messages?access_token=nope`);
    expect(invalid.status).toBe(401);
  });

  it('logs out with DELETE /authentication (and /authentication/<token>), 401 without a token', async () => {
    const { url, accessToken } = await loggedIn();
    const headers = { ...jsonHeaders, authorization: `Bearer ${accessToken}` };
    const logout = await fetch(`${url}/authentication`, { method: 'DELETE', headers });
    expect(logout.status).toBe(200);
    const body = await logout.json();
    expect(body).toMatchObject({ accessToken, user: { id: '1' } });
    expect(body.user).not.toHaveProperty('password');
    const byId = await fetch(`${url}/authentication/${accessToken}`, { method: 'DELETE', headers });
    expect(byId.status).toBe(200);
    const otherId = await fetch(`${url}/authentication/other`, { method: 'DELETE', headers });
    expect(otherId.status).toBe(401);
    const anonymous = await fetch(`${url}/authentication`, { method: 'DELETE', headers: jsonHeaders });
    expect(anonymous.status).toBe(401);
  });

  it("disallow('rest') answers 405 over HTTP", async () => {
    const { url } = await loggedIn();
    const response = await fetch(`${url}/users/1`, { method: 'DELETE', headers: jsonHeaders });
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ name: 'MethodNotAllowed' });
  });
});

describe('Express routes protected with authenticate("jwt") middleware', () => {
  const express = authTransports.find((t) => t.name === 'express')!;

  it('sets req.framework.user with a token (header or access_token link) and answers 401 without', async () => {
    const app = express.createApp();
    createAuthApp({}, app);
    const served = await express.start(app, captureLog());
    running.push(served);
    await app.service('users').create({ email: 'ada@example.com', password: 'pw' });
    const login = await fetch(`${served.url}/authentication`, {
      method: 'POST',
      headers: jsonHeaders,
      body: JSON.stringify({ strategy: 'local', email: 'ada@example.com', password: 'pw' }),
    });
    const { accessToken } = await login.json();
    const withHeader = await fetch(`${served.url}/me`, {
      headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
    });
    expect(withHeader.status).toBe(200);
    expect((await withHeader.json()).user).toMatchObject({ id: '1', email: 'ada@example.com' });
    const link = await fetch(`${served.url}/me?x=1&access_token=${accessToken}`, {
      headers: { accept: 'application/json' },
    });
    expect(link.status).toBe(200);
    expect(await link.json()).toMatchObject({ user: { id: '1' }, query: { x: '1' } });
    const anonymous = await fetch(`${served.url}/me`, { headers: { accept: 'application/json' } });
    expect(anonymous.status).toBe(401);
    const bad = await fetch(`${served.url}/me`, {
      headers: { accept: 'application/json', authorization: 'Bearer x.y.z' },
    });
    expect(bad.status).toBe(401);
  });
});
