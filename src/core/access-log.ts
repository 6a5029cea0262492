import { randomUUID } from 'node:crypto';
import type { Logger } from './logger.js';

/** One finished request, as the transports' `accessLog()` middleware describe it. */
export interface AccessLogEntry {
  /** The client's `X-Request-Id` when it is a plain token, else a new UUID. */
  requestId: string;
  method: string;
  /** Path and query, with the values of credential parameters replaced (see `loggablePath`). */
  path: string;
  /** HTTP status of the answer. */
  status: number;
  /** Time from receiving the request to the end of the answer (Express) or to the answer being ready (Web Standard handler), in milliseconds. */
  durationMs: number;
}

/** Query parameters whose values are credentials: never written to a log. */
const SECRET_PARAMETER = /^(access_?token|token|api_?key|password|secret|code)$/i;
const PLAIN_REQUEST_ID = /^[\w.:-]{1,100}$/;

/** The request id for a request with `X-Request-Id: header` (a plain token of up to 100 characters is kept). */
export function requestIdOf(header: string | null | undefined): string {
  return header !== null && header !== undefined && PLAIN_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * The request target (`/messages?access_token=…`, or an absolute URL) as it may be logged: path
 * and query without the origin, each credential parameter's value (`access_token`, `token`,
 * `api_key`, `password`, `secret`, `code`) replaced by `[redacted]`.
 */
export function loggablePath(target: string): string {
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const queryStart = path.indexOf('?');
  if (queryStart === -1) return path;
  const query = path
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0]!;
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is logged as sent.
      }
      return SECRET_PARAMETER.test(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${path.slice(0, queryStart)}?${query.join('&')}`;
}

/** Writes the one access-log line of a request at `info`: `GET /messages 200 3.1 ms` plus the fields. */
export function logAccess(logger: Logger, entry: AccessLogEntry): void {
  const durationMs = Math.round(entry.durationMs * 10) / 10;
  logger.info({ ...entry, durationMs }, `${entry.method} ${entry.path} ${entry.status} ${durationMs} ms`);
}
