/**
 * Response compression for `toRuntimeHandler` (off by default): gzip or Brotli as the request's
 * `Accept-Encoding` allows, for compressible types at or above a size threshold, never for
 * `text/event-stream` (events must reach the client as they happen) nor for responses that are
 * already encoded or say `Cache-Control: no-transform`. Node.js only (zlib), like `toRuntimeHandler`.
 */
import { promisify } from 'node:util';
import type { Transform } from 'node:stream';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';

/** Content codings plume can produce. */
export type ContentEncoding = 'br' | 'gzip';

/** Options of `toRuntimeHandler(handler, { compression })`. */
export interface CompressionOptions {
  /** Smallest body compressed, in bytes; smaller ones are sent as they are. Default 1024. */
  threshold?: number;
  /** Codings offered, in order of preference. Default `['br', 'gzip']`. */
  encodings?: readonly ContentEncoding[];
}

/** Compression settings resolved once per listener. */
export interface CompressionSettings {
  threshold: number;
  encodings: readonly ContentEncoding[];
}

/** `true` → the defaults, an object → its settings, `false`/`undefined` → `null` (off). Throws a `TypeError` for bad options. */
export function resolveCompression(
  option: boolean | CompressionOptions | undefined,
): CompressionSettings | null {
  if (option === undefined || option === false) return null;
  const { threshold = 1024, encodings = ['br', 'gzip'] } = option === true ? {} : option;
  if (!Number.isInteger(threshold) || threshold < 0) {
    throw new TypeError('compression.threshold must be a whole number of bytes');
  }
  if (encodings.length === 0 || !encodings.every((coding) => coding === 'br' || coding === 'gzip')) {
    throw new TypeError("compression.encodings must list 'br' and/or 'gzip'");
  }
  return { threshold, encodings };
}

/** The first of `offered` that `Accept-Encoding` accepts (q > 0, directly or through `*`), else `null`. */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  offered: readonly ContentEncoding[],
): ContentEncoding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim(), Number.isNaN(weight) ? 0 : weight);
  }
  for (const coding of offered) {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    if (weight > 0) return coding;
  }
  return null;
}

const compressibleType =
  /^(?:text\/(?!event-stream)[\w.+-]+|application\/(?:json|javascript|xml|x-www-form-urlencoded|[\w.-]+\+(?:json|xml))|image\/svg\+xml)\s*(?:;|$)/i;

/**
 * True when a response with these headers may be compressed: a compressible `Content-Type` (JSON,
 * text, JavaScript, XML, SVG; never `text/event-stream`), no `Content-Encoding`, and no
 * `Cache-Control: no-transform`.
 */
export function isCompressible(
  contentType: string | null | undefined,
  contentEncoding: string | null | undefined,
  cacheControl: string | null | undefined,
): boolean {
  if (contentType === null || contentType === undefined || !compressibleType.test(contentType)) return false;
  if (contentEncoding !== null && contentEncoding !== undefined && contentEncoding !== 'identity')
    return false;
  return (
    cacheControl === null ||
    cacheControl === undefined ||
    !/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl)
  );
}

/** Brotli at quality 4: most of the gain at a fraction of the default's (11) cost, as dynamic answers need. */
const brotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** `text` compressed with `encoding` on libuv's thread pool (the event loop keeps serving meanwhile). */
export function compressText(text: string, encoding: ContentEncoding): Promise<Buffer> {
  return encoding === 'br' ? brotliAsync(text, brotliOptions) : gzipAsync(text);
}

/** A zlib stream that compresses a streamed body with `encoding`. */
export function createCompressor(encoding: ContentEncoding): Transform {
  return encoding === 'br' ? createBrotliCompress(brotliOptions) : createGzip();
}

/** `vary` with `Accept-Encoding` added (unchanged when it already names it or is `*`). */
export function addAcceptEncodingToVary(vary: string | null | undefined): string {
  if (vary === null || vary === undefined || vary === '') return 'Accept-Encoding';
  return /(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}
