/**
 * A raw socket to the server for the fuzzer: sends arbitrary bytes and waits for one reply frame, the
 * connection closing, or a timeout.
 */
import net from 'node:net';
import { BSON } from 'bson';
import { commandMessage } from './frames.js';

/** How a request ended. */
export type Outcome = { kind: 'reply'; frame: Buffer } | { kind: 'closed' } | { kind: 'timeout' };

export class RawConnection {
  private buffer = Buffer.alloc(0);
  private waiter: ((outcome: Outcome) => void) | undefined;
  private nextId = 1_000_000_000;
  closed = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.buffer.length >= 4 && this.buffer.length >= this.buffer.readInt32LE(0)) {
        const length = Math.max(4, this.buffer.readInt32LE(0));
        const frame = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        this.settle({ kind: 'reply', frame });
      }
    });
    const onClose = (): void => {
      this.closed = true;
      this.settle({ kind: 'closed' });
    };
    socket.on('close', onClose);
    socket.on('error', onClose);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  private settle(outcome: Outcome): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(outcome);
  }

  /** Sends `bytes`; resolves with the next reply, a close, or a timeout (`ms` 0: resolves at once). */
  send(bytes: Buffer, ms: number): Promise<Outcome> {
    if (this.closed) return Promise.resolve({ kind: 'closed' });
    return new Promise((resolve) => {
      const timer = ms > 0 ? setTimeout(() => this.settle({ kind: 'timeout' }), ms) : undefined;
      this.waiter = (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      this.socket.write(bytes);
      if (ms === 0) this.settle({ kind: 'timeout' });
    });
  }

  /** Sends a command as OP_MSG; resolves with its reply document (or what went wrong). */
  async command(
    doc: Record<string, unknown>,
    ms: number,
  ): Promise<{ kind: 'reply'; doc: Record<string, unknown> | string } | { kind: 'closed' | 'timeout' }> {
    const id = this.nextId++;
    const outcome = await this.send(commandMessage(id, doc), ms);
    if (outcome.kind !== 'reply') return outcome;
    return { kind: 'reply', doc: RawConnection.check(outcome.frame, id, 2013) };
  }

  /** The reply document, or what is wrong with the frame: wrong responseTo/opCode, or not valid BSON. */
  static check(frame: Buffer, requestId: number, opCode: number): Record<string, unknown> | string {
    if (frame.length < 21) return `frame of ${frame.length} bytes`;
    if (frame.readInt32LE(8) !== requestId) return `responseTo ${frame.readInt32LE(8)}, not ${requestId}`;
    if (frame.readInt32LE(12) !== opCode) return `opCode ${frame.readInt32LE(12)}, not ${opCode}`;
    const start = opCode === 1 ? 36 : 21;
    try {
      // bsonRegExp: a stored pattern JavaScript cannot compile is still valid BSON.
      const doc = BSON.deserialize(frame.subarray(start), { validation: { utf8: true }, bsonRegExp: true });
      if (doc['ok'] !== 1 && doc['ok'] !== 0) return `ok is ${String(doc['ok'])}`;
      if (doc['ok'] === 0 && typeof doc['code'] !== 'number')
        return `ok: 0 without a code: ${String(doc['errmsg'])}`;
      return doc;
    } catch (error) {
      return `reply is not valid BSON: ${(error as Error).message}`;
    }
  }

  close(): void {
    this.socket.destroy();
  }
}
