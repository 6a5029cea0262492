/**
 * The `Host` header rule of RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without a
 * `Host` header, and to any request with more than one `Host` field line.
 */
import type { IncomingMessage } from 'node:http';
import { BadRequest } from '../errors/index.js';

/**
 * The `BadRequest` (400) for an HTTP/1.1 request without a `Host` header, which RFC 9112 §3.2 says a
 * server must refuse; `undefined` for any other request (HTTP/1.0 and HTTP/2 requests may lack one).
 * Node.js refuses such requests itself, with an empty 400, unless the server was created with
 * `requireHostHeader: false`; plume's transports answer them with this error's JSON instead.
 * @param req the Node.js request (`IncomingMessage`).
 * @returns the error to answer with, or `undefined` when the request may go on.
 */
export function missingHostError(req: IncomingMessage): BadRequest | undefined {
  if (req.headers.host !== undefined || req.httpVersionMajor !== 1 || req.httpVersionMinor < 1) {
    return undefined;
  }
  return new BadRequest('An HTTP/1.1 request must have a Host header (RFC 9112 §3.2)');
}

/**
 * The `BadRequest` (400) for a request with more than one `Host` header field line, which RFC 9112
 * §3.2 says a server must refuse (two hosts leave the target of the request in doubt, and a proxy in
 * front may have read the other one); `undefined` otherwise. Node.js keeps the first `Host` in
 * `req.headers` and drops the others, so only `req.rawHeaders` shows them. Runs on every request:
 * one pass over the header names, comparing only those of four characters.
 * @param req the Node.js request (`IncomingMessage`).
 * @returns the error to answer with, or `undefined` when the request may go on.
 */
export function duplicateHostError(req: IncomingMessage): BadRequest | undefined {
  const raw = req.rawHeaders;
  let seen = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 4 || (name !== 'Host' && name !== 'host' && name.toLowerCase() !== 'host')) continue;
    if (seen) return new BadRequest('A request must have one Host header, not several (RFC 9112 §3.2)');
    seen = true;
  }
  return undefined;
}
