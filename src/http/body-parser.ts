import {
  createBodyTooLarge,
  getServiceMethod,
  isUnsafeKey,
  METHOD_HEADER,
  type Middleware,
} from '../core/index.js';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors/index.js';
import { decodeBodyText, forEachLatin1FormField, getBodyCharset } from './body-charset.js';
import {
  findScalarBody,
  findUnstorableNumber,
  findUnstorableText,
  hasReplacedMultipartText,
} from './body-text.js';
import type { HandlerContext } from './declarations.js';
import { getRequestHeader, isRuntimeRequest } from './runtime-request.js';

/**
 * The most parameters a urlencoded body may hold: body-parser's default `parameterLimit`, so that a form
 * the Express transport refuses is refused here too.
 */
const FORM_PARAMETER_LIMIT = 1000;

/**
 * Throws `PayloadTooLarge` (413, "too many parameters", body-parser's answer) for form text with more
 * than `FORM_PARAMETER_LIMIT` `&`-separated parameters, counted as body-parser counts them (empty ones
 * too), before any is parsed.
 */
function refuseTooManyParameters(text: string): void {
  let count = 1;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) {
    if (++count > FORM_PARAMETER_LIMIT) throw new PayloadTooLarge('too many parameters');
  }
}

/** The default size limit of parsed bodies: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Options of `bodyParser()`. */
export interface BodyParserOptions {
  /** Largest JSON, urlencoded or multipart body accepted, in bytes. Default 1 MiB. Streamed bodies have no limit. */
  limit?: number;
}

/** How a body is parsed, by media type; `undefined` means it is passed on as a stream. */
export type BodyKind = 'json' | 'form' | 'multipart' | undefined;

/** The kind of body a `Content-Type` header announces (`application/*+json` counts as JSON). */
export function getBodyKind(contentType: string | null | undefined): BodyKind {
  if (!contentType) return undefined;
  const end = contentType.indexOf(';');
  const type = (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
  if (type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json')))
    return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'multipart/form-data') return 'multipart';
  return undefined;
}

/** True for the methods whose requests carry a body for the service (spec: "REST mapping"). */
const isBodyMethod = (method: string): boolean => method === 'POST' || method === 'PUT' || method === 'PATCH';

/**
 * Reads a body stream into one byte array, counting bytes as they arrive; when the count passes
 * `limit` the stream is cancelled and `PayloadTooLarge` (413) thrown, so an oversized body is never
 * held in memory. Spec: "Request body parsing".
 */
export async function readLimited(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      throw createBodyTooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Adds `value` under `key`, turning repeated keys into arrays; unsafe keys are dropped. */
function addField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (isUnsafeKey(key)) return;
  const existing = target[key];
  if (existing === undefined) target[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else target[key] = [existing, value];
}

function invalid(type: string, cause: unknown): BadRequest {
  const detail = cause instanceof Error ? `: ${cause.message.slice(0, 200)}` : '';
  return new BadRequest(`Invalid ${type} request body${detail}`, { cause });
}

/** The media type of a `Content-Type` value, for error messages: `application/json; charset=utf-8` → `application/json`. */
function mediaTypeOf(contentType: string): string {
  return contentType.split(';')[0]!.trim();
}

/** The 400 of a request whose body is required but missing or empty. */
function createBodyRequired(method: string): BadRequest {
  return new BadRequest(`A request body is required for ${method} requests`);
}

/** Body bytes as text in `charset` (one `getBodyCharset` accepted); throws the 400 of bytes that are not that charset. */
function decodeText(bytes: Uint8Array, charset: string, contentType: string): string {
  try {
    return decodeBodyText(bytes, charset);
  } catch (error: unknown) {
    throw invalid(mediaTypeOf(contentType), error);
  }
}

/**
 * Parses body bytes as `kind`, sent in `charset` (which `getBodyCharset` accepted): at once for JSON
 * and urlencoded bodies (no promise, so a buffered body costs no turn of the event loop), a promise
 * for multipart, which `Response.formData()` reads. Zero bytes are refused like a missing body: a
 * chunked request can send an empty body without a `Content-Length: 0`, and an empty form would
 * otherwise be `{}`, which `update` stores in place of the record. Text that parses but cannot be
 * stored as sent is refused too (see body-text.ts).
 */
function parseBytes(
  bytes: Uint8Array,
  kind: 'json' | 'form' | 'multipart',
  charset: string,
  contentType: string,
  method: string,
): unknown {
  if (bytes.byteLength === 0) throw createBodyRequired(method);
  if (kind === 'multipart') return parseMultipart(bytes, contentType);
  const text = decodeText(bytes, charset, contentType);
  if (kind === 'form') refuseTooManyParameters(text);
  if (kind === 'form' && charset === 'iso-8859-1') {
    // Every byte is a character, percent-encoded ones too: nothing can be unstorable.
    const fields: Record<string, unknown> = {};
    forEachLatin1FormField(text, (name, value) => addField(fields, name, value));
    return fields;
  }
  const unstorable = findUnstorableText(text, kind);
  if (unstorable !== undefined) {
    throw new BadRequest(`Invalid ${mediaTypeOf(contentType)} request body: ${unstorable}`);
  }
  if (kind === 'form') {
    const fields: Record<string, unknown> = {};
    new URLSearchParams(text).forEach((value, key) => addField(fields, key, value));
    return fields;
  }
  let value: unknown;
  try {
    // JSON.parse makes `__proto__` an own property, never a prototype: no pollution is possible here.
    value = JSON.parse(text);
  } catch (error: unknown) {
    throw invalid(mediaTypeOf(contentType), error);
  }
  const refused = findScalarBody(value) ?? findUnstorableNumber(value, text);
  if (refused !== undefined) {
    throw new BadRequest(`Invalid ${mediaTypeOf(contentType)} request body: ${refused}`);
  }
  return value;
}

/**
 * The checks made before a parsed body is read: its charset (415 for one the parser does not
 * decode, see `getBodyCharset`), then its `Content-Encoding` (`refuseContentEncoding`), in
 * body-parser's order. Returns the charset to decode the body from.
 */
function checkBodyHeaders(
  request: Request,
  contentType: string,
  kind: 'json' | 'form' | 'multipart',
): string {
  const charset = getBodyCharset(contentType, kind);
  refuseContentEncoding(request, contentType);
  return charset;
}

/**
 * Throws `UnsupportedMediaType` (415) for a parsed body sent with a `Content-Encoding` other than
 * `identity`: this parser does not decompress, and reading compressed bytes as text would answer a
 * misleading 400, or store the bytes of a body mislabelled as compressed (RFC 9110 §8.4.1: 415).
 */
function refuseContentEncoding(request: Request, contentType: string): void {
  const coding = getRequestHeader(request, 'content-encoding')?.trim().toLowerCase();
  if (coding === undefined || coding === '' || coding === 'identity') return;
  throw new UnsupportedMediaType(
    `Content-Encoding '${coding.slice(0, 40)}' is not supported for ${mediaTypeOf(contentType)} bodies: send the body uncompressed`,
  );
}

async function parseMultipart(bytes: Uint8Array, contentType: string): Promise<unknown> {
  const label = 'multipart/form-data';
  let form: FormData;
  try {
    // Bytes read from a body stream are backed by an ArrayBuffer; the type cannot say so.
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': contentType },
    }).formData();
  } catch (error: unknown) {
    throw invalid(label, error);
  }
  if (hasReplacedMultipartText(form, bytes, contentType)) {
    throw new BadRequest(`Invalid ${label} request body: a field name or value is not valid UTF-8`);
  }
  const fields: Record<string, unknown> = {};
  form.forEach((value, key) => addField(fields, key, value));
  return fields;
}

/**
 * `parseRequestBody` without the promise where none is needed: a body `toRuntimeHandler` buffered
 * is parsed at once (JSON, urlencoded); a body still to be read (or multipart) gives a promise.
 */
function readBody(request: Request, limit: number): unknown {
  // A body `toRuntimeHandler` already buffered: parse its bytes, no stream in between.
  if (isRuntimeRequest(request)) {
    const contentType = getRequestHeader(request, 'content-type') ?? '';
    const kind = getBodyKind(contentType);
    const buffered = kind === undefined ? undefined : request.takeBytes();
    if (kind !== undefined && buffered !== undefined) {
      const charset = checkBodyHeaders(request, contentType, kind);
      if (buffered.byteLength > limit) throw createBodyTooLarge(limit);
      return parseBytes(buffered, kind, charset, contentType, request.method);
    }
  }
  return readStreamedBody(request, limit);
}

async function readStreamedBody(request: Request, limit: number): Promise<unknown> {
  const body = request.body;
  if (body === null) throw createBodyRequired(request.method);
  const contentType = request.headers.get('content-type') ?? '';
  const kind = getBodyKind(contentType);
  if (kind === undefined) return body;
  const declared = request.headers.get('content-length');
  let charset: string;
  try {
    charset = checkBodyHeaders(request, contentType, kind);
    if (declared !== null && Number(declared) > limit) throw createBodyTooLarge(limit);
  } catch (error: unknown) {
    body.cancel().catch(() => undefined);
    throw error;
  }
  return parseBytes(await readLimited(body, limit), kind, charset, contentType, request.method);
}

/**
 * Reads the body of a `POST`, `PUT` or `PATCH` request as the table in spec "Request body parsing"
 * says: JSON → parsed value; urlencoded → object of fields; multipart → object of fields with `File`
 * values for files; repeated field names → arrays; any other or no content type → `request.body`
 * (a `ReadableStream`, unread). Throws `BadRequest` (400) for a missing or empty body, one that
 * cannot be parsed as its content type, a JSON body that is not an object or an array (`null`, `5`,
 * `"x"`: see `findScalarBody`), or one that cannot be stored as sent (a lone surrogate escape
 * in JSON, percent-encoded bytes that are not UTF-8 in a form; see body-text.ts),
 * `UnsupportedMediaType` (415) for a parsed body in a charset it does not decode (JSON: UTF-8,
 * UTF-16LE, UTF-16BE; forms: UTF-8, ISO-8859-1; multipart: UTF-8; see `getBodyCharset`) or with a
 * `Content-Encoding` other than `identity`, and
 * `PayloadTooLarge` (413) when a parsed body exceeds `limit` bytes (checked against `Content-Length`
 * before reading, and counted while reading) or a urlencoded body holds more than 1000 parameters
 * (`too many parameters`, as Express' parser answers).
 */
export async function parseRequestBody(request: Request, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  return readBody(request, limit);
}

/**
 * Throws `MethodNotAllowed` when the request is for a method its service does not expose: that 405
 * wins over a missing or unreadable body, as on the Express transport.
 */
function refuseUnexposedMethod(context: HandlerContext): void {
  const { lookup, request } = context;
  if (lookup)
    getServiceMethod(lookup.value, request.method, lookup.id, getRequestHeader(request, METHOD_HEADER));
}

/**
 * Middleware that sets `context.data` from the body of `POST`, `PUT` and `PATCH` requests with
 * `parseRequestBody` (spec: "Web Standard handler API", `bodyParser`). Other methods get no data.
 * `options.limit` is the largest parsed body in bytes (default 1 MiB; larger → 413). When the body is
 * missing or cannot be read and the request is for a method the service does not expose, the answer
 * is that 405 rather than the body's 400/413.
 */
export function bodyParser(options: BodyParserOptions = {}): Middleware<HandlerContext> {
  const limit = options.limit ?? DEFAULT_BODY_LIMIT;
  // Requests without a body, and bodies already buffered and parsed at once, go straight on: no
  // promise and no turn of their own. An error thrown here reaches the chain as a rejection.
  return (context, next) => {
    const data = readContextBody(context, limit);
    if (!(data instanceof Promise)) return next();
    return data.then(next);
  };
}

/**
 * `bodyParser`'s work: sets `context.data` from the body of a `POST`, `PUT` or `PATCH` request, at
 * once when the body is buffered (returns `undefined`), else through the promise it returns. Throws
 * (or rejects with) the body's 400 or 413, or the 405 of a method the service does not expose.
 */
export function readContextBody(context: HandlerContext, limit: number): Promise<void> | undefined {
  if (!isBodyMethod(context.request.method)) return undefined;
  let data: unknown;
  try {
    data = readBody(context.request, limit);
  } catch (error: unknown) {
    return refuse(context, error);
  }
  if (!(data instanceof Promise)) {
    context.data = data;
    return undefined;
  }
  return data.then(
    (value: unknown) => {
      context.data = value;
    },
    (error: unknown) => refuse(context, error),
  );
}

/** Throws the 405 of a method the service does not expose, else `error` (a body's 400 or 413). */
function refuse(context: HandlerContext, error: unknown): never {
  refuseUnexposedMethod(context);
  throw error;
}
