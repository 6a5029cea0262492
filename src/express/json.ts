import type { IncomingMessage } from 'node:http';
import { isUtf8 } from 'node:buffer';
import express from 'express';
import { BadRequest } from '../errors/index.js';
import {
  decodeBodyText,
  findScalarBody,
  findUnstorableNumber,
  findUnstorableText,
  getBodyCharset,
} from '../http/index.js';

/** Options of `json()`: those of `express.json` (body-parser), e.g. `{ limit: '1mb' }`. */
export type JsonOptions = NonNullable<Parameters<typeof express.json>[0]>;

/** A 400 body-parser passes on as it is (it wraps `verify` errors, keeping their `status`; without one they become 403). */
function refuse(message: string): BadRequest {
  return Object.assign(new BadRequest(message), { status: 400, expose: true });
}

/** The body as text in `encoding` (`utf-8`, `utf-16le` or `utf-16be`: `withBodyCharset` let no other through); `undefined` when its bytes are not that charset. */
function decodeText(buffer: Buffer, encoding: string): string | undefined {
  try {
    return decodeBodyText(buffer, encoding.toLowerCase());
  } catch {
    return undefined;
  }
}

/**
 * The checks plume's body parsers add to body-parser's, as a `verify` step (it runs on the raw bytes
 * before parsing), the same as the Web Standard handler's `bodyParser()`: an empty body is a 400
 * like a missing one (body-parser would parse it as `{}`, which `update` stores in place of the
 * record; a chunked request sends one without `Content-Length: 0`); a body labelled UTF-8 that is not
 * valid UTF-8 is a 400 (body-parser would store U+FFFD in place of the bad bytes); and text that
 * cannot be stored as sent is a 400 (see `findUnstorableText`: lone surrogate escapes in JSON,
 * percent-encoded bytes that are not UTF-8 in a form). Throws a `BadRequest` body-parser passes on.
 */
export function verifyBodyText(
  req: IncomingMessage,
  buffer: Buffer,
  encoding: string,
  kind: 'json' | 'form',
): void {
  const mediaType = kind === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  try {
    getBodyCharset(req.headers['content-type'] ?? '', kind);
  } catch (error: unknown) {
    throw Object.assign(error as Error, { status: 415, expose: true });
  }
  if (buffer.length === 0) throw refuse(`A request body is required for ${req.method ?? 'this'} requests`);
  const utf8 = encoding.toLowerCase() === 'utf-8';
  if (utf8 && !isUtf8(buffer)) {
    throw refuse(`Invalid ${mediaType} request body: the body is not valid UTF-8`);
  }
  // Every byte of an ISO-8859-1 form (the other charset allowed) is a character, percent-encoded ones too.
  if (kind === 'form' && !utf8) return;
  // Most bodies have no `\u` escape or `%`: they are not decoded a second time (body-parser decodes them).
  if (utf8 && !buffer.includes(kind === 'json' ? '\\u' : '%')) return;
  const text = utf8 ? buffer.toString('utf8') : decodeText(buffer, encoding);
  // body-parser would keep a lone surrogate of UTF-16 bytes, and the database store U+FFFD for it.
  if (text === undefined) {
    throw refuse(`Invalid ${mediaType} request body: the body is not valid ${encoding.toUpperCase()}`);
  }
  const unstorable = findUnstorableText(text, kind);
  if (unstorable !== undefined) throw refuse(`Invalid ${mediaType} request body: ${unstorable}`);
}

/** body-parser's 415 for a charset it does not read (`unsupported charset "LATIN1"`). */
function isCharsetRefusal(error: unknown): boolean {
  return (error as { type?: unknown } | undefined)?.type === 'charset.unsupported';
}

/** The bytes body-parser read for a request, and their charset (its `verify` arguments). */
interface ReadBody {
  buffer: Buffer;
  encoding: string;
}

/**
 * Why a JSON body body-parser parsed (`req.body`) is refused, checked in the parsed value as the Web
 * Standard handler does: a top-level scalar (`findScalarBody`, unless `allowScalars`) or a number
 * that cannot be stored as sent (`findUnstorableNumber`, which reads the text of `read` only for an
 * integer beyond ±2^53); `undefined` when it is fine.
 */
function findRefusedJson(body: unknown, allowScalars: boolean, read: ReadBody): string | undefined {
  const scalar = allowScalars ? undefined : findScalarBody(body);
  return scalar ?? findUnstorableNumber(body, () => decodeText(read.buffer, read.encoding) ?? '');
}

/**
 * Wraps body-parser's `parser` so that a body in a charset plume's parsers do not decode gets the
 * Web Standard handler's answer (`getBodyCharset`: 415 `UnsupportedMediaType` naming the charset
 * and the ones accepted) in place of body-parser's own 415 (`unsupported charset "LATIN1"`). The
 * charsets body-parser reads but plume does not (for JSON UTF-7, UTF-32, UTF-16 without a byte
 * order) are refused by `verifyBodyText`. For JSON, `parsed` holds the bytes of each request whose
 * body the parser read (its `verify` ran) and `allowScalars` tells whether a top-level scalar is kept.
 */
export function withBodyCharset(
  parser: ReturnType<typeof express.json>,
  kind: 'json' | 'form',
  parsed?: WeakMap<IncomingMessage, ReadBody>,
  allowScalars = false,
): ReturnType<typeof express.json> {
  return (req, res, next) => {
    parser(req, res, (error?: unknown) => {
      if (!isCharsetRefusal(error)) {
        const read = error === undefined && kind === 'json' ? parsed?.get(req) : undefined;
        const refused =
          read === undefined
            ? undefined
            : findRefusedJson((req as { body?: unknown }).body, allowScalars, read);
        if (refused !== undefined) {
          next(refuse(`Invalid application/json request body: ${refused}`));
          return;
        }
        next(error);
        return;
      }
      try {
        getBodyCharset(req.headers['content-type'] ?? '', kind);
      } catch (refusal: unknown) {
        next(refusal);
        return;
      }
      next(error);
    });
  };
}

/**
 * The JSON body parser (`express.json`, spec: "Server-framework integration API", `json()`), with
 * the checks of `verifyBodyText`: an empty body, a body that is not valid UTF-8, and a string with a
 * lone surrogate escape (`"\ud800"`), a number too large for a double (`1e400`, which would be
 * stored as `Infinity`) and an integer a double cannot hold (`9007199254740993`) are refused with 400 `BadRequest`, as the Web Standard handler
 * refuses them, instead of being stored as `{}` or with U+FFFD. A body that is not an object or an
 * array (`null`, `5`, `"x"`) is the Web Standard handler's 400 too (`Invalid application/json
 * request body: the body must be a JSON object or array, not null`), in place of body-parser's
 * `strict` error, which quoted `JSON.parse` (`"null" is not valid JSON`); `strict: false` keeps
 * such bodies. A charset other than UTF-8, UTF-16LE or UTF-16BE is refused with 415
 * `UnsupportedMediaType` (`withBodyCharset`). A `verify` option still runs afterwards. Register it
 * before `app.configure(rest())`.
 */
export function json(options: JsonOptions = {}): ReturnType<typeof express.json> {
  const parsed = new WeakMap<IncomingMessage, ReadBody>();
  const parser = express.json({
    ...options,
    // Scalars are refused after parsing, with the message the Web Standard handler gives.
    strict: false,
    verify(req, res, buffer, encoding) {
      verifyBodyText(req, buffer, encoding, 'json');
      parsed.set(req, { buffer, encoding });
      options.verify?.(req, res, buffer, encoding);
    },
  });
  return withBodyCharset(parser, 'json', parsed, options.strict === false);
}
