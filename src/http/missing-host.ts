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
