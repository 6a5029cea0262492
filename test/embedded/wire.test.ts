import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { BSON, Binary, Long } from 'bson';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import { rawClient } from './raw-client.js';
import { dbPointer, encodeDocument } from '../fuzz/bson-writer.js';
import type { EmbeddedServer } from 'plume/embedded';

describe('wire protocol and session semantics (embedded only)', () => {
  let server: EmbeddedServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('merges kind-1 document sequences into the command', async () => {
    server = await startEmbeddedServer();
    const c = await rawClient(server.port);
    const r = await c.command({ insert: 'seq', $db: 'w', documents: [{ _id: 0 }] }, [
      ['documents', [{ _id: 1 }, { _id: 2 }]],
    ]);
    expect(r).toMatchObject({ ok: 1, n: 3 });
    c.close();
  });

  // value.cpp, operator<< (Value::toString): a DBPointer prints as DBRef("<ns>", <ObjectId hex>); the
  // message printed "[object Object]".
  it('names a DBPointer in an error message as MongoDB prints it', async () => {
    server = await startEmbeddedServer();
    const c = await rawClient(server.port);
    const insert = encodeDocument({
      insert: 'ptr',
      $db: 'w',
      documents: [{ _id: 1, p: dbPointer('w.target') }],
    });
    expect(await c.command(insert)).toMatchObject({ ok: 1, n: 1 });
    const r = await c.command({ aggregate: 'ptr', $db: 'w', pipeline: [{ $redact: '$p' }], cursor: {} });
    expect(r).toMatchObject({
      ok: 0,
      code: 17053,
      errmsg:
        '$redact\'s expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned DBRef("w.target", 070707070707070707070707)',
    });
    c.close();
  });

  it('sends no reply to moreToCome messages', async () => {
    server = await startEmbeddedServer();
    const c = await rawClient(server.port);
    c.fireAndForget({ insert: 'mtc', $db: 'w', documents: [{ _id: 1 }] });
    const r = await c.command({ count: 'mtc', $db: 'w' });
    expect(r).toMatchObject({ ok: 1, n: 1 });
    c.close();
  });

  it('does not apply a retried write twice (same lsid and txnNumber)', async () => {
    server = await startEmbeddedServer();
    const c = await rawClient(server.port);
    const lsid = { id: new Binary(Buffer.from(randomUUID().replace(/-/g, ''), 'hex'), 4) };
    const cmd = {
      update: 'retry',
      $db: 'w',
      lsid,
      txnNumber: Long.fromNumber(1),
      updates: [{ q: { _id: 1 }, u: { $inc: { n: 1 } }, upsert: true }],
    };
    const first = await c.command(cmd);
    const second = await c.command(cmd);
    expect(second).toEqual(first);
    const found = await c.command({ find: 'retry', $db: 'w', filter: {} });
    expect(found['cursor']['firstBatch']).toEqual([{ _id: 1, n: 1 }]);
    const older = await c.command({ ...cmd, txnNumber: Long.fromNumber(0) });
    expect(older).toMatchObject({ ok: 0, code: 225 });
    c.close();
  });

  it('answers NoSuchTransaction (251) for an unknown transaction number', async () => {
    server = await startEmbeddedServer();
    const c = await rawClient(server.port);
    const lsid = { id: new Binary(Buffer.from(randomUUID().replace(/-/g, ''), 'hex'), 4) };
    const r = await c.command({
      find: 'x',
      $db: 'w',
      lsid,
      txnNumber: Long.fromNumber(5),
      autocommit: false,
    });
    expect(r).toMatchObject({
      ok: 0,
      code: 251,
      codeName: 'NoSuchTransaction',
      errorLabels: ['TransientTransactionError'],
    });
    c.close();
  });

  it('closes idle cursors after the cursor timeout', async () => {
    server = await startEmbeddedServer({ cursorTimeoutMs: 100 });
    const c = await rawClient(server.port);
    await c.command({
      insert: 'idle',
      $db: 'w',
      documents: Array.from({ length: 10 }, (_, i) => ({ _id: i })),
    });
    const first = await c.command({ find: 'idle', $db: 'w', batchSize: 2 });
    await new Promise((r) => setTimeout(r, 400));
    const more = await c.command({ getMore: first['cursor']['id'], collection: 'idle', $db: 'w' });
    expect(more).toMatchObject({ ok: 0, code: 43 });
    c.close();
  });

  it('aborts transactions idle past their lifetime', async () => {
    server = await startEmbeddedServer({ transactionLifetimeMs: 100 });
    const c = await rawClient(server.port);
    const lsid = { id: new Binary(Buffer.from(randomUUID().replace(/-/g, ''), 'hex'), 4) };
    const txn = { lsid, txnNumber: Long.fromNumber(1), autocommit: false };
    await c.command({ insert: 'life', $db: 'w', documents: [{ _id: 1 }], ...txn, startTransaction: true });
    await new Promise((r) => setTimeout(r, 1500));
    const commit = await c.command({ commitTransaction: 1, $db: 'admin', ...txn });
    expect(commit).toMatchObject({ ok: 0, code: 251 });
    expect((await c.command({ count: 'life', $db: 'w' }))['n']).toBe(0);
    c.close();
  });

  it('reports standalone hello when replicaSet is false', async () => {
    server = await startEmbeddedServer({ replicaSet: false });
    const c = await rawClient(server.port);
    const hello = await c.command({ hello: 1, $db: 'admin' });
    expect(hello['setName']).toBeUndefined();
    expect(hello['logicalSessionTimeoutMinutes']).toBe(30);
    c.close();
  });

  it('stops reading from a client that never reads its replies, then answers every request', async () => {
    // MongoDB reads a connection's next message only after answering the last. Replies to pipelined
    // requests used to pile up in the server's memory: 30 finds of 16 MB took 500 MB.
    server = await startEmbeddedServer();
    const setup = await rawClient(server.port);
    const big = 'x'.repeat(1024 * 1024);
    const docs = Array.from({ length: 3 }, (_, i) => ({ _id: i, big }));
    expect(await setup.command({ insert: 'big', $db: 'w' }, [['documents', docs]])).toMatchObject({ n: 3 });
    setup.close();

    const socket = net.connect(server.port, '127.0.0.1');
    socket.pause();
    await new Promise((resolve) => socket.once('connect', resolve));
    const find = Buffer.from(BSON.serialize({ find: 'big', singleBatch: true, $db: 'w' }));
    const head = Buffer.alloc(21);
    head.writeInt32LE(21 + find.length, 0);
    head.writeInt32LE(2013, 12);
    const requests = 40; // 40 replies of 3 MiB
    const before = process.memoryUsage().arrayBuffers;
    socket.write(Buffer.concat(Array.from({ length: requests }, () => Buffer.concat([head, find]))));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(48 * 1024 * 1024);

    // Every reply is the same size; the first and the last are decoded.
    const chunks: Buffer[] = [];
    let received = 0;
    await new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        const first = Buffer.concat(chunks.slice(0, 4));
        if (first.length >= 4 && received >= requests * first.readInt32LE(0)) resolve();
      });
      socket.on('error', reject);
      socket.resume();
    });
    const all = Buffer.concat(chunks);
    const length = all.readInt32LE(0);
    expect(received).toBe(requests * length);
    for (const at of [0, (requests - 1) * length]) {
      const reply = BSON.deserialize(all.subarray(at + 21, at + length));
      expect(reply['cursor']['firstBatch']).toHaveLength(3);
    }
    socket.destroy();
  });

  it("forgets a closed connection's application name", async () => {
    // Each handshake's client.application.name was kept for the failCommand appName filter and never
    // dropped: a server that clients reconnect to grew for ever.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    server = await startEmbeddedServer();
    const heap = (): number => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    for (let i = 0; i < 40; i++) {
      const c = await rawClient(server.port);
      const name = `${i}`.padEnd(1024 * 1024, 'x');
      expect(await c.command({ hello: 1, $db: 'admin', client: { application: { name } } })).toMatchObject({
        ok: 1,
      });
      c.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heap() - before).toBeLessThan(16 * 1024 * 1024);
  });
});
