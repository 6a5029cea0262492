import { isUtf8 } from 'node:buffer';
import express from 'express';
import { BadRequest } from '../errors/index.js';

/** Options of `json()`: those of `express.json` (body-parser), e.g. `{ limit: '1mb' }`. */
export type JsonOptions = NonNullable<Parameters<typeof express.json>[0]>;

/**
 * The JSON body parser (`express.json`, spec: "Server-framework integration API", `json()`), with one
 * change: a UTF-8 body that is not valid UTF-8 is refused with 400 `BadRequest` (`Invalid
 * application/json request body: …`), as the Web Standard handler refuses it, instead of being
 * stored with U+FFFD in place of the bad bytes. A `verify` option still runs afterwards. Register it
 * before `app.configure(rest())`.
 */
export function json(options: JsonOptions = {}): ReturnType<typeof express.json> {
  return express.json({
    ...options,
    verify(req, res, buffer, encoding) {
      if (encoding.toLowerCase() === 'utf-8' && !isUtf8(buffer)) {
        throw Object.assign(
          new BadRequest('Invalid application/json request body: the body is not valid UTF-8'),
          { status: 400, expose: true },
        );
      }
      options.verify?.(req, res, buffer, encoding);
    },
  });
}
