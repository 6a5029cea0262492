import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from 'plume';
import { json as expressJson, rest, serverFramework } from 'plume/express';
import { urlOf } from '../express/helpers.js';
import type { HostileRequest } from './http.js';
import { sendHostile } from './http.js';
import { expectError, ITEM_ID, useItemsServer } from './items.js';
import { captureLogger, hostileTransports, type ServedApp } from './servers.js';

/**
 * A JSON body is a record or an array of records (SEED.md "REST mapping"). Express' body-parser
 * refused a top-level scalar with JSON.parse's words ("null" is not valid JSON) while the Web
 * Standard handler passed it to the service (PUT null replaced a record with nothing); both now give
 * the same 400 saying what the body must be.
 */
const json = (method: string, path: string, body: string): HostileRequest => ({
  method,
  path,
  body,
  headers: { 'content-type': 'application/json', accept: 'application/json' },
});

describe.each(hostileTransports)('a JSON body that is not an object or an array ($name)', (transport) => {
  const server = useItemsServer(transport);

  it.each([
    ['null', 'null', 'null'],
    ['a number', '5', 'a number'],
    ['a string', '"x"', 'a string'],
    ['a boolean', 'true', 'a boolean'],
    ['null between spaces', ' null\n', 'null'],
    ['a number too large for a double', '1e400', 'a number'],
  ])('%s is a 400 for POST, PUT and PATCH, and nothing is written', async (_name, body, kind) => {
    for (const [method, path] of [
      ['POST', '/items'],
      ['PUT', `/items/${ITEM_ID}`],
      ['PATCH', `/items/${ITEM_ID}`],
    ] as const) {
      expectError(
        await server().send(json(method, path, body)),
        400,
        new RegExp(
          `^Invalid application/json request body: the body must be a JSON object or array, not ${kind}$`,
        ),
      );
    }
  });
});

describe.each(hostileTransports)('JSON objects and arrays ($name)', (transport) => {
  let served: ServedApp;
  beforeAll(async () => {
    served = await transport.serve((app) => {
      app.use('echo', {
        create: (data: unknown) => Promise.resolve(data),
        patch: (_id: unknown, data: unknown) => Promise.resolve(data),
      });
    }, captureLogger());
  });
  afterAll(async () => {
    await served.close();
  });

  it('are passed on: an array for a multi create, an empty object, an empty array', async () => {
    for (const [method, path, body] of [
      ['POST', '/echo', '[{"text":"a"},{"text":"b"}]'],
      ['POST', '/echo', ' [] '],
      ['PATCH', '/echo/1', '{}'],
    ] as const) {
      const answer = await sendHostile(served.url, json(method, path, body));
      expect(answer.status, `${method} ${body}`).toBe(method === 'POST' ? 201 : 200);
      expect(answer.json).toEqual(JSON.parse(body));
    }
  });
});

describe("plume/express json({ strict: false }), body-parser's own opt-out", () => {
  it('keeps a top-level scalar', async () => {
    const app = serverFramework(createApp());
    app.use(expressJson({ strict: false }));
    app.configure(rest());
    app.use('echo', { create: (data: unknown) => Promise.resolve({ data }) });
    const server = await app.listen(0, '127.0.0.1');
    try {
      const answer = await sendHostile(urlOf(server), json('POST', '/echo', 'null'));
      expect(answer.status).toBe(201);
      expect(answer.json).toEqual({ data: null });
    } finally {
      server.closeAllConnections();
      await app.teardown();
    }
  });
});
