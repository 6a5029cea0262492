/**
 * The TCP side: accepts driver connections, frames messages, runs commands in order per connection,
 * and writes replies (none for `moreToCome` messages).
 */
import net from 'node:net';
import { withClusterTime } from './commands/cluster-time.js';
import { runCommand } from './commands/index.js';
import type { ServerCore } from './commands/context.js';
import { MSG_MORE_TO_COME, OP_MSG, decodeMessage, encodeOpMsg, encodeOpReply } from './wire.js';
import type { WireRequest } from './wire.js';

const MAX_MESSAGE = 48_000_000;

let nextConnectionId = 1;

/** Handles one request; returns the encoded reply or undefined when none is due. */
async function respond(
  core: ServerCore,
  req: WireRequest,
  connectionId: number,
): Promise<Buffer | undefined> {
  if (req.opCode === OP_MSG) {
    const reply = withClusterTime(core, await runCommand(core, req.command, connectionId));
    if (req.flags & MSG_MORE_TO_COME) return undefined;
    return encodeOpMsg(req.requestId, reply);
  }
  const ns = req.fullCollectionName ?? 'admin.$cmd';
  const db = ns.endsWith('.$cmd') ? ns.slice(0, -5) : 'admin';
  const reply = withClusterTime(core, await runCommand(core, req.command, connectionId, db));
  return encodeOpReply(req.requestId, reply);
}

/** Wires a socket to the command layer. */
export function serveConnection(core: ServerCore, socket: net.Socket): void {
  const connectionId = nextConnectionId++;
  core.connections++;
  core.totalConnections++;
  socket.setNoDelay(true);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let chain: Promise<void> = Promise.resolve();
  socket.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    let buf = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    while (buf.length >= 4) {
      const length = buf.readInt32LE(0);
      if (length < 16 || length > MAX_MESSAGE) {
        socket.destroy();
        return;
      }
      if (buf.length < length) break;
      const frame = buf.subarray(0, length);
      buf = buf.subarray(length);
      let req: WireRequest;
      try {
        req = decodeMessage(frame);
      } catch {
        socket.destroy();
        return;
      }
      chain = chain.then(async () => {
        const out = await respond(core, req, connectionId);
        if (out && !socket.destroyed) socket.write(out);
      });
    }
    pending = buf.length > 0 ? [buf] : [];
    pendingBytes = buf.length;
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    core.connections--;
  });
}
