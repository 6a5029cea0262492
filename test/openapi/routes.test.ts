import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type Application } from 'plume';
import { createHandler, toRuntimeHandler } from 'plume/http';
import { serveOpenApi } from 'plume/openapi';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(app: Application): Promise<string> {
  const server = createServer(toRuntimeHandler(createHandler(app)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const pathsOf = async (url: string): Promise<string[]> =>
  Object.keys(((await (await fetch(url)).json()) as { paths: object }).paths);

describe('serveOpenApi(options)', () => {
  it('builds the document at setup, not per request: a service added later appears after the next setup', async () => {
    const app = createApp();
    app.use('notes', { find: async () => [] });
    app.configure(serveOpenApi());
    const url = await listen(app);
    await app.setup();
    expect(await pathsOf(`${url}/openapi.json`)).toEqual(['/notes']);
    app.use('tasks', { find: async () => [] });
    expect(await pathsOf(`${url}/openapi.json`)).toEqual(['/notes']);
    await app.setup();
    expect(await pathsOf(`${url}/openapi.json`)).toEqual(['/notes', '/tasks']);
  });

  it('serves the document and the page at the paths given, and the page loads the document from there', async () => {
    const app = createApp();
    app.use('notes', { find: async () => [] });
    app.configure(
      serveOpenApi({
        path: '/api/spec.json',
        docsPath: 'api/reference',
        info: { title: 'A <b>', version: '1' },
      }),
    );
    const url = await listen(app);
    await app.setup();
    expect(await pathsOf(`${url}/api/spec.json`)).toEqual(['/notes']);
    expect((await fetch(`${url}/openapi.json`)).status).toBe(404);
    const page = await (await fetch(`${url}/api/reference`)).text();
    expect(page).toContain('<title>A &#60;b&#62;</title>');
    expect(page).toContain('src="/api/reference/swagger-ui-bundle.js"');
    const init = await (await fetch(`${url}/api/reference/init.js`)).text();
    expect(init).toContain('"url":"/api/spec.json"');
  });
});
