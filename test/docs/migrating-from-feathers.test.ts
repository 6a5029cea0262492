/**
 * Runs the examples of docs/migrating-from-feathers.md (test/docs/migrating-from-feathers.examples.ts)
 * over real HTTP, and checks that every link of the guide leads to a page and a heading that exist.
 * test/docs/examples.test.ts checks that the page's snippets are the examples' code.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FrameworkApplication } from 'plume/express';
import * as guide from './migrating-from-feathers.examples.js';

const running: FrameworkApplication[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.teardown();
});

async function serve(app: FrameworkApplication): Promise<string> {
  const server = await app.listen(0, '127.0.0.1');
  running.push(app);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const json = { accept: 'application/json', 'content-type': 'application/json' };

describe('docs/migrating-from-feathers.md', () => {
  it('serves the FeathersJS service class after the renames, with req.framework params', async () => {
    const app = guide.createMigratedApp();
    guide.addMessageHooks(app);
    const url = await serve(app);
    const found = await fetch(`${url}/messages`, { headers: { 'x-request-id': 'r1' } });
    expect(await found.json()).toEqual([{ id: '1', text: 'Hello', requestId: 'r1' }]);
    const invalid = await fetch(`${url}/messages`, { method: 'POST', headers: json, body: '{}' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ message: 'Invalid message', errors: { text: 'required' } });
    expect((await fetch(`${url}/nothing`, { headers: json })).status).toBe(404);
  });

  it('runs the hooks with this = the service, and the cache skips the method', async () => {
    const app = guide.createMigratedApp();
    guide.addMessageHooks(app);
    const url = await serve(app);
    const original = app.service('messages') as unknown as guide.MessageService;
    const seen: unknown[] = [];
    app.service('messages').hooks({
      after: [(context) => void seen.push(context.params.prefix)],
    });
    expect(await (await fetch(`${url}/messages/1`)).json()).toEqual({ id: '1', text: 'Hello' });
    original.messages[0] = { id: '1', text: 'changed' };
    // Served from the cache: the method did not run again.
    expect(await (await fetch(`${url}/messages/1`)).json()).toEqual({ id: '1', text: 'Hello' });
    expect(seen).toEqual(['msg-', 'msg-']);
  });

  it('error classes take options as their second argument', () => {
    expect(guide.invalidEmail().toJSON()).toMatchObject({ code: 400, data: { field: 'email' } });
  });

  it("an application's own error middleware answers with the status rest() set", async () => {
    const url = await serve(guide.createAppWithOwnErrorMiddleware());
    const remove = await fetch(`${url}/messages/1`, { method: 'DELETE' });
    expect(remove.status).toBe(405);
    const missing = await fetch(`${url}/messages/9`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: "No record found for id '9'" });
  });

  it('every link of the guide leads to an existing page and heading, and the README links the guide', () => {
    const root = new URL('../../', import.meta.url);
    const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
    const slug = (heading: string) =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-');
    const anchors = (page: string) =>
      new Set([...read(`docs/${page}`).matchAll(/^#+ (.+)$/gm)].map((match) => slug(match[1] ?? '')));
    const text = read('docs/migrating-from-feathers.md');
    const broken: string[] = [];
    const links = [...text.matchAll(/\]\(([\w-]*\.md)?(?:#([\w-]+))?\)/g)];
    expect(links.length).toBeGreaterThan(20);
    for (const [link, page = 'migrating-from-feathers.md', anchor] of links) {
      if (anchor !== undefined && !anchors(page).has(anchor)) broken.push(link);
    }
    expect(broken).toEqual([]);
    expect(read('README.md')).toContain('(docs/migrating-from-feathers.md)');
  });
});
