import { MongoClient, ObjectId, type Collection, type Document } from 'mongodb';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { sendHostile, type Answer, type HostileRequest } from './http.js';
import { captureLogger, serverErrors, type HostileTransport, type ServedApp } from './servers.js';

/** The id of the record every `ItemsServer` starts with (`{ text: 'original' }`). */
export const ITEM_ID = 'aaaaaaaaaaaaaaaaaaaaaaaa';

/** A `DocDbService` on `items` (no schema, `multi` off) over one transport, on the embedded database. */
export interface ItemsServer {
  served: ServedApp;
  items: Collection<Document>;
  /** Sends a request to the server (`raw` requests get `Host` and `Connection: close` added). */
  send(request: HostileRequest): Promise<Answer>;
  /**
   * Fails unless the collection holds only the original record, unchanged, and no 5xx was logged;
   * either way the collection is then put back to that one record, so that the next test starts clean.
   */
  expectUntouched(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the embedded database and serves `items` on `transport`, with one record in it. */
export async function serveItems(transport: HostileTransport): Promise<ItemsServer> {
  const database: EmbeddedServer = await startEmbeddedServer();
  const client = await MongoClient.connect(database.uri);
  const items = client.db('hostile').collection('items');
  const original = { _id: new ObjectId(ITEM_ID), text: 'original' };
  await items.insertOne({ ...original });
  const logger = captureLogger();
  const served = await transport.serve((app) => {
    app.use('items', new DocDbService({ Model: items }));
  }, logger);
  return {
    served,
    items,
    send(request) {
      if (typeof request.raw !== 'string') return sendHostile(served.url, request);
      // Raw requests are written as `METHOD target HTTP/1.1\r\n<headers>\r\n\r\n<body>`.
      const [head = '', ...rest] = request.raw.split('\r\n');
      const raw = [head, 'Host: localhost', 'Accept: application/json', 'Connection: close', ...rest].join(
        '\r\n',
      );
      return sendHostile(served.url, { raw });
    },
    async expectUntouched() {
      const stored = await items.find({}).toArray();
      const logged = serverErrors(logger);
      if (stored.length !== 1 || stored[0]?.text !== original.text) {
        await items.deleteMany({});
        await items.insertOne({ ...original });
      }
      logger.errors.length = 0;
      expect(stored).toEqual([original]);
      expect(logged).toEqual([]);
    },
    async close() {
      await served.close();
      await client.close();
      await database.stop();
    },
  };
}

/**
 * Registers, in the calling `describe`, an `ItemsServer` on `transport` started before its tests, checked
 * untouched after each (`expectUntouched`) and closed after all; returns a getter for it.
 */
export function useItemsServer(transport: HostileTransport): () => ItemsServer {
  let server: ItemsServer | undefined;
  beforeAll(async () => {
    server = await serveItems(transport);
  });
  afterEach(async () => {
    await server?.expectUntouched();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the items server did not start');
    return server;
  };
}

/** Fails unless `answer` is a JSON plume error with `status` and no stack. */
export function expectError(answer: Answer, status: number, message?: RegExp): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(answer.json).toMatchObject({ code: status, name: expect.any(String) });
  expect(answer.text).not.toMatch(/\n\s+at |"stack"/);
  if (message) expect((answer.json as { message: string }).message).toMatch(message);
}
