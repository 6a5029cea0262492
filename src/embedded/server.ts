/**
 * The TCP side: accepts driver connections, frames messages, runs commands in order per connection,
 * and writes replies (none for `moreToCome` messages).
 */
import net from 'node:net';
import { withClusterTime } from './commands/cluster-time.js';
import { runCommand } from './commands/index.js';
import { CLOSE_CONNECTION, forgetConnection } from './commands/fail-points.js';
import type { ServerCore } from './commands/context.js';
import { toCommandError } from './errors.js';
import {
  MSG_MORE_TO_COME,
  OP_MSG,
  ProtocolError,
  decodeMessage,
  encodeOpMsg,
  encodeOpReply,
} from './wire.js';
import type { WireRequest } from './wire.js';

/** `maxMessageSizeBytes` advertised by `hello`: a longer message is refused. */
const MAX_MESSAGE = 48_000_000;

/** Receives each protocol error: what was wrong and the client's address. */
export type ProtocolErrorLog = (error: ProtocolError, remote: string) => void;

/** The default {@link ProtocolErrorLog}: one line on stderr. */
export const logProtocolError: ProtocolErrorLog = (error, remote) => {
  process.stderr.write(`plume-db: protocol error from ${remote}, connection closed: ${error.message}\n`);
};

let nextConnectionId = 1;

/**
 * Requests a connection may have read and not yet answered. Past this the server stops reading from it
 * until replies go out, as MongoDB, which reads a connection's next message only after answering the
 * last: a client that sends requests and never reads the replies cannot make the server buffer them.
 */
const MAX_QUEUED = 16;

/** Connections with a request read and not yet answered (e.g. a getMore waiting for changes). */
const busy = new WeakSet<net.Socket>();

/** How long after the idle connections a stopping server closes the busy ones, in milliseconds. */
const BUSY_CLOSE_DELAY_MS = 50;

/**
 * Closes the connections of a stopping server: idle ones at once, those with a request in progress a
 * moment later, after calling `interrupt` (which ends the waits of those requests; their replies are
 * not sent, so the client sees a closed connection, which it retries or resumes from). A driver that
 * monitors the server by polling `hello` (this server sends no topologyVersion) checks it again as
 * soon as a request fails; when that check meets its monitoring connection already closed by the peer
 * but not yet reported closed, the Node.js driver (7.x) writes to the dead socket and waits for a
 * 'drain' that never comes: the check never ends, and every later operation of that client fails
 * server selection, even once the server is back. Closing the idle monitoring connection first lets
 * the driver see it closed before any request fails.
 */
export function closeConnections(sockets: Iterable<net.Socket>, interrupt: () => void): void {
  const later: net.Socket[] = [];
  for (const socket of sockets) {
    if (busy.has(socket)) later.push(socket);
    else socket.destroy();
  }
  const closeBusy = (): void => {
    interrupt();
    for (const socket of later) socket.destroy();
  };
  if (later.length === 0) closeBusy();
  else setTimeout(closeBusy, BUSY_CLOSE_DELAY_MS);
}

/** Resolves once `socket` has flushed its write buffer, or has closed. */
function drained(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

/**
 * Handles one request; returns the encoded reply, undefined when none is due, or 'close'. A reply that
 * cannot be encoded (a computed field name with a NUL byte, which BSON cannot hold) is answered with
 * that error instead: thrown here, it would reject the connection's chain and end the process.
 */
async function respond(
  core: ServerCore,
  req: WireRequest,
  connectionId: number,
): Promise<Buffer | undefined | 'close'> {
  try {
    return await answer(core, req, connectionId);
  } catch (error) {
    if (req.opCode === OP_MSG && req.flags & MSG_MORE_TO_COME) return undefined;
    const reply = toCommandError(error).toReply();
    return req.opCode === OP_MSG ? encodeOpMsg(req.requestId, reply) : encodeOpReply(req.requestId, reply);
  }
}

async function answer(
  core: ServerCore,
  req: WireRequest,
  connectionId: number,
): Promise<Buffer | undefined | 'close'> {
  if (core.failure) throw core.failure;
  if (req.opCode === OP_MSG) {
    const reply = req.refused
      ? req.refused.toReply()
      : withClusterTime(core, await runCommand(core, req.command, connectionId));
    // The failCommand fail point's closeConnection: drop the connection instead of answering.
    if (CLOSE_CONNECTION in reply) return 'close';
    if (req.flags & MSG_MORE_TO_COME) return undefined;
    return encodeOpMsg(req.requestId, reply);
  }
  const ns = req.fullCollectionName ?? 'admin.$cmd';
  const db = ns.endsWith('.$cmd') ? ns.slice(0, -5) : 'admin';
  const reply = req.refused
    ? req.refused.toReply()
    : withClusterTime(core, await runCommand(core, req.command, connectionId, db));
  return encodeOpReply(req.requestId, reply);
}

/** Wires a socket to the command layer. */
export function serveConnection(
  core: ServerCore,
  socket: net.Socket,
  log: ProtocolErrorLog = logProtocolError,
): void {
  const connectionId = nextConnectionId++;
  core.connections++;
  core.totalConnections++;
  socket.setNoDelay(true);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let chain: Promise<void> = Promise.resolve();
  /** Requests read and not yet answered (see MAX_QUEUED). */
  let queued = 0;
  /** Logs the error and closes this connection only; every other client is still served. */
  const refuse = (error: ProtocolError): void => {
    log(error, `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`);
    pending = [];
    pendingBytes = 0;
    socket.destroy();
  };
  /** Bytes the next message needs before it is joined and decoded (0: its length is not known yet). */
  let needed = 0;
  socket.on('data', (chunk: Buffer) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    // Chunks are joined once per message, not once per chunk (a 48 MB message arrives in ~700 chunks).
    if (pendingBytes < Math.max(needed, 4)) return;
    let buf = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    needed = 0;
    while (buf.length >= 4) {
      const length = buf.readInt32LE(0);
      if (length < 16 || length > MAX_MESSAGE) {
        refuse(new ProtocolError(`invalid messageLength ${length} (16 to ${MAX_MESSAGE} bytes allowed)`));
        return;
      }
      if (buf.length < length) {
        needed = length;
        break;
      }
      const frame = buf.subarray(0, length);
      buf = buf.subarray(length);
      let req: WireRequest;
      try {
        req = decodeMessage(frame);
      } catch (error) {
        refuse(error instanceof ProtocolError ? error : new ProtocolError(String(error)));
        return;
      }
      queued++;
      busy.add(socket);
      chain = chain.then(async () => {
        const out = await respond(core, req, connectionId);
        if (out === 'close') socket.destroy();
        // The next request is answered once the kernel has taken this reply (the client reads).
        else if (out && !socket.destroyed && !socket.write(out)) await drained(socket);
        queued--;
        if (queued === 0) busy.delete(socket);
        if (queued < MAX_QUEUED && socket.isPaused() && !socket.destroyed) socket.resume();
      });
    }
    pending = buf.length > 0 ? [buf] : [];
    pendingBytes = buf.length;
    if (queued >= MAX_QUEUED) socket.pause();
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    core.connections--;
    forgetConnection(core, connectionId);
  });
}
