import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createBodyTooLarge } from '../core/index.js';
import { BadRequest, GeneralError, MethodNotAllowed, PayloadTooLarge } from '../errors/index.js';
import { DEFAULT_BODY_LIMIT, getBodyKind } from './body-parser.js';
import { resolveCompression, type CompressionOptions, type CompressionSettings } from './compression.js';
import { applyCors, getHandlerCorsPolicy } from './cors.js';
import { getResponder } from './create-handler.js';
import type { RequestHandler, Responder, ResponseCallback } from './declarations.js';
import { createErrorResponse } from './error-handler.js';
import { duplicateHostError, missingHostError } from './host-header.js';
import { writeResponse } from './write-response.js';
import {
  createRuntimeRequest,
  headerRecordOf,
  LazySignal,
  type RuntimeRequest,
  type RuntimeRequestInit,
} from './runtime-request.js';

/** Options of `toRuntimeHandler`. */
export interface RuntimeHandlerOptions {
  /**
   * Largest JSON, urlencoded or multipart body buffered, in bytes (default 1 MiB, like `bodyParser`;
   * raise both together). Larger bodies are answered with 413 without being read into memory.
   */
  limit?: number;
  /**
   * Compress responses (off by default): `true` for gzip or Brotli (as `Accept-Encoding` allows) of
   * compressible bodies of 1 KiB or more, or `{ threshold, encodings }`. Event streams
   * (`text/event-stream`), encoded responses and `Cache-Control: no-transform` are never compressed.
   */
  compression?: boolean | CompressionOptions;
}

/** A Node.js `http` request listener, as returned by `toRuntimeHandler`. */
export type RuntimeListener = (req: IncomingMessage, res: ServerResponse) => void;

const validHost = /^[\w.\-~%!$&'()*+,;=:[\]]*$/;

/** Hosts already checked, per scheme, mapped to their origin (`URL.origin`); kept small. */
const origins = { http: new Map<string, string>(), https: new Map<string, string>() };
const MAX_ORIGINS = 100;
/**
 * The last host seen, the map of its scheme, and its origin (an empty Host means `localhost`, as
 * below). Most requests repeat it, and comparing the new host string with it costs less than hashing
 * it for the map.
 */
let lastHost = '';
let lastKnown = origins.http;
let lastOrigin = 'http://localhost';

/**
 * The origin (`http://host[:port]`, normalised as `URL.origin`) of an origin-form request, from its
 * `Host` header; `undefined` for an absolute-form target (or `*`), which the URL parser checks as a
 * whole. Throws `BadRequest` for a Host the URL parser refuses or that would change the routed path.
 */
function getOrigin(req: IncomingMessage, host: string, target: string): string | undefined {
  if (target.charCodeAt(0) !== 47) return undefined; // not `/`: a comparison costs less than `startsWith`
  const known = (req.socket as Partial<TLSSocket>).encrypted === true ? origins.https : origins.http;
  if (host === lastHost && known === lastKnown) return lastOrigin;
  let origin = known.get(host);
  if (origin === undefined) {
    // A Host with '/', '?' or '#' would move the path the router sees away from the request target.
    if (!validHost.test(host)) throw new BadRequest('Invalid Host header');
    const scheme = known === origins.https ? 'https' : 'http';
    try {
      origin = new URL(`${scheme}://${host === '' ? 'localhost' : host}/`).origin;
    } catch (error: unknown) {
      throw new BadRequest('The request could not be read (invalid URL or header)', { cause: error });
    }
    if (known.size >= MAX_ORIGINS) known.clear(); // many different hosts: stay small, re-check them
    known.set(host, origin);
  }
  lastHost = host;
  lastKnown = known;
  lastOrigin = origin;
  return origin;
}

/**
 * The request headers as one plain object, read here and by the handler: Node.js' own `req.headers`
 * (lower-case names; it maps the common names without lower-casing them, which makes it cheaper
 * than any copy), except for HTTP/2 requests, whose pseudo-headers (`:path`) are left out.
 */
function requestHeaderRecord(req: IncomingMessage): Record<string, string> {
  // Node.js types `set-cookie` as an array; a request has no business sending one, and plume reads
  // only single-valued headers from this object.
  return req.httpVersionMajor < 2 ? (req.headers as Record<string, string>) : headerRecordOf(req.rawHeaders);
}

/** Aborts `signal` when the client goes away before `res` is finished; called once the signal is read. */
function watchClient(res: ServerResponse, signal: LazySignal<ServerResponse>): void {
  if (res.destroyed) {
    // Gone already ('close' was emitted before anyone asked for the signal).
    if (!res.writableFinished) signal.abort();
    return;
  }
  res.once('close', () => {
    if (!res.writableFinished) signal.abort();
  });
}

/**
 * Reads a request body into memory and calls `done` with it, or `failed` with a 413 as soon as it
 * passes `limit` bytes, or with a 400 when the request ends before its body. Callbacks rather than a
 * promise: resolving a promise with a `Buffer` makes V8 look for a `then` along the Buffer's prototype
 * chain (about 800 instructions), and the answer would then wait for a microtask.
 */
function bufferBody(
  req: IncomingMessage,
  limit: number,
  done: (body: Buffer) => void,
  failed: (error: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  // The listeners die with the request; `settled` keeps a late 'close' from making an error.
  let settled = false;
  req.on('data', (chunk: Buffer) => {
    if (settled) return;
    size += chunk.byteLength;
    if (size <= limit) {
      chunks.push(chunk);
      return;
    }
    settled = true;
    req.pause();
    failed(createBodyTooLarge(limit));
  });
  req.on('end', () => {
    if (settled) return;
    settled = true;
    done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
  });
  req.on('close', () => {
    if (settled) return;
    settled = true;
    failed(new BadRequest('The request body ended early'));
  });
}

/** How a request's body reaches its `Request`: none, streamed, or buffered first (`bufferBody`). */
type BodyMode = 'none' | 'stream' | 'buffer';

/**
 * How the body of a Node.js request reaches its `Request`: parsed content types (JSON, urlencoded,
 * multipart) are buffered up to `limit` bytes, other bodies streamed. Throws `PayloadTooLarge` for a
 * parsed body whose `Content-Length` passes `limit`.
 */
function getBodyMode(headers: Record<string, string>, method: string, limit: number): BodyMode {
  const length = headers['content-length'];
  const hasBody = headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody || method === 'GET' || method === 'HEAD') return 'none';
  if (getBodyKind(headers['content-type']) === undefined) return 'stream';
  if (length !== undefined && Number(length) > limit) {
    throw createBodyTooLarge(limit);
  }
  return 'buffer';
}

/** The peer address of each connection, read once per connection rather than once per request. */
const remoteAddresses = new WeakMap<Socket, string>();

/**
 * `socket.remoteAddress`, remembered for the connection: Node.js' getter reads the socket's handle
 * twice through a symbol that every kind of socket shares, about 400 instructions per read, while
 * the address of a connection never changes. `undefined` (a socket already closed) is not remembered.
 */
function getRemoteAddress(socket: Socket): string | undefined {
  let address = remoteAddresses.get(socket);
  if (address === undefined) {
    address = socket.remoteAddress;
    if (address !== undefined) remoteAddresses.set(socket, address);
  }
  return address;
}

/** Methods the Fetch standard forbids in a `Request` (Node.js passes TRACE and TRACK to handlers). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * Builds the Web Standard `Request` for a Node.js request (URL `origin + target`, all headers,
 * `body`). Throws `MethodNotAllowed` for a method `Request` forbids (as Express answers it), and
 * `BadRequest` for any other request `Request` refuses.
 */
function createRequest(
  req: IncomingMessage,
  headers: Record<string, string>,
  method: string,
  origin: string | undefined,
  target: string,
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined,
  signal: LazySignal<ServerResponse>,
): RuntimeRequest {
  // `body` in the literal, even when undefined: a property added later would cost the object a
  // second allocation for its properties.
  const init: RuntimeRequestInit = {
    method,
    rawHeaders: req.rawHeaders,
    headerRecord: headers,
    remoteAddress: getRemoteAddress(req.socket),
    body,
  };
  try {
    return createRuntimeRequest(origin, target, init, signal);
  } catch (error: unknown) {
    if (FORBIDDEN_METHODS.has(method.toUpperCase()))
      throw new MethodNotAllowed(`Method ${method} is not allowed`, { cause: error });
    throw new BadRequest('The request could not be read (invalid URL or header)', { cause: error });
  }
}

/**
 * Writes the handler's response, or the JSON error for what failed before the handler answered
 * (`response` `null`). Never throws: a failure to write must not reach the process.
 */
function deliver(
  handler: RequestHandler,
  compression: CompressionSettings | null,
  headers: Record<string, string>,
  res: ServerResponse,
  response: Response | null,
  error: unknown,
): void {
  try {
    if (response === null) {
      response = applyCors(
        createErrorResponse(error, console),
        headers.origin ?? null,
        getHandlerCorsPolicy(handler),
      );
      // The unread rest of a refused body is not worth reading: close the connection after answering.
      if (error instanceof PayloadTooLarge) response.headers.set('connection', 'close');
    }
    const piping = writeResponse(
      response,
      res,
      compression === null ? null : { settings: compression, acceptEncoding: headers['accept-encoding'] },
    );
    piping?.catch((failure: unknown) => writeFailed(res, failure));
  } catch (failure: unknown) {
    writeFailed(res, failure);
  }
}

/** Headers that Node refuses, or a failure after they were sent: log it, answer 500 if still possible. */
function writeFailed(res: ServerResponse, error: unknown): void {
  console.error(error);
  if (!res.headersSent) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify(new GeneralError('Internal server error').toJSON()));
  } else res.destroy();
}

/** Calls any handler in the callback form: `reply` gets its response, or what it threw or rejected with. */
function callbackForm(handler: RequestHandler): Responder {
  return (request, reply) => {
    let answer: Promise<Response>;
    try {
      answer = Promise.resolve(handler(request));
    } catch (error: unknown) {
      reply(null, error);
      return;
    }
    answer.then(reply, (error: unknown) => reply(null, error));
  };
}

function serve(
  respond: Responder,
  handler: RequestHandler,
  limit: number,
  compression: CompressionSettings | null,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const headers = requestHeaderRecord(req);
  const reply: ResponseCallback = (response, error) =>
    deliver(handler, compression, headers, res, response, error);
  try {
    const target = req.url ?? '/';
    const host = headers.host;
    const refused = host === undefined ? missingHostError(req) : duplicateHostError(req);
    if (refused !== undefined) throw refused;
    const origin = getOrigin(req, host ?? '', target);
    const method = req.method ?? 'GET';
    const mode = getBodyMode(headers, method, limit);
    // The signal listens for the client going away only if the handler reads it: most never do.
    const signal = new LazySignal(res, watchClient);
    if (mode !== 'buffer') {
      // Node's web stream type and the DOM one are the same object with different declarations.
      const body =
        mode === 'stream' ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined;
      respond(createRequest(req, headers, method, origin, target, body, signal), reply);
      return;
    }
    bufferBody(
      req,
      limit,
      (bytes) => {
        try {
          const body = bytes as Uint8Array<ArrayBuffer>;
          respond(createRequest(req, headers, method, origin, target, body, signal), reply);
        } catch (error: unknown) {
          reply(null, error);
        }
      },
      (error) => reply(null, error),
    );
  } catch (error: unknown) {
    reply(null, error);
  }
}

/**
 * Adapts a Web Standard handler to Node.js' `http.createServer` (spec: "Web Standard handler API",
 * `toRuntimeHandler`): `createServer(toRuntimeHandler(createHandler(app)))`. For each request it
 * builds a `Request` (URL from `Host`, all headers, an `AbortSignal` that fires when the client goes
 * away before the response is finished), buffers JSON, urlencoded and multipart bodies up to
 * `options.limit` bytes (larger → 413 before reading, or as soon as the count passes it), and
 * streams every other body (`duplex: 'half'`). It writes the response's status, headers (each
 * `Set-Cookie` as its own header) and body, streamed with backpressure, compressed when
 * `options.compression` is on. Client disconnects and stream errors are caught; they never crash
 * the process.
 */
export function toRuntimeHandler(
  handler: RequestHandler,
  options: RuntimeHandlerOptions = {},
): RuntimeListener {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  const compression = resolveCompression(options.compression);
  // No 'error' listeners here: `IncomingMessage` emits 'error' only to listeners it has, and the
  // response gets one where a write can fail late (write-response.ts: streamed and compressed bodies).
  // plume's own handlers answer through a callback: a promise and a reaction less per request.
  const respond = getResponder(handler) ?? callbackForm(handler);
  return (req, res) => {
    serve(respond, handler, limit, compression, req, res);
  };
}
