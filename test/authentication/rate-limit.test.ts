import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Application } from 'plume';
import { authenticate } from 'plume/authentication';
import { createAuthApp } from './helpers.js';
import { authTransports, captureLog, type Served } from './servers.js';

// Issue 14 item 5: a login flood must not stall other requests, and failed attempts are limited per
// client IP and per account (429 with Retry-After), for logins and for API keys alike.

const running: Served[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.close();
});

const jsonHeaders = { accept: 'application/json', 'content-type': 'application/json' };

describe.each(authTransports)('authentication rate limits and hashing ($name)', (transport) => {
  async function serve(
    options: Parameters<typeof createAuthApp>[0] = {},
    configure: (app: Application) => void = () => undefined,
  ): Promise<string> {
    const app = transport.createApp();
    createAuthApp(options, app);
    configure(app);
    app.use('ping', {
      async find() {
        return { pong: true };
      },
    });
    app.use('reports', {
      async find() {
        return { ok: true };
      },
    });
    app.service('reports').hooks({ before: { find: [authenticate('jwt', 'api-key')] } });
    const served = await transport.start(app, captureLog());
    running.push(served);
    return served.url;
  }

  const post = (url: string, body: unknown) =>
    fetch(url, { method: 'POST', headers: jsonHeaders, body: JSON.stringify(body) });
  const login = (url: string, email: string, password: string) =>
    post(`${url}/authentication`, { strategy: 'local', email, password });

  async function signup(url: string, email: string): Promise<void> {
    const created = await post(`${url}/users`, { email, password: 'correct horse' });
    expect(created.status).toBe(201);
  }

  function retryAfter(response: Response): number {
    const value = Number(response.headers.get('retry-after'));
    expect(Number.isInteger(value)).toBe(true);
    return value;
  }

  // No clock: the flood is still running after ten pings sent one after another. Hashing on the event
  // loop (bcryptjs' own async functions, in 100 ms slices) answered the first ping only after all 40
  // hashes; in the worker, 40 hashes at cost 10 take far longer than ten pings.
  it('40 concurrent wrong-password logins at bcrypt cost 10 do not hold back other requests', async () => {
    let arrived = 0;
    let floodArrived!: () => void;
    const allArrived = new Promise<void>((resolve) => (floodArrived = resolve));
    const url = await serve({ local: { hashSize: 10 }, rateLimit: false }, (app) => {
      app.service('authentication').hooks({
        before: {
          create: [
            () => {
              if (++arrived === 40) floodArrived();
            },
          ],
        },
      });
    });
    await signup(url, 'ada@example.com');
    let answered = 0;
    const flood = Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login(url, 'ada@example.com', `wrong ${i}`).then((response) => {
          answered++;
          return response;
        }),
      ),
    );
    await allArrived; // every login is now in the authentication service, hashing or waiting to hash
    for (let i = 0; i < 10; i++) {
      const ping = await fetch(`${url}/ping`, { headers: { accept: 'application/json' } });
      expect(ping.status).toBe(200);
    }
    expect(answered).toBeLessThan(40);
    const answers = await flood;
    expect(answers.map((response) => response.status)).toEqual(Array(40).fill(401));
  }, 60_000);

  it('answers 429 with Retry-After once an account used up its failed logins, even with the right password', async () => {
    const url = await serve({ rateLimit: { account: { points: 3, duration: 60 } } });
    await signup(url, 'ada@example.com');
    await signup(url, 'bob@example.com');
    for (let i = 0; i < 3; i++) expect((await login(url, 'ada@example.com', 'wrong')).status).toBe(401);
    const refused = await login(url, 'ada@example.com', 'correct horse');
    expect(refused.status).toBe(429);
    const seconds = retryAfter(refused);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({
      name: 'TooManyRequests',
      code: 429,
      data: { retryAfter: seconds },
    });
    // Another account is not affected.
    expect((await login(url, 'bob@example.com', 'correct horse')).status).toBe(201);
  });

  it('successful logins do not use up the account limit', async () => {
    const url = await serve({ rateLimit: { account: { points: 2, duration: 60 } } });
    await signup(url, 'ada@example.com');
    for (let i = 0; i < 5; i++)
      expect((await login(url, 'ada@example.com', 'correct horse')).status).toBe(201);
  });

  it('a burst of parallel logins is cut at the limit before hashing (per IP)', async () => {
    const url = await serve({ rateLimit: { ip: { points: 5, duration: 60 }, account: false } });
    const statuses = (
      await Promise.all(Array.from({ length: 20 }, (_, i) => login(url, `user${i}@example.com`, 'x')))
    ).map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it('limits API-key guessing per IP: 429 with Retry-After after the failed attempts, also for the right key', async () => {
    const url = await serve({ rateLimit: { ip: { points: 5, duration: 60 } } });
    const guess = (key: string) =>
      fetch(`${url}/reports`, { headers: { accept: 'application/json', 'x-api-key': key } });
    expect((await guess('key-1')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await guess(`guess-${i}`)).status).toBe(401);
    const refused = await guess('guess-6');
    expect(refused.status).toBe(429);
    expect(retryAfter(refused)).toBeGreaterThanOrEqual(1);
    expect((await guess('key-1')).status).toBe(429);
    // Requests that need no authentication still pass.
    expect((await fetch(`${url}/ping`)).status).toBe(200);
  });

  it('accepts a rate-limiter-flexible limiter of your own (e.g. one shared by several processes)', async () => {
    const shared = new RateLimiterMemory({ points: 1, duration: 30 });
    const url = await serve({ rateLimit: { ip: shared, account: false } });
    expect((await login(url, 'nobody@example.com', 'x')).status).toBe(401);
    const refused = await login(url, 'nobody@example.com', 'x');
    expect(refused.status).toBe(429);
    expect(retryAfter(refused)).toBeLessThanOrEqual(30);
  });
});

describe('rate limit configuration', () => {
  it('refuses a malformed rateLimit option at setup', async () => {
    const { app } = createAuthApp({ rateLimit: { ip: { points: 0, duration: 60 } } });
    await expect(app.setup()).rejects.toThrow(/'rateLimit.ip' must be false/);
  });

  it('does not limit internal calls (no provider, no ip)', async () => {
    const { app, auth } = createAuthApp({ rateLimit: { account: { points: 1, duration: 60 } } });
    await app.setup();
    for (let i = 0; i < 3; i++) {
      await expect(
        auth.create({ strategy: 'local', email: 'nobody@example.com', password: 'x' }),
      ).rejects.toMatchObject({ code: 401 });
    }
  });
});
