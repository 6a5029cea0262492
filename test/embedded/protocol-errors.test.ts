/**
 * Malformed wire messages close only the connection that sent them, with a logged protocol error; every
 * other client keeps being served. Facts from the MongoDB wire protocol manual
 * (https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/): OP_MSG flag bits 0-15 are
 * required and a parser must error on an unknown one; with `checksumPresent` the message ends with a
 * CRC-32C of everything before it.
 */
import net from 'node:net';
import { BSON, BSONRegExp } from 'bson';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServer } from 'plume/embedded';
import { crc32c } from '../../src/embedded/crc32c.js';

function header(length: number, opCode = 2013): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(7, 4);
  h.writeInt32LE(opCode, 12);
  return h;
}

/** An OP_MSG of the given flags and section bytes, optionally with a (correct or wrong) checksum. */
function opMsg(flags: number, sections: Buffer, checksum?: 'good' | 'bad'): Buffer {
  const flagBytes = Buffer.alloc(4);
  flagBytes.writeUInt32LE(flags >>> 0);
  const length = 20 + sections.length + (checksum ? 4 : 0);
  const body = Buffer.concat([header(length), flagBytes, sections]);
  if (!checksum) return body;
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE((crc32c(body) ^ (checksum === 'bad' ? 1 : 0)) >>> 0);
  return Buffer.concat([body, crc]);
}

function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
}

const pingBody = Buffer.concat([Buffer.from([0]), Buffer.from(BSON.serialize({ ping: 1, $db: 'admin' }))]);

/** Sends raw bytes on a fresh socket; resolves with the reply bytes and whether the server closed it. */
function sendRaw(port: number, bytes: Buffer): Promise<{ closed: boolean; reply: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let reply = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ closed: false, reply });
    }, 1500);
    socket.on('data', (chunk: Buffer) => {
      reply = Buffer.concat([reply, chunk]);
      if (reply.length >= 4 && reply.length >= reply.readInt32LE(0)) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ closed: false, reply });
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closed: true, reply });
    });
    socket.on('error', reject);
  });
}

describe('malformed wire messages (embedded only)', () => {
  let server: EmbeddedServer;
  let client: MongoClient;
  const logged: string[] = [];

  beforeAll(async () => {
    server = await startEmbeddedServer({
      onProtocolError: (error, remote) => logged.push(`${remote} ${error.message}`),
    });
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    await client.db('wire').collection('c').insertOne({ before: true });
  });
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  /** After each bad message, the long-lived client and a brand-new one both still work. */
  async function stillServed(): Promise<void> {
    expect(await client.db('wire').collection('c').countDocuments({ before: true })).toBe(1);
    const fresh = new MongoClient(server.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      expect((await fresh.db('admin').command({ ping: 1 }))['ok']).toBe(1);
    } finally {
      await fresh.close();
    }
  }

  it('closes the connection on the 35-byte packet whose kind-1 section size is -1 (used to exhaust memory)', async () => {
    const sections = Buffer.concat([
      Buffer.from([1]),
      int32(-1),
      Buffer.from('docs\0'),
      Buffer.from(BSON.serialize({})),
    ]);
    const packet = opMsg(0, sections);
    expect(packet.length).toBe(35);
    const before = logged.length;
    const { closed, reply } = await sendRaw(server.port, packet);
    expect(closed).toBe(true);
    expect(reply.length).toBe(0);
    expect(logged.length).toBe(before + 1);
    expect(logged.at(-1)).toMatch(/^127\.0\.0\.1:\d+ invalid document sequence size -1 at byte 21$/);
    await stillServed();
  });

  const malformed: [string, Buffer][] = [
    [
      'a body section of negative size',
      opMsg(0, Buffer.concat([Buffer.from([0]), int32(-20), Buffer.alloc(8)])),
    ],
    [
      'a body section smaller than 5 bytes',
      opMsg(0, Buffer.concat([Buffer.from([0]), int32(3), Buffer.alloc(8)])),
    ],
    [
      'a body section running past the message end',
      opMsg(0, Buffer.concat([Buffer.from([0]), int32(500), Buffer.alloc(8)])),
    ],
    ['a sequence of size 0 (not advancing)', opMsg(0, Buffer.concat([pingBody, Buffer.from([1]), int32(0)]))],
    [
      'a sequence running past the message end',
      opMsg(0, Buffer.concat([pingBody, Buffer.from([1]), int32(1000), Buffer.from('d\0')])),
    ],
    [
      'a sequence document running past its section',
      opMsg(
        0,
        Buffer.concat([
          pingBody,
          Buffer.from([1]),
          int32(11),
          Buffer.from('d\0'),
          int32(64),
          Buffer.from([0]),
        ]),
      ),
    ],
    [
      'a size cut off by the message end',
      opMsg(0, Buffer.concat([pingBody, Buffer.from([1]), Buffer.from([1, 0])])),
    ],
    ['two body sections', opMsg(0, Buffer.concat([pingBody, pingBody]))],
    ['an unknown section kind', opMsg(0, Buffer.concat([pingBody, Buffer.from([9])]))],
    ['an unknown required flag bit (bit 3)', opMsg(1 << 3, pingBody)],
    ['a wrong checksum', opMsg(1, pingBody, 'bad')],
    ['an absurd messageLength', Buffer.concat([header(0x7fffffff), Buffer.alloc(8)])],
    ['a negative messageLength', Buffer.concat([header(-35), Buffer.alloc(8)])],
    ['a messageLength under 16', Buffer.concat([header(4), Buffer.alloc(12)])],
    ['an unknown opCode', Buffer.concat([header(20, 9999), Buffer.alloc(4)])],
  ];

  it.each(malformed)('closes the connection on %s, logs it, and serves the others', async (_, bytes) => {
    const before = logged.length;
    const { closed, reply } = await sendRaw(server.port, bytes);
    expect(closed).toBe(true);
    expect(reply.length).toBe(0);
    expect(logged.length).toBe(before + 1);
    await stillServed();
  });

  it('answers a message whose checksum is right, and ignores unknown optional flag bits (16-31)', async () => {
    for (const bytes of [opMsg(1, pingBody, 'good'), opMsg(1 << 20, pingBody)]) {
      const { closed, reply } = await sendRaw(server.port, bytes);
      expect(closed).toBe(false);
      expect(BSON.deserialize(reply.subarray(21))['ok']).toBe(1);
    }
  });

  /**
   * A regex with an option outside `imsxlu` is valid BSON: MongoDB 7.0 stores it and refuses it where it
   * is used, with 51108 "invalid flag in regex options: <c>" (FerretDB's integration suite records that
   * answer from MongoDB for a filter regex with options "123"). `bson` cannot decode it, so the embedded
   * database refuses the command with that code and keeps the connection, which it used to close.
   */
  it.each([
    ['an insert', { insert: 'c', documents: [{ r: new BSONRegExp('a', 'i'), regexDoc: true }], $db: 'wire' }],
    ['a find', { find: 'c', filter: { r: new BSONRegExp('a', 'i') }, $db: 'wire' }],
  ])('answers %s holding a regex with option "g" with 51108 and keeps serving', async (_, command) => {
    const bytes = Buffer.from(BSON.serialize(command));
    const at = bytes.indexOf('a\0i\0');
    bytes.write('g', at + 2);
    const before = logged.length;
    const { closed, reply } = await sendRaw(server.port, opMsg(0, Buffer.concat([Buffer.from([0]), bytes])));
    expect(closed).toBe(false);
    const answer = BSON.deserialize(reply.subarray(21));
    expect(answer).toMatchObject({ ok: 0, code: 51108, errmsg: 'invalid flag in regex options: g' });
    expect(logged.length).toBe(before);
    expect(await client.db('wire').collection('c').countDocuments({ regexDoc: true })).toBe(0);
    await stillServed();
  });
});
