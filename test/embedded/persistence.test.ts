import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Double, Long, MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { parseArgs } from '../../src/embedded/cli.js';
import { tempDir } from '../support/temp-dir.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** Runs `node [nodeArgs] file args` and resolves the first line it prints. */
function runNode(
  nodeArgs: string[],
  file: string,
  args: string[],
): { child: ChildProcess; firstLine: Promise<string> } {
  const child = spawn(process.execPath, [...nodeArgs, file, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${err}`)));
  });
  return { child, firstLine };
}

async function withClient<T>(uri: string, fn: (client: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/**
 * Runs `work` against a persistent server in a child process on `dbPath` (fixtures/crash-child.ts,
 * given `args` after the path), then kills the process with SIGKILL, as a crash would.
 */
async function crashAfter(
  dbPath: string,
  args: string[],
  work: (client: MongoClient) => Promise<void>,
): Promise<void> {
  const { child, firstLine } = runNode(
    ['--conditions=source', '--import', 'tsx'],
    path.join(here, 'fixtures/crash-child.ts'),
    [dbPath, ...args],
  );
  try {
    await withClient(await firstLine, work);
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
}

describe('persistence (embedded only)', () => {
  const servers: EmbeddedServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop();
  });

  it('keeps documents, indexes and collection options across restarts', async () => {
    const dbPath = tempDir('plume-db-');
    const first = await startEmbeddedServer({ dbPath });
    await withClient(first.uri, async (client) => {
      const db = client.db('app');
      await db.createCollection('ci', { collation: { locale: 'en', strength: 2 } });
      const users = db.collection('users');
      await users.createIndex({ email: 1 }, { unique: true });
      await users.insertMany([
        { email: 'a@x', n: 1 },
        { email: 'b@x', n: 2 },
      ]);
      await users.updateOne({ email: 'a@x' }, { $inc: { n: 10 } });
      await users.deleteOne({ email: 'b@x' });
      await db.collection('gone').insertOne({});
      await db.collection('gone').drop();
      await db.collection('types').insertOne({ d: new Double(5), l: Long.fromNumber(5), i: 5 });
    });
    await first.stop();
    const second = await startEmbeddedServer({ dbPath });
    servers.push(second);
    await withClient(second.uri, async (client) => {
      const db = client.db('app');
      const users = db.collection('users');
      expect(await users.find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ email: 'a@x', n: 11 }]);
      await expect(users.insertOne({ email: 'a@x' })).rejects.toMatchObject({ code: 11000 });
      const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
      expect(names).toEqual(['ci', 'types', 'users']);
      await db.collection('ci').insertMany([{ k: 'A' }, { k: 'a' }]);
      expect(await db.collection('ci').countDocuments({ k: 'a' })).toBe(2);
      const typed = await db.collection('types').findOne({}, { promoteValues: false });
      const types = ['d', 'l', 'i'].map((k) => (typed![k] as { _bsontype: string })._bsontype);
      expect(types).toEqual(['Double', 'Long', 'Int32']);
    });
  });

  it('keeps the indexes and documents of an $out target when the process is killed', async () => {
    const dbPath = tempDir('plume-db-');
    // No snapshot meanwhile: what comes back is what the journal logged.
    await crashAfter(dbPath, ['600000'], async (client) => {
      const db = client.db('app');
      await db.collection('report').createIndex({ email: 1 }, { unique: true });
      await db.collection('report').insertOne({ email: 'old@x' });
      await db.collection('users').insertMany([{ email: 'a@x' }, { email: 'b@x' }]);
      await db
        .collection('users')
        .aggregate([{ $project: { email: 1 } }, { $out: 'report' }])
        .toArray();
    });
    const again = await startEmbeddedServer({ dbPath });
    servers.push(again);
    await withClient(again.uri, async (client) => {
      const report = client.db('app').collection('report');
      // $out keeps the target's indexes (MongoDB's temporary collection copies them).
      expect((await report.indexes()).map((i) => i['name'])).toEqual(['_id_', 'email_1']);
      const emails = (await report.find().toArray()).map((d) => d['email']);
      expect(emails).toEqual(['a@x', 'b@x']);
      await expect(report.insertOne({ email: 'a@x' })).rejects.toMatchObject({ code: 11000 });
    });
  }, 30_000);

  it('refuses a second server on a locked data directory', async () => {
    const dbPath = tempDir('plume-db-');
    const first = await startEmbeddedServer({ dbPath });
    servers.push(first);
    await expect(startEmbeddedServer({ dbPath })).rejects.toThrow(/locked/);
  });

  it('ignores a torn record at the end of the journal', async () => {
    const dbPath = tempDir('plume-db-');
    const first = await startEmbeddedServer({ dbPath });
    await withClient(first.uri, (client) =>
      client
        .db('t')
        .collection('c')
        .insertOne({ _id: 1 } as never),
    );
    await first.stop();
    const journal = fs.readdirSync(dbPath).find((f) => f.startsWith('journal.'))!;
    fs.appendFileSync(path.join(dbPath, journal), Buffer.from([0x40, 0, 0, 0, 3, 0x61]));
    const second = await startEmbeddedServer({ dbPath });
    servers.push(second);
    expect(await withClient(second.uri, (client) => client.db('t').collection('c').countDocuments())).toBe(1);
  });

  it('loses no acknowledged write when the process is killed', async () => {
    const dbPath = tempDir('plume-db-');
    await crashAfter(dbPath, [], async (client) => {
      const coll = client.db('crash').collection('c');
      for (let i = 0; i < 50; i++) await coll.insertOne({ _id: i } as never);
      await coll.updateMany({}, { $set: { done: true } });
      const s = client.startSession();
      await s.withTransaction(async () => {
        await coll.insertOne({ _id: 'txn' } as never, { session: s });
      });
      await s.endSession();
    });
    const again = await startEmbeddedServer({ dbPath });
    servers.push(again);
    await withClient(again.uri, async (client) => {
      const coll = client.db('crash').collection('c');
      expect(await coll.countDocuments({ done: true })).toBe(50);
      expect(await coll.countDocuments({ _id: 'txn' } as never)).toBe(1);
    });
  }, 30_000);
});

describe('worker thread and command line', () => {
  it('runs the server in a worker thread', async () => {
    const server = await startEmbeddedServer({ worker: true });
    try {
      await withClient(server.uri, async (client) => {
        await client.db('w').collection('c').insertOne({ a: 1 });
        expect(await client.db('w').collection('c').countDocuments()).toBe(1);
      });
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('parses plume-db arguments', () => {
    expect(parseArgs([])).toEqual({ port: 27017 });
    expect(parseArgs(['--port', '0', '--dbpath', '/tmp/x'])).toEqual({ port: 0, dbPath: '/tmp/x' });
    expect(parseArgs(['--port=1234', '--standalone'])).toEqual({ port: 1234, replicaSet: false });
    expect(() => parseArgs(['--bogus'])).toThrow(/unknown option/);
    expect(() => parseArgs(['--port', 'abc'])).toThrow(/invalid --port/);
  });

  it('starts from the command line (bin/plume-db.js, no build needed), prints the URI and stops on SIGTERM', async () => {
    const { child, firstLine } = runNode([], path.join(root, 'bin/plume-db.js'), ['--port', '0']);
    const uri = await firstLine;
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    await withClient(uri, async (client) =>
      expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 }),
    );
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);

  it('works with the URI as is, with ?replicaSet= and with ?directConnection=true', async () => {
    const server = await startEmbeddedServer();
    try {
      for (const uri of [
        server.uri,
        `${server.uri}?replicaSet=plume`,
        `${server.uri}?directConnection=true`,
      ]) {
        await withClient(uri, async (client) => {
          const coll = client.db('uri').collection('c');
          await coll.insertOne({ uri });
          const s = client.startSession();
          await s.withTransaction(async () => {
            await coll.insertOne({ inTxn: uri }, { session: s });
          });
          await s.endSession();
          expect(await coll.countDocuments({ inTxn: uri })).toBe(1);
        });
      }
    } finally {
      await server.stop();
    }
  });
});
