/**
 * Runs the examples of docs/openapi.md (test/docs/openapi.examples.ts) over real HTTP, like
 * test/docs/examples.test.ts does for the other pages.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type Application } from 'plume';
import { AuthenticationService, JWTStrategy } from 'plume/authentication';
import { createHandler, toRuntimeHandler } from 'plume/http';
import * as docs from './openapi.examples.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(app: Application): Promise<string> {
  const server = createServer(toRuntimeHandler(createHandler(app)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  await app.setup(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const notes = {
  async find() {
    return [];
  },
  async get(id: string) {
    return { _id: id, text: 'a', done: false };
  },
  async create(data: object) {
    return data;
  },
  async patch(_id: string, data: object) {
    return data;
  },
  async remove(id: string) {
    return { _id: id };
  },
  async archive() {
    return null;
  },
};

function notesApp() {
  const app = createApp();
  const auth = new AuthenticationService(app, {
    secret: 's'.repeat(32),
    entity: null,
    authStrategies: ['jwt'],
  });
  auth.register('jwt', new JWTStrategy());
  app.use('authentication', auth, { openapi: false });
  docs.registerNotes(app, notes);
  return app;
}

describe('docs/openapi.md', () => {
  it('describes a service from its openapi option and serves /openapi.json and /docs', async () => {
    const app = notesApp();
    docs.serveDocs(app);
    const url = await serve(app);
    const document = await (await fetch(`${url}/openapi.json`)).json();
    expect(Object.keys(document.paths)).toEqual(['/notes', '/notes/{id}']);
    expect(document.components.schemas.NotePatch.required).toBeUndefined();
    expect(document.paths['/notes'].post.responses['204']).toBeDefined();
    expect(document.paths['/notes'].post.security).toEqual([{ jwt: [] }, {}]);
    expect((await fetch(`${url}/docs`)).headers.get('content-type')).toMatch(/^text\/html/);
    // The documented 204 is what the transport answers.
    const archived = await fetch(`${url}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-method': 'archive' },
      body: '{}',
    });
    expect(archived.status).toBe(204);
  });

  it('builds the document without the routes', () => {
    const text = docs.writeDocument(notesApp());
    expect(JSON.parse(text)).toMatchObject({
      openapi: '3.1.0',
      servers: [{ url: 'https://api.example.com' }],
    });
  });

  it('turns the page and single services off', async () => {
    const app = notesApp();
    docs.documentWithoutPage(app);
    const url = await serve(app);
    expect((await fetch(`${url}/docs`)).status).toBe(404);
    const document = await (await fetch(`${url}/openapi.json`)).json();
    expect(Object.keys(document.paths)).not.toContain('/internal/metrics');
    expect((await fetch(`${url}/internal/metrics`)).status).toBe(200);
  });
});
