import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
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
  async function serve(options: Parameters<typeof createAuthApp>[0] = {}): Promise<string> {
    const app = transport.createApp();
    createAuthApp(options, app);
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

  it('40 concurrent wrong-password logins at bcrypt cost 10 leave other requests answered in < 200 ms (median)', async () => {
    const url = await serve({ local: { hashSize: 10 }, rateLimit: false });
    await signup(url, 'ada@example.com');
    let done = false;
    const flood = Promise.all(
      Array.from({ length: 40 }, (_, i) => login(url, 'ada@example.com', `wrong ${i}`)),
    ).finally(() => (done = true));
    // While the flood is being hashed, simple requests one after another must each finish quickly.
    const timings: number[] = [];
    await new Promise((resolve) => setTimeout(resolve, 100));
    while (!done || timings.length === 0) {
      const started = performance.now();
      const ping = await fetch(`${url}/ping`, { headers: { accept: 'application/json' } });
      timings.push(performance.now() - started);
      expect(ping.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(timings.length).toBeGreaterThan(2);
    // The median, not the worst: on a loaded machine any request can be slowed by other processes once.
    const median = [...timings].sort((a, b) => a - b)[Math.floor(timings.length / 2)] as number;
    expect(median).toBeLessThan(200);
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
