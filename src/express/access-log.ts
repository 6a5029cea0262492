import type { RequestHandler } from 'express';
import { getLogger, logAccess, loggablePath, requestIdOf, type Logger } from '../core/index.js';

/** Options of the Express `accessLog()`. */
export interface AccessLogOptions {
  /** Where the lines go. Default: the app's logger (`app.get('logger')`, else a `createLogger()`). */
  logger?: Logger;
}

/**
 * Express middleware that logs one line per request at `info` when the response has been sent (or
 * the client went away): request id (`X-Request-Id` when the client sent a plain one, else a new
 * UUID), method, path and query (credential parameters such as `access_token` redacted), status and
 * duration in milliseconds. Headers are never logged. Register it first.
 */
export function accessLog(options: AccessLogOptions = {}): RequestHandler {
  return (req, res, next) => {
    const start = performance.now();
    const requestId = requestIdOf(req.get('x-request-id'));
    const target = req.originalUrl;
    res.once('close', () => {
      logAccess(options.logger ?? getLogger(req.app), {
        requestId,
        method: req.method,
        path: loggablePath(target),
        status: res.statusCode,
        durationMs: performance.now() - start,
      });
    });
    next();
  };
}
