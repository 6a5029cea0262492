/**
 * Writing a `Response` to a Node.js `ServerResponse` for `toRuntimeHandler`: status, headers (each
 * `Set-Cookie` apart) and body, streamed with backpressure, compressed when compression applies.
 */
import { Buffer } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  addAcceptEncodingToVary,
  chooseEncoding,
  compressText,
  createCompressor,
  isCompressible,
  type CompressionSettings,
} from './compression.js';
import { getHeaderRecord, getJsonText } from './json-response.js';

const ignore = (): void => undefined;

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
  // A write to a response whose client went away may emit 'error'; without a listener it would throw.
  res.on('error', ignore);
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

/** The response headers as name/value pairs for `writeHead`, each `Set-Cookie` apart, without `skip`. */
function headerPairs(response: Response, skip?: string): string[] {
  const headers: string[] = [];
  const record = getHeaderRecord(response);
  if (record !== undefined) {
    for (const name of Object.keys(record)) if (name !== skip) headers.push(name, record[name] as string);
    return headers;
  }
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== skip) headers.push(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push('set-cookie', cookie);
  return headers;
}

/** `ServerResponse` with the field Node.js writes `Content-Length` from when no header sets it. */
type LengthAware = ServerResponse & { _contentLength?: number | null };

/**
 * Sends `Content-Length: length` with a body written at once. Node.js writes that header itself from
 * its `_contentLength` field when `writeHead` got none, as it does for `res.end(body)` without
 * `writeHead`. A header passed to `writeHead` is checked with two regular expressions and matched
 * against Node's special headers, about 1 k instructions. The field is not public API, so it is set
 * only where it exists and is unset, and only when Node.js would otherwise send the body chunked
 * (HTTP/1.1); an HTTP/1.0 response, or a Node.js without the field, gets the header.
 */
function setContentLength(res: ServerResponse, record: Record<string, string>, length: number): void {
  const outgoing = res as LengthAware;
  if (outgoing._contentLength === null && res.useChunkedEncodingByDefault) outgoing._contentLength = length;
  else record['content-length'] = String(length);
}

/** What `writeCompressed` needs besides the response. */
export interface CompressionRequest {
  settings: CompressionSettings;
  acceptEncoding: string | undefined;
}

/**
 * Writes `response` compressed when compression is on, the client accepts a coding, and the response
 * is compressible (see `compression.ts`) and at least `threshold` bytes (bodies of unknown length
 * count as large). Returns `false`, having written nothing, when it does not apply.
 */
function writeCompressed(
  response: Response,
  res: ServerResponse,
  text: string | undefined,
  { settings, acceptEncoding }: CompressionRequest,
): Promise<void> | false {
  const body = text === undefined ? response.body : null;
  if ((text === undefined && body === null) || response.status === 206) return false;
  const record = getHeaderRecord(response);
  const header = (name: string): string | null =>
    record === undefined ? response.headers.get(name) : (record[name] ?? null);
  if (!isCompressible(header('content-type'), header('content-encoding'), header('cache-control')))
    return false;
  const size = text === undefined ? Number(header('content-length') ?? Number.NaN) : Buffer.byteLength(text);
  if (size < settings.threshold) return false;
  const encoding = chooseEncoding(acceptEncoding, settings.encodings);
  if (encoding === null) return false;
  res.on('error', ignore); // as in pipeBody: writes finish after this function returns
  const headers = headerPairs(response, 'content-length');
  const withoutVary: string[] = [];
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] !== 'vary') withoutVary.push(headers[i] as string, headers[i + 1] as string);
  }
  withoutVary.push('vary', addAcceptEncodingToVary(header('vary')), 'content-encoding', encoding);
  if (text !== undefined) {
    return compressText(text, encoding).then((compressed) => {
      if (res.destroyed) return;
      withoutVary.push('content-length', String(compressed.byteLength));
      res.writeHead(response.status, withoutVary);
      res.end(compressed);
    });
  }
  res.writeHead(response.status, withoutVary);
  const source = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
  return new Promise((resolve) => {
    pipeline(source, createCompressor(encoding), res, (error) => {
      if (error) res.destroy();
      resolve();
    });
  });
}

/**
 * Writes a `Response` to a Node.js response: status, headers (each `Set-Cookie` apart) and body,
 * compressed when `compression` applies. Returns a promise only while a body is being compressed or
 * a body stream piped; everything else is written at once.
 */
export function writeResponse(
  response: Response,
  res: ServerResponse,
  compression: CompressionRequest | null,
): Promise<void> | undefined {
  const text = getJsonText(response);
  if (res.destroyed) {
    if (text === undefined) response.body?.cancel().catch(ignore);
    return undefined;
  }
  if (compression !== null) {
    const written = writeCompressed(response, res, text, compression);
    if (written !== false) return written;
  }
  const record = text === undefined ? undefined : getHeaderRecord(response);
  if (text !== undefined && record !== undefined) {
    // The usual case: plume's own JSON, headers never turned into a `Headers` object.
    setContentLength(res, record, Buffer.byteLength(text));
    res.writeHead(response.status, record);
    res.end(text);
    return undefined;
  }
  const headers = headerPairs(response);
  if (text !== undefined) {
    // A JSON body plume serialised itself: write the text at once instead of reading it back as a stream.
    headers.push('content-length', String(Buffer.byteLength(text)));
    res.writeHead(response.status, headers);
    res.end(text);
    return undefined;
  }
  res.writeHead(response.status, headers);
  if (response.body !== null) return pipeBody(response.body, res);
  res.end();
  return undefined;
}
