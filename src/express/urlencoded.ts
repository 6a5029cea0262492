import express from 'express';
import { verifyBodyText, withBodyCharset } from './json.js';

/** Options of `urlencoded()`: those of `express.urlencoded` (body-parser), e.g. `{ extended: true }`. */
export type UrlencodedOptions = NonNullable<Parameters<typeof express.urlencoded>[0]>;

/**
 * The form body parser (`express.urlencoded`, spec: "Server-framework integration API",
 * `urlencoded({ extended: true })`), with the checks of `verifyBodyText`: an empty body (which
 * body-parser parses as `{}`, and `update` would store in place of the record) and a UTF-8 form with
 * percent-encoded bytes that are not UTF-8 (`%FF`) are refused with 400 `BadRequest`, as the Web
 * Standard handler refuses them. A charset other than UTF-8 or ISO-8859-1 is refused with 415
 * `UnsupportedMediaType` naming it (`withBodyCharset`). A `verify` option still runs afterwards. Register it before
 * `app.configure(rest())`.
 */
export function urlencoded(options: UrlencodedOptions = {}): ReturnType<typeof express.urlencoded> {
  const parser = express.urlencoded({
    ...options,
    verify(req, res, buffer, encoding) {
      verifyBodyText(req, buffer, encoding, 'form');
      options.verify?.(req, res, buffer, encoding);
    },
  });
  return withBodyCharset(parser, 'form');
}
