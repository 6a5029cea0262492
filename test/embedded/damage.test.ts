/**
 * Damaged data files: every record carries CRC-32C checksums, so damage is detected; start-up stops with
 * an error naming the file and byte offset and writes nothing; a torn final journal record (a crash
 * mid-append, never acknowledged) is dropped; `repair` / `plume-db --repair` salvages the rest into a new
 * snapshot and keeps the originals aside.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BSON } from 'bson';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFileError, repairDataDirectory, startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { tempDir } from '../support/temp-dir.js';
import { crashImage, journalOf, tearLastAppend } from './crash-image.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every file of a directory (recursively) with the hash of its bytes. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, entry);
    if (fs.statSync(file).isFile())
      out[entry] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}

function flipByte(file: string, at: number): void {
  const bytes = fs.readFileSync(file);
  bytes[at] = bytes[at]! ^ 0x20;
  fs.writeFileSync(file, bytes);
}

async function count(server: EmbeddedServer): Promise<number> {
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
  try {
    return await client.db('app').collection('items').countDocuments();
  } finally {
    await client.close();
  }
}

/** Starts a server, inserts `n` documents one by one, and returns it still running. */
async function serverWith(dbPath: string, n: number): Promise<EmbeddedServer> {
  const server = await startEmbeddedServer({ dbPath });
  const client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
  try {
    for (let i = 0; i < n; i++)
      await client
        .db('app')
        .collection('items')
        .insertOne({ i, text: `item ${i}` });
  } finally {
    await client.close();
  }
  return server;
}

async function startFails(dbPath: string): Promise<DataFileError> {
  const error = await startEmbeddedServer({ dbPath }).then(
    (s) => s.stop().then(() => undefined),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataFileError);
  return error as DataFileError;
}

describe('damaged data files (embedded only)', () => {
  const servers: EmbeddedServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop();
  });

  it('refuses to start on a flipped byte mid-snapshot, writes nothing, and repairs on request', async () => {
    const dbPath = tempDir('plume-damage-');
    await (await serverWith(dbPath, 900)).stop(); // stop() compacts: all 900 are in the snapshot
    const snapshot = path.join(dbPath, 'snapshot.bson');
    const flipped = Math.floor(fs.statSync(snapshot).size / 2);
    flipByte(snapshot, flipped);
    const before = contents(dbPath);

    const error = await startFails(dbPath);
    expect(error.file).toBe(snapshot);
    expect(error.offset).toBeLessThanOrEqual(flipped);
    expect(flipped - error.offset).toBeLessThan(100); // the record holding the flipped byte
    expect(error.message).toContain(
      `${snapshot} is damaged at byte ${error.offset}: record checksum mismatch`,
    );
    expect(error.message).toContain('plume-db --dbpath <dir> --repair');
    expect(contents(dbPath)).toEqual(before); // never compacted over, no lock left behind
    await startFails(dbPath); // and again: still refused

    const server = await startEmbeddedServer({ dbPath, repair: true });
    servers.push(server);
    expect(await count(server)).toBe(899); // only the damaged record is lost
    const aside = fs.readdirSync(dbPath).find((f) => f.startsWith('repair-'))!;
    expect(contents(path.join(dbPath, aside))['snapshot.bson']).toBe(before['snapshot.bson']);
  });

  it('refuses to start on a flipped byte mid-journal, and `plume-db --repair` salvages the rest', async () => {
    const dbPath = tempDir('plume-damage-');
    const running = await serverWith(dbPath, 50); // each insert is one fsynced journal record
    servers.push(running);
    const image = crashImage(dbPath);
    const journal = journalOf(image);
    const flipped = Math.floor(fs.statSync(journal).size / 2);
    flipByte(journal, flipped);
    const before = contents(image);

    const error = await startFails(image);
    expect(error.file).toBe(journal);
    expect(error.message).toMatch(/is damaged at byte \d+: record (header )?checksum mismatch/);
    expect(contents(image)).toEqual(before);

    const cli = spawnSync(process.execPath, ['bin/plume-db.js', '--dbpath', image, '--repair'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(cli.stderr).toBe('');
    expect(cli.status).toBe(0);
    expect(cli.stdout).toMatch(/journal\.\d+\.bson: \d+ records salvaged, skipped \d+ bytes at \d+\n/);
    expect(cli.stdout).toMatch(/repaired: 49 documents in a new snapshot; originals kept in .*repair-/);
    const server = await startEmbeddedServer({ dbPath: image });
    servers.push(server);
    expect(await count(server)).toBe(49);
  });

  it('drops a torn final journal record (never acknowledged) and keeps every record before it', async () => {
    const dbPath = tempDir('plume-damage-');
    servers.push(await serverWith(dbPath, 20));
    const image = crashImage(dbPath);
    tearLastAppend(image);
    const server = await startEmbeddedServer({ dbPath: image });
    servers.push(server);
    expect(await count(server)).toBe(19);
  });

  it('refuses a complete final journal record whose checksum does not match', async () => {
    const dbPath = tempDir('plume-damage-');
    servers.push(await serverWith(dbPath, 20));
    const image = crashImage(dbPath);
    const journal = journalOf(image);
    flipByte(journal, fs.statSync(journal).size - 3);
    const error = await startFails(image);
    expect(error.message).toContain('record checksum mismatch');
    expect(repairDataDirectory(image).documents).toBe(19);
  });

  it('reads format-1 files (no checksums) and rewrites them in format 2', async () => {
    const dbPath = tempDir('plume-damage-');
    const record = (doc: Record<string, unknown>) => Buffer.from(BSON.serialize(doc));
    fs.writeFileSync(
      path.join(dbPath, 'snapshot.bson'),
      Buffer.concat([
        record({ format: 'plume-snapshot', version: 1, gen: 3 }),
        record({ type: 'collection', ns: 'app.items', options: {}, indexes: [] }),
        record({ type: 'doc', ns: 'app.items', doc: { _id: 1 } }),
      ]),
    );
    fs.writeFileSync(
      path.join(dbPath, 'journal.3.bson'),
      record({ changes: [{ op: 'put', ns: 'app.items', doc: { _id: 2 } }] }),
    );
    const server = await startEmbeddedServer({ dbPath });
    servers.push(server);
    expect(await count(server)).toBe(2);
    expect(fs.readFileSync(path.join(dbPath, 'snapshot.bson')).subarray(0, 8).toString()).toBe('PLUMEDB2');
  });
});
