import { getLogger, logAccess, loggablePath, requestIdOf, type Logger } from '../core/index.js';
import type { HandlerMiddleware } from './declarations.js';
import { getRequestHeader } from './runtime-request.js';

/** Options of the Web Standard handler's `accessLog()`. */
export interface AccessLogOptions {
  /** Where the lines go. Default: the app's logger (`app.get('logger')`, else a `createLogger()`). */
  logger?: Logger;
}

/**
 * `createHandler` middleware that logs one line per request at `info` when its answer is ready:
 * request id (`X-Request-Id` when the client sent a plain one, else a new UUID), method, path and
 * query (credential parameters such as `access_token` redacted), status and duration in
 * milliseconds. Headers are never logged. Put it first, before `errorHandler()`, so that it sees the
 * status of error answers; a request that fails without an error handler is logged as 500.
 */
export function accessLog(options: AccessLogOptions = {}): HandlerMiddleware {
  return async (context, next) => {
    const start = performance.now();
    const requestId = requestIdOf(getRequestHeader(context.request, 'x-request-id'));
    try {
      await next();
    } finally {
      logAccess(options.logger ?? getLogger(context.app), {
        requestId,
        method: context.request.method,
        path: loggablePath(context.request.url),
        status: context.response?.status ?? 500,
        durationMs: performance.now() - start,
      });
    }
  };
}
