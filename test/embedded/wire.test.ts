import net from 'node:net';
import { BSON, Binary, Long } from 'bson';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';

/** A minimal OP_MSG client: one command at a time on one socket. */
async function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffer = Buffer.alloc(0);
  let waiting: ((doc: Record<string, any>) => void) | undefined;
  socket.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 4 && buffer.length >= buffer.readInt32LE(0)) {
      const len = buffer.readInt32LE(0);
      const doc = BSON.deserialize(buffer.subarray(21, len), { promoteLongs: false });
      buffer = buffer.subarray(len);
      waiting?.(doc);
    }
  });
  let requestId = 1;
  const frame = (
    doc: Record<string, unknown>,
    flags = 0,
    sequences: [string, Record<string, unknown>[]][] = [],
  ) => {
    const body = Buffer.from(BSON.serialize(doc));
    const parts = [Buffer.from([0]), body];
    for (const [id, docs] of sequences) {
      const payload = Buffer.concat([
        Buffer.from(id + '\0'),
        ...docs.map((d) => Buffer.from(BSON.serialize(d))),
      ]);
      const size = Buffer.alloc(4);
      size.writeInt32LE(payload.length + 4);
      parts.push(Buffer.from([1]), size, payload);
    }
    const rest = Buffer.concat(parts);
    const head = Buffer.alloc(20);
    head.writeInt32LE(20 + rest.length, 0);
    head.writeInt32LE(requestId++, 4);
    head.writeInt32LE(2013, 12);
    head.writeUInt32LE(flags, 16);
    return Buffer.concat([head, rest]);
  };
  return {
    command(
      doc: Record<string, unknown>,
      sequences: [string, Record<string, unknown>[]][] = [],
    ): Promise<Record<string, any>> {
      return new Promise((resolve) => {
        waiting = resolve;
        socket.write(frame(doc, 0, sequences));
      });
    },
    fireAndForget(doc: Record<string, unknown>) {
      socket.write(frame(doc, 2));
    },
    close() {
      socket.destroy();
    },
  };
}

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
});
