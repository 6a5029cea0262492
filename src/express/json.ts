import type { IncomingMessage } from 'node:http';
import { isUtf8 } from 'node:buffer';
import express from 'express';
import { BadRequest } from '../errors/index.js';
import { findUnstorableText } from '../http/body-text.js';

/** Options of `json()`: those of `express.json` (body-parser), e.g. `{ limit: '1mb' }`. */
export type JsonOptions = NonNullable<Parameters<typeof express.json>[0]>;

/** A 400 body-parser passes on as it is (it wraps `verify` errors, keeping their status). */
function refuse(message: string): BadRequest {
  return Object.assign(new BadRequest(message), { status: 400, expose: true });
}

/** The body as text in the charset body-parser decodes it with; `undefined` for one `TextDecoder` lacks. */
function decodeText(buffer: Buffer, encoding: string): string | undefined {
  try {
    return new TextDecoder(encoding).decode(buffer);
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
  if (buffer.length === 0) throw refuse(`A request body is required for ${req.method ?? 'this'} requests`);
  const utf8 = encoding.toLowerCase() === 'utf-8';
  if (utf8 && !isUtf8(buffer)) {
    throw refuse(`Invalid ${mediaType} request body: the body is not valid UTF-8`);
  }
  // Percent-encoded bytes of a form in another charset (body-parser allows ISO-8859-1) are that charset's.
  if (kind === 'form' && !utf8) return;
  // Most bodies have no `\u` escape or `%`: they are not decoded a second time (body-parser decodes them).
  if (utf8 && !buffer.includes(kind === 'json' ? '\\u' : '%')) return;
  const text = utf8 ? buffer.toString('utf8') : decodeText(buffer, encoding);
  const unstorable = text === undefined ? undefined : findUnstorableText(text, kind);
  if (unstorable !== undefined) throw refuse(`Invalid ${mediaType} request body: ${unstorable}`);
}

/**
 * The JSON body parser (`express.json`, spec: "Server-framework integration API", `json()`), with
 * the checks of `verifyBodyText`: an empty body, a body that is not valid UTF-8, and a string with a
 * lone surrogate escape (`"\ud800"`) are refused with 400 `BadRequest`, as the Web Standard handler
 * refuses them, instead of being stored as `{}` or with U+FFFD. A `verify` option still runs
 * afterwards. Register it before `app.configure(rest())`.
 */
export function json(options: JsonOptions = {}): ReturnType<typeof express.json> {
  return express.json({
    ...options,
    verify(req, res, buffer, encoding) {
      verifyBodyText(req, buffer, encoding, 'json');
      options.verify?.(req, res, buffer, encoding);
    },
  });
}
