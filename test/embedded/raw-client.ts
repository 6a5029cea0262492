/**
 * A minimal OP_MSG client for tests that send what the driver never sends (a bad `lsid`, no `lsid` at
 * all, raw document sequences). Wire format: https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/
 */
import net from 'node:net';
import { BSON } from 'bson';

/** A minimal OP_MSG client: one command at a time on one socket. */
export async function rawClient(port: number) {
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
    doc: Record<string, unknown> | Buffer,
    flags = 0,
    sequences: [string, Record<string, unknown>[]][] = [],
  ) => {
    // A Buffer is a command already encoded (with values the bson package will not write).
    const body = Buffer.isBuffer(doc) ? doc : Buffer.from(BSON.serialize(doc));
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
      doc: Record<string, unknown> | Buffer,
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
