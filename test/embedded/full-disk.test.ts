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
