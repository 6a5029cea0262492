/**
 * A journal that cannot be written (a full disk): the write is refused with OutOfDiskSpace, the server
 * stops as mongod does (WiredTiger cannot write its journal → mongod aborts, SERVER-16573), and a
 * restart finds every acknowledged write and nothing of the refused one. The disk fills up for real:
 * `ulimit -f` caps the size of the files the server writes, which fails writes past it as a full disk
 * does (first a short write, then an error).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Runs `node args` with the files it writes capped at `blocks` × 512 bytes (`ulimit -f` counts in
 * 512-byte blocks in a POSIX shell); resolves the URI it prints first.
 */
function startCapped(blocks: number, args: string[]) {
  const command = [process.execPath, ...args].map((a) => JSON.stringify(a)).join(' ');
  const child = spawn('sh', ['-c', `ulimit -f ${blocks} && exec ${command}`], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const uri = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    void exited.then((code) => reject(new Error(`plume-db exited with ${code}: ${stderr}`)));
  });
  return { child, uri, exited, stderr: () => stderr };
}

describe.skipIf(process.platform === 'win32')('a full disk (embedded only)', () => {
  const servers: EmbeddedServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop();
  });

  it('refuses the write that does not fit with 14031, stops, and loses no acknowledged write', async () => {
    const dbPath = tempDir('plume-full-');
    const capped = startCapped(512, ['bin/plume-db.js', '--port', '0', '--dbpath', dbPath]);
    const acknowledged: number[] = [];
    let refusal: unknown;
    const client = new MongoClient(await capped.uri, { serverSelectionTimeoutMS: 2000 });
    try {
      const items = client.db('app').collection<{ _id: number; text: string }>('items');
      for (let i = 0; refusal === undefined && i < 1000; i++) {
        await items.insertOne({ _id: i, text: 'x'.repeat(4000) }).then(
          () => acknowledged.push(i),
          (error: unknown) => (refusal = error),
        );
      }
    } finally {
      await client.close();
    }
    expect(refusal).toMatchObject({ code: 14031, codeName: 'OutOfDiskSpace' });
    expect((refusal as Error).message).toMatch(/cannot write the journal .*journal\.\d+\.bson/);
    expect(await capped.exited).toBe(1); // as mongod: a supervisor sees it stopped
    expect(capped.stderr()).toContain('cannot write the journal');

    const server = await startEmbeddedServer({ dbPath });
    servers.push(server);
    const again = new MongoClient(server.uri, { serverSelectionTimeoutMS: 2000 });
    try {
      const items = again.db('app').collection<{ _id: number }>('items');
      const ids = await items.distinct('_id');
      expect(ids.sort((a, b) => a - b)).toEqual(acknowledged);
    } finally {
      await again.close();
    }
  }, 30_000);

  it('answers the requests in flight when the journal fails or closes their connections cleanly, and the driver is served again by a server on that port', async () => {
    // The server stops serving as stop() does (src/embedded/index.ts): idle connections at once, those
    // with a request in progress (here a change stream's waiting getMore) a moment later, so the driver
    // sees its monitoring connection closed first. Closed all at once, the Node.js driver's monitor
    // hung on its closed connection and every later operation failed server selection, even against
    // a server that is back (see closeConnections in src/embedded/server.ts).
    const dbPath = tempDir('plume-full-');
    const fixture = path.join(root, 'test/embedded/fixtures/fatal-child.ts');
    const capped = startCapped(512, ['--conditions=source', '--import', 'tsx', fixture, dbPath]);
    const uri = await capped.uri;
    const client = new MongoClient(`${uri}?replicaSet=plume`, { serverSelectionTimeoutMS: 2000 });
    const reads: { error?: unknown }[] = [];
    let refusal: unknown;
    try {
      const items = client.db('app').collection<{ _id: number; text: string }>('items');
      const changes = client.db('app').collection('quiet').watch([], { maxAwaitTimeMS: 3000 });
      await changes.tryNext();
      const next = changes.next().then(
        () => 'event',
        (error: unknown) => error,
      );
      // The driver checks the server again at once when a request fails 500 ms (minHeartbeatFrequencyMS) after its last check.
      await new Promise((resolve) => setTimeout(resolve, 600));
      const reader = async (): Promise<void> => {
        while (refusal === undefined) {
          const read: { error?: unknown } = await items
            .find()
            .toArray()
            .then(
              (found) => {
                // A torn reply would not decode: every document is whole.
                expect(found.every((item) => item.text.length === 4000)).toBe(true);
                return {};
              },
              (error: unknown) => ({ error }),
            );
          reads.push(read);
          if (read.error !== undefined) return;
        }
      };
      const writer = async (): Promise<void> => {
        for (let i = 0; refusal === undefined && i < 1000; i++) {
          await items
            .insertOne({ _id: i, text: 'x'.repeat(4000) })
            .catch((error: unknown) => (refusal = error));
        }
      };
      await Promise.all([writer(), reader(), reader()]);
      expect(refusal).toMatchObject({ code: 14031, codeName: 'OutOfDiskSpace' });
      await until(() => capped.stderr().includes('fatal: '));
      // Each read was answered (whole, or with the journal's error), saw its connection closed, or found no server.
      for (const { error } of reads) {
        if (error !== undefined)
          expect(error).toMatchObject({
            name: expect.stringMatching(/^Mongo(Server|Network|ServerSelection)Error$/),
          });
      }
      // The failed server holds its data directory until stopped; another one takes its port.
      const server = await startEmbeddedServer({ port: Number(new URL(uri).port) });
      servers.push(server);
      // The same client, whose connections the failed server closed, works against the new one.
      await items.insertOne({ _id: 0, text: 'x'.repeat(4000) });
      expect(await items.countDocuments()).toBe(1);
      await changes.close();
      expect(await next).toBeDefined();
    } finally {
      await client.close();
      capped.child.kill('SIGKILL');
      await capped.exited;
    }
  }, 30_000);

  it('keeps serving when a snapshot or the change history does not fit, and keeps every write in the journal', async () => {
    const dbPath = tempDir('plume-full-');
    // A snapshot every 50 ms: once the data outgrows the cap, every compaction fails, and so does
    // appending to change-history.bson (which holds every inserted document too).
    const fixture = path.join(root, 'test/embedded/fixtures/crash-child.ts');
    const capped = startCapped(512, ['--conditions=source', '--import', 'tsx', fixture, dbPath]);
    const client = new MongoClient(await capped.uri, { serverSelectionTimeoutMS: 2000 });
    try {
      const items = client.db('app').collection<{ _id: number; text: string }>('items');
      for (let i = 0; i < 80; i++) {
        await items.insertOne({ _id: i, text: 'x'.repeat(4000) }); // 320 KB in all
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 200)); // a few more failed compactions
      expect(await items.countDocuments()).toBe(80);
    } finally {
      await client.close();
    }
    capped.child.kill('SIGKILL');
    await capped.exited;
    const server = await startEmbeddedServer({ dbPath });
    servers.push(server);
    const again = new MongoClient(server.uri, { serverSelectionTimeoutMS: 2000 });
    try {
      expect(await again.db('app').collection('items').countDocuments()).toBe(80);
    } finally {
      await again.close();
    }
  }, 30_000);
});
