import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';
import { launchBrowser, noBrowserReason } from '../support/browser.js';
import { listen, type RunningServer as PageServer } from '../transports/servers.js';
import { bundle } from './bundle.js';

/** What the page's script does with the client bundle, against the example API on another origin. */
async function scenario(api: string) {
  const { createClient, withAuthentication, errors } = (
    globalThis as unknown as { plume: typeof import('./browser-entry.js') }
  ).plume;
  const steps: Record<string, unknown> = {};
  localStorage.clear();
  const client = withAuthentication(createClient(api));
  const user = (await client
    .service('users')
    .create({ email: 'eve@example.com', password: 'browser pass' })) as {
    _id: string;
  };
  const login = await client.authenticate({
    strategy: 'local',
    email: 'eve@example.com',
    password: 'browser pass',
  });
  steps.tokenInLocalStorage = localStorage.getItem('plume-jwt') === login.accessToken;

  const messages = client.service('messages');
  const first = (await messages.create({ text: 'from the browser' })) as { _id: string };
  await messages.create({ text: 'second' });
  const page = (await messages.find({
    query: { $sort: { text: 1 }, $limit: 1, text: { $regex: 'browser' } },
  })) as {
    total: number;
    data: { text: string }[];
  };
  steps.found = [page.total, page.data.map((m) => m.text)];
  steps.patched = ((await messages.patch(first._id, { text: 'edited' })) as { text: string }).text;
  steps.stats = await messages.stats!({});
  const mine = (await client.service('users/:userId/messages').find({ route: { userId: user._id } })) as {
    total: number;
  };
  steps.nested = mine.total;
  await messages.remove(first._id);
  const missing = await messages.get(first._id).catch((error: unknown) => error);
  steps.notFound = missing instanceof errors.NotFound && (missing as { code: number }).code === 404;
  const invalid = await messages.create({ text: '' }).catch((error: unknown) => error);
  steps.badRequest =
    invalid instanceof errors.BadRequest && Array.isArray((invalid as { errors: unknown }).errors);

  const events = await client.events<{ text: string }>('messages/stream');
  const live = (await messages.create({ text: 'live' })) as { text: string };
  steps.event = (await events.next()).value?.text === live.text;
  events.close();

  const reloaded = withAuthentication(createClient(api));
  steps.reAuthenticated = ((await reloaded.reAuthenticate()).user as { email: string }).email;
  await reloaded.logout();
  steps.loggedOut = localStorage.getItem('plume-jwt') === null;
  const refused = await reloaded
    .service('users')
    .find()
    .catch((error: unknown) => error);
  steps.notAuthenticated = refused instanceof errors.NotAuthenticated;
  return steps;
}

describe.skipIf(noBrowserReason !== undefined)('plume/client in headless Chromium', () => {
  let database: Database;
  let api: RunningServer;
  let pages: PageServer;

  beforeAll(async () => {
    database = await connectDatabase('', `plume_client_browser_${randomBytes(4).toString('hex')}`);
    const { code } = await bundle(`import './test/client/browser-entry.ts';`, { minify: false });
    pages = await listen(
      createServer((request, response) => {
        if (request.url === '/client.js') {
          response.writeHead(200, { 'content-type': 'text/javascript' }).end(code);
        } else {
          response
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              '<!doctype html><title>plume client</title><script type="module" src="/client.js"></script>',
            );
        }
      }),
    );
    // The page comes from another origin: the example allows it as CORS_ORIGINS would.
    api = await startServer({ port: 0, database, hashCost: 4, corsOrigins: [pages.url] });
  });

  afterAll(async () => {
    await pages?.close();
    await api?.close();
    await database?.db.dropDatabase().catch(() => undefined);
    await database?.close();
  });

  it('runs signup, login with localStorage, CRUD, custom method, nested route, errors and SSE', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      await page.goto(pages.url);
      await page.waitForFunction(() => 'plume' in globalThis);
      const steps = await page.evaluate(scenario, api.url);
      expect(steps).toEqual({
        tokenInLocalStorage: true,
        found: [1, ['from the browser']],
        patched: 'edited',
        stats: { total: 2, authors: [{ userId: expect.any(String), count: 2 }] },
        nested: 2,
        notFound: true,
        badRequest: true,
        event: true,
        reAuthenticated: 'eve@example.com',
        loggedOut: true,
        notAuthenticated: true,
      });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
