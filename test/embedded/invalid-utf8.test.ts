/**
 * Text that is not UTF-8 in a command. MongoDB 7.0 does not validate UTF-8: it stores such strings as
 * bytes. The embedded database holds text as JS strings and cannot keep those bytes, so it answers that
 * command with `BadValue` (2) and stores nothing; the connection stays open for the next command (it was
 * closed, as for a malformed message). The driver never writes such bytes, so they go over a raw socket
 * as OP_MSG (https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/).
 */
import net from 'node:net';
import { BSON, Code } from 'bson';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';

const MARK = 'MARK';

/** `doc` serialized, with the bytes of the string `MARK` replaced by `a`, two bytes that are not UTF-8, `b`. */
function withBadBytes(doc: Record<string, unknown>): Buffer {
  const bytes = Buffer.from(BSON.serialize(doc));
  const at = bytes.indexOf(MARK);
  Buffer.from([0x61, 0xff, 0xfe, 0x62]).copy(bytes, at);
  return bytes;
}

/** An OP_MSG of `sections` with request id `id`. */
function opMsg(id: number, sections: Buffer): Buffer {
  const head = Buffer.alloc(20);
  head.writeInt32LE(20 + sections.length, 0);
  head.writeInt32LE(id, 4);
  head.writeInt32LE(2013, 12);
  return Buffer.concat([head, sections]);
}

const body = (doc: Buffer): Buffer => Buffer.concat([Buffer.from([0]), doc]);

/** A kind-1 section: `identifier` and its documents. */
function sequence(identifier: string, docs: Buffer[]): Buffer {
  const name = Buffer.from(`${identifier}\0`);
  const size = Buffer.alloc(4);
  size.writeInt32LE(4 + name.length + docs.reduce((n, d) => n + d.length, 0));
  return Buffer.concat([Buffer.from([1]), size, name, ...docs]);
}

/** Sends `messages` on one socket and resolves with the decoded reply bodies, in order. */
function exchange(port: number, messages: Buffer[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const replies: Record<string, unknown>[] = [];
    let pending = Buffer.alloc(0);
    const socket = net.connect(port, '127.0.0.1', () => socket.write(Buffer.concat(messages)));
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        // header (16), flags (4), section kind (1), then the reply document.
        replies.push(BSON.deserialize(pending.subarray(21, length)));
        pending = pending.subarray(length);
      }
      if (replies.length === messages.length) socket.end();
    });
    socket.on('close', () => resolve(replies));
    socket.on('error', reject);
  });
}

describe('invalid UTF-8 in a command (embedded only)', () => {
  let server: EmbeddedServer;
  let client: MongoClient;

  beforeAll(async () => {
    server = await startEmbeddedServer();
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    await client
      .db('utf8')
      .collection('c')
      .insertOne({ _id: 0 } as never);
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  const ping = opMsg(2, body(Buffer.from(BSON.serialize({ ping: 1, $db: 'admin' }))));

  const cases: [string, Buffer][] = [
    [
      'a string value in the command body',
      opMsg(1, body(withBadBytes({ insert: 'c', documents: [{ _id: 1, s: MARK }], $db: 'utf8' }))),
    ],
    [
      'a string value in a document sequence (as the driver sends inserts)',
      opMsg(
        1,
        Buffer.concat([
          body(Buffer.from(BSON.serialize({ insert: 'c', $db: 'utf8' }))),
          sequence('documents', [withBadBytes({ _id: 2, s: MARK })]),
        ]),
      ),
    ],
    [
      'a field name',
      opMsg(1, body(withBadBytes({ insert: 'c', documents: [{ _id: 3, [MARK]: 1 }], $db: 'utf8' }))),
    ],
    [
      "a string in a code-with-scope's scope",
      opMsg(
        1,
        body(
          withBadBytes({ insert: 'c', documents: [{ _id: 5, f: new Code('f', { s: MARK }) }], $db: 'utf8' }),
        ),
      ),
    ],
    [
      "a field name in a code-with-scope's scope",
      opMsg(
        1,
        body(
          withBadBytes({
            insert: 'c',
            documents: [{ _id: 6, f: new Code('f', { [MARK]: 1 }) }],
            $db: 'utf8',
          }),
        ),
      ),
    ],
    [
      'the code of a code-with-scope',
      opMsg(
        1,
        body(
          withBadBytes({ insert: 'c', documents: [{ _id: 7, f: new Code(MARK, { s: 1 }) }], $db: 'utf8' }),
        ),
      ),
    ],
    [
      'a regex pattern in a filter',
      opMsg(1, body(withBadBytes({ delete: 'c', deletes: [{ q: { s: /MARK/ }, limit: 0 }], $db: 'utf8' }))),
    ],
  ];

  it.each(cases)('in %s is refused with BadValue, the connection staying open', async (_case, message) => {
    const [reply, pong] = await exchange(server.port, [message, ping]);
    expect(reply).toMatchObject({ ok: 0, code: 2, codeName: 'BadValue' });
    expect(reply?.['errmsg']).toMatch(/^Invalid UTF-8 in a string or field name at byte \d+ of a document/);
    expect(pong).toMatchObject({ ok: 1 });
    expect(await client.db('utf8').collection('c').find().toArray()).toEqual([{ _id: 0 }]);
  });
});
