import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { BadRequest, GeneralError, PayloadTooLarge } from '../errors/index.js';
import { DEFAULT_BODY_LIMIT, getBodyKind } from './body-parser.js';
import { applyCors } from './cors.js';
import type { RequestHandler } from './create-handler.js';
import { createErrorResponse } from './error-handler.js';
import { getHeaderRecord, getJsonText } from './json-response.js';
import {
  createRuntimeRequest,
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
}

/** A Node.js `http` request listener, as returned by `toRuntimeHandler`. */
export type RuntimeListener = (req: IncomingMessage, res: ServerResponse) => void;

const ignore = (): void => undefined;
const validHost = /^[\w.\-~%!$&'()*+,;=:[\]]*$/;

function createUrl(req: IncomingMessage): string {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) return target; // absolute-form target, parsed (and checked) by Request
  const host = req.headers.host ?? '';
  // A Host with '/', '?' or '#' would move the path the router sees away from the request target.
  if (!validHost.test(host)) throw new BadRequest('Invalid Host header');
  const protocol = (req.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http';
  return `${protocol}://${host === '' ? 'localhost' : host}${target}`;
}

/** Reads a request body into memory, refusing with 413 as soon as it passes `limit` bytes. */
function bufferBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      req.pause();
      reject(
        new PayloadTooLarge(`Request body is larger than the limit of ${limit} bytes`, { data: { limit } }),
      );
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onClose = (): void => {
      cleanup();
      reject(new BadRequest('The request body ended early'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

/**
 * Builds the Web Standard `Request` for a Node.js request: parsed content types are buffered (up to
 * `limit`), other bodies streamed. Throws `BadRequest` for a request `Request` refuses and
 * `PayloadTooLarge` for an oversized parsed body.
 */
async function createRequest(
  req: IncomingMessage,
  limit: number,
  signal: LazySignal,
): Promise<RuntimeRequest> {
  const url = createUrl(req);
  const method = req.method ?? 'GET';
  const raw = req.rawHeaders;
  const headers: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.charCodeAt(0) !== 58) headers.push([name, raw[i + 1] as string]); // skip HTTP/2 ':pseudo' headers
  }
  const init: RuntimeRequestInit = { method, headers };
  const length = req.headers['content-length'];
  const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (hasBody && method !== 'GET' && method !== 'HEAD') {
    if (getBodyKind(req.headers['content-type']) !== undefined) {
      if (length !== undefined && Number(length) > limit) {
        throw new PayloadTooLarge(`Request body is larger than the limit of ${limit} bytes`, {
          data: { limit },
        });
      }
      init.body = (await bufferBody(req, limit)) as Uint8Array<ArrayBuffer>;
    } else {
      // Node's web stream type and the DOM one are the same object with different declarations.
      init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    }
  }
  try {
    return createRuntimeRequest(url, init, signal);
  } catch (error: unknown) {
    throw new BadRequest('The request could not be read (invalid URL or header)', { cause: error });
  }
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Streams a body to `res` with backpressure; a client that goes away cancels the body (ending SSE iterators). */
async function pipeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const onClose = (): void => {
    reader.cancel().catch(ignore);
  };
  res.once('close', onClose);
  try {
    res.flushHeaders();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await waitForDrain(res);
    }
    if (res.destroyed) reader.cancel().catch(ignore);
    else res.end();
  } catch {
    // The body stream failed mid-way: cut the connection so the client sees an incomplete response.
    reader.cancel().catch(ignore);
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

/** Writes a `Response` to a Node.js response: status, headers (each `Set-Cookie` apart) and body. */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const text = getJsonText(response);
  if (res.destroyed) {
    if (text === undefined) response.body?.cancel().catch(ignore);
    return;
  }
  const record = text === undefined ? undefined : getHeaderRecord(response);
  if (text !== undefined && record !== undefined) {
    // The usual case: plume's own JSON, headers never turned into a `Headers` object.
    record['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(response.status, record);
    res.end(text);
    return;
  }
  const headers: string[] = [];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push('set-cookie', cookie);
  if (text !== undefined) {
    // A JSON body plume serialised itself: write the text at once instead of reading it back as a stream.
    headers.push('content-length', String(Buffer.byteLength(text)));
    res.writeHead(response.status, headers);
    res.end(text);
    return;
  }
  res.writeHead(response.status, headers);
  if (response.body === null) res.end();
  else await pipeBody(response.body, res);
}

async function serve(
  handler: RequestHandler,
  limit: number,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // Made only if the handler reads `request.signal`: most requests never do.
  const signal = new LazySignal();
  res.once('close', () => {
    if (!res.writableFinished) signal.abort();
  });
  let response: Response;
  try {
    response = await handler(await createRequest(req, limit, signal));
  } catch (error: unknown) {
    const origin = req.headers.origin;
    response = applyCors(createErrorResponse(error, console), typeof origin === 'string' ? origin : null);
    // The unread rest of a refused body is not worth reading: close the connection after answering.
    if (error instanceof PayloadTooLarge) response.headers.set('connection', 'close');
  }
  try {
    await writeResponse(response, res);
  } catch (error: unknown) {
    // Headers that Node refuses, or a failure after they were sent: never let it reach the process.
    console.error(error);
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify(new GeneralError('Internal server error').toJSON()));
    } else res.destroy();
  }
}

/**
 * Adapts a Web Standard handler to Node.js' `http.createServer` (spec: "Web Standard handler API",
 * `toRuntimeHandler`): `createServer(toRuntimeHandler(createHandler(app)))`. For each request it
 * builds a `Request` (URL from `Host`, all headers, an `AbortSignal` that fires when the client goes
 * away before the response is finished), buffers JSON, urlencoded and multipart bodies up to
 * `options.limit` bytes (larger → 413 before reading, or as soon as the count passes it), and
 * streams every other body (`duplex: 'half'`). It writes the response's status, headers (each
 * `Set-Cookie` as its own header) and body, streamed with backpressure. Client disconnects and
 * stream errors are caught; they never crash the process.
 */
export function toRuntimeHandler(
  handler: RequestHandler,
  options: RuntimeHandlerOptions = {},
): RuntimeListener {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  return (req, res) => {
    // Without listeners, an 'error' (client reset mid-upload, write after close) would be thrown.
    req.on('error', ignore);
    res.on('error', ignore);
    void serve(handler, limit, req, res);
  };
}
