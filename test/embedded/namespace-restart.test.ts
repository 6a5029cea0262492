/**
 * Names and restarts. A name the server accepts is one it can load again: renameCollection to a target
 * whose database name MongoDB refuses (`$`, space, dot…; NamespaceString::validDBName) was accepted,
 * written to the journal, and the next start stopped at "Invalid database name", every collection of
 * the data directory unreachable (found by the wire fuzzer, seed 7461: `to: '$$ROOT.a'`). MongoDB
 * answers InvalidNamespace (73) "Invalid target namespace: …" (rename_collection_cmd.cpp). And loading
 * never refuses a name it restores: the names were checked when written, so a rule made stricter later
 * must not make a data directory unloadable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BSON } from 'bson';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { tempDir } from '../support/temp-dir.js';

const servers: EmbeddedServer[] = [];
const clients: MongoClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.stop();
});

async function open(dbPath: string): Promise<MongoClient> {
  const server = await startEmbeddedServer({ dbPath });
  servers.push(server);
  const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
  clients.push(client);
  return client;
}

async function close(): Promise<void> {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await server.stop();
}

describe('names a data directory holds', () => {
  it('refuses a rename to an invalid database name, and the directory opens again with its data', async () => {
    const dbPath = tempDir('plume-names-');
    let client = await open(dbPath);
    await client
      .db('app')
      .collection<any>('items')
      .insertMany([{ _id: 1 }, { _id: 2 }]);
    for (const to of ['$$ROOT.a', 'a b.c', 'a"b.c', 'x*y.c']) {
      const error: any = await client
        .db('admin')
        .command({ renameCollection: 'app.items', to })
        .catch((e: unknown) => e);
      expect(error.code).toBe(73);
      expect(error.message).toBe(`Invalid target namespace: ${to}`);
    }
    await close();
    client = await open(dbPath);
    expect(await client.db('app').collection<any>('items').countDocuments()).toBe(2);
  });

  it('loads a collection whose name the server would refuse today, with every other collection', async () => {
    const dbPath = tempDir('plume-names-');
    const record = (doc: Record<string, unknown>) => Buffer.from(BSON.serialize(doc));
    fs.writeFileSync(
      path.join(dbPath, 'snapshot.bson'),
      Buffer.concat([
        record({ format: 'plume-snapshot', version: 1, gen: 1 }),
        record({ type: 'collection', ns: '$$ROOT.a', options: {}, indexes: [] }),
        record({ type: 'doc', ns: '$$ROOT.a', doc: { _id: 1 } }),
        record({ type: 'collection', ns: 'app.items', options: {}, indexes: [] }),
        record({ type: 'doc', ns: 'app.items', doc: { _id: 1, v: 'kept' } }),
      ]),
    );
    const client = await open(dbPath);
    expect(await client.db('app').collection<any>('items').findOne({ _id: 1 })).toEqual({
      _id: 1,
      v: 'kept',
    });
    const names = (await client.db('admin').command({ listDatabases: 1, nameOnly: true }))['databases'].map(
      (d: { name: string }) => d.name,
    );
    expect(names).toContain('$$ROOT');
  });
});
