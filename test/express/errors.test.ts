import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from 'plume';
import { BadRequest, GeneralError, NotAuthenticated, type PlumeError } from 'plume/errors';
import {
  errorHandler,
  notFound,
  rest,
  serverFramework,
  type ErrorHandlerOptions,
  type FrameworkApplication,
} from 'plume/express';
import { start } from './helpers.js';

const html = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' };
const json = { accept: 'application/json' };

const running: FrameworkApplication[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.teardown();
});

/** An app whose routes throw: `/fail/<status>` a plume error, `/crash` a plain Error. */
async function serveFailing(
  options: ErrorHandlerOptions,
  notFoundOptions = {},
  closeAfter = running,
): Promise<string> {
  const app = serverFramework(createApp());
  app.configure(rest());
  app.get('/fail/400', () => {
    throw new BadRequest('Invalid name', { data: { field: 'name' } });
  });
  app.get('/fail/401', () => {
    throw new NotAuthenticated('Token expired');
  });
  app.get('/fail/500', () => {
    throw new GeneralError('Database unreachable');
  });
  app.get('/crash', () => {
    throw new Error('password=hunter2 at db.internal');
  });
  app.use(notFound(notFoundOptions));
  app.use(errorHandler(options));
  const { url } = await start(app);
  closeAfter.push(app);
  return url;
}

describe('notFound()', () => {
  it('answers 404 NotFound without the URL by default', async () => {
    const url = await serveFailing({ logger: false });
    const response = await fetch(`${url}/no/such/page?x=1`, { headers: json });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body).toEqual({ name: 'NotFound', message: 'Page not found', code: 404, className: 'not-found' });
  });

  it('puts the URL in the message with verbose: true', async () => {
    const url = await serveFailing({ logger: false }, { verbose: true });
    const body = await (await fetch(`${url}/no/such/page?x=1`, { headers: json })).json();
    expect(body.message).toBe('Page not found: /no/such/page?x=1');
    expect(body.data).toEqual({ url: '/no/such/page?x=1' });
  });
});

describe('errorHandler()', () => {
  const logger = { error: vi.fn() };
  const shared: FrameworkApplication[] = [];
  let url: string;
  beforeAll(async () => {
    url = await serveFailing({ logger }, {}, shared);
  });
  afterAll(async () => {
    await shared.pop()?.teardown();
  });
  afterEach(() => {
    logger.error.mockClear();
  });

  it('answers JSON with the error status and toJSON() body when the client accepts JSON', async () => {
    const response = await fetch(`${url}/fail/400`, { headers: json });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({
      name: 'BadRequest',
      message: 'Invalid name',
      code: 400,
      className: 'bad-request',
      data: { field: 'name' },
    });
  });

  it('answers JSON when the request sends JSON, even if it accepts HTML', async () => {
    const response = await fetch(`${url}/fail/400`, {
      headers: { ...html, 'content-type': 'application/json' },
    });
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('answers JSON to clients that do not ask for HTML (no Accept, or */*)', async () => {
    for (const headers of [{}, { accept: '*/*' }] as Record<string, string>[]) {
      const response = await fetch(`${url}/fail/400`, { headers });
      expect(response.headers.get('content-type')).toContain('application/json');
    }
  });

  it("answers browsers with plume's HTML pages: 401, 404 and a default page", async () => {
    const pages = [
      ['/fail/401', 401, 'Not authenticated'],
      ['/missing', 404, 'Page not found'],
      ['/fail/400', 400, 'Something went wrong'],
      ['/fail/500', 500, 'Something went wrong'],
    ] as const;
    for (const [path, status, title] of pages) {
      const response = await fetch(`${url}${path}`, { headers: html });
      expect(response.status, path).toBe(status);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain(`<title>${title}</title>`);
    }
  });

  it('answers an unexpected error with 500 GeneralError, never its message or stack', async () => {
    const response = await fetch(`${url}/crash`, { headers: json });
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toEqual({
      name: 'GeneralError',
      message: 'Internal server error',
      code: 500,
      className: 'general-error',
    });
    const page = await (await fetch(`${url}/crash`, { headers: html })).text();
    expect(page).not.toContain('hunter2');
    expect(page).not.toMatch(/\bat \w/);
  });

  it('logs each error as thrown with logger.error, client errors included', async () => {
    await fetch(`${url}/fail/400`, { headers: json });
    await fetch(`${url}/missing`, { headers: json });
    expect(logger.error.mock.calls.map(([error]) => (error as { code?: number }).code)).toEqual([400, 404]);
    logger.error.mockClear();
    await fetch(`${url}/fail/500`, { headers: json });
    await fetch(`${url}/crash`, { headers: json });
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(logger.error.mock.calls[0]?.[0]).toMatchObject({
      name: 'GeneralError',
      message: 'Database unreachable',
    });
    expect(logger.error.mock.calls[1]?.[0]).toBeInstanceOf(Error);
    expect((logger.error.mock.calls[1]?.[0] as Error).message).toContain('hunter2');
  });

  it('takes a function as the logger', async () => {
    const errors: unknown[] = [];
    const failing = await serveFailing({ logger: (error: unknown) => errors.push(error) });
    await fetch(`${failing}/fail/500`, { headers: json });
    expect(errors).toHaveLength(1);
  });
});

describe('errorHandler() options', () => {
  it('logs to console by default and nowhere with logger: false', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const byDefault = await serveFailing({});
      await fetch(`${byDefault}/fail/500`, { headers: json });
      expect(spy).toHaveBeenCalledTimes(1);
      const silent = await serveFailing({ logger: false });
      await fetch(`${silent}/fail/500`, { headers: json });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('html: false answers JSON even to browsers', async () => {
    const url = await serveFailing({ html: false, logger: false });
    const response = await fetch(`${url}/fail/401`, { headers: html });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ name: 'NotAuthenticated', message: 'Token expired' });
  });

  it('an html function renders the page with the plume error, status already set', async () => {
    const rendered: PlumeError[] = [];
    const url = await serveFailing({
      logger: false,
      html: (error, _req, res) => {
        rendered.push(error);
        res.send(`<h1>${res.statusCode} ${error.name}</h1>`);
      },
    });
    const response = await fetch(`${url}/crash`, { headers: html });
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('<h1>500 GeneralError</h1>');
    expect(rendered[0]?.message).toBe('Internal server error');
    expect((await fetch(`${url}/fail/400`, { headers: json })).headers.get('content-type')).toContain('json');
  });

  describe('an html object', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'plume-pages-'));
      writeFileSync(join(dir, '404.html'), '<p>custom not found</p>');
      writeFileSync(join(dir, 'error.html'), '<p>custom default</p>');
    });
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it('maps status codes and default to HTML files, keeping plume pages for the rest', async () => {
      const url = await serveFailing({
        logger: false,
        html: { 404: join(dir, '404.html'), 500: join(dir, 'error.html') },
      });
      const notFoundPage = await fetch(`${url}/missing`, { headers: html });
      expect(notFoundPage.status).toBe(404);
      expect(await notFoundPage.text()).toBe('<p>custom not found</p>');
      expect(await (await fetch(`${url}/fail/500`, { headers: html })).text()).toBe('<p>custom default</p>');
      expect(await (await fetch(`${url}/fail/401`, { headers: html })).text()).toContain('Not authenticated');
      const other = await serveFailing({ logger: false, html: { default: join(dir, 'error.html') } });
      expect(await (await fetch(`${other}/fail/400`, { headers: html })).text()).toBe(
        '<p>custom default</p>',
      );
    });

    it('falls back to JSON when the mapped file is missing', async () => {
      const url = await serveFailing({ logger: false, html: { 400: join(dir, 'missing.html') } });
      const response = await fetch(`${url}/fail/400`, { headers: html });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ name: 'BadRequest' });
    });
  });
});

describe('errors after an event stream started', () => {
  it("go to the app's logger, as on the Web Standard handler, not to console", async () => {
    const logged: unknown[] = [];
    const keep = (fields: unknown) => logged.push(fields);
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const app = serverFramework(createApp());
      app.set('logger', { error: keep, warn: keep, info: () => undefined, debug: () => undefined });
      app.configure(rest());
      app.use('feed', {
        async find() {
          return (async function* () {
            yield { n: 1 };
            throw new GeneralError('feed broke');
          })();
        },
      });
      app.use(notFound());
      app.use(errorHandler({ logger: false }));
      running.push(app);
      const { url } = await start(app);
      const text = await (await fetch(`${url}/feed`)).text();
      expect(text).toContain('event: error');
      expect(logged).toEqual([expect.objectContaining({ message: 'feed broke' })]);
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });
});
