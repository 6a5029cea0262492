import { errorLogger, isLogger, type Application, type Middleware } from '../core/index.js';
import { statusOf, toPlumeError } from '../errors/index.js';
import type { HandlerContext } from './declarations.js';
import { createJsonResponse } from './json-response.js';

/** Where server errors (5xx) are logged: an object with `error(error)`, or `false` for nowhere. */
export type ErrorLogger = { error(error: unknown): void } | false;

/** Options of `errorHandler()`. */
export interface ErrorHandlerOptions {
  /**
   * Receives every 5xx error (the original thrown value); 4xx are not logged. `false` logs nothing.
   * Default: the app's logger when `app.set('logger', …)` was given one (5xx at `error` with the
   * stack, 4xx as one `debug` line, see `errorLogger`), else `console`.
   */
  logger?: ErrorLogger;
}

/** Calls `logger.error(error)`; a failing logger must not turn a response into a crash. */
export function logServerError(logger: ErrorLogger, error: unknown): void {
  if (logger === false) return;
  try {
    logger.error(error);
  } catch {
    // Nothing sensible is left to do with an error thrown by the logger itself.
  }
}

/**
 * The JSON error response for anything thrown: a plume error is sent as its `toJSON()` with its
 * status (`code`); anything else as a 500 `GeneralError` with a generic message, so messages and
 * stacks of unexpected errors never reach the client; the error's `headers` (e.g. `Retry-After`) are
 * sent too. 5xx errors are passed to `logger`. `request`
 * is the request being answered, if any.
 */
export function createErrorResponse(thrown: unknown, logger: ErrorLogger, request?: Request): Response {
  const error = toPlumeError(thrown);
  const status = statusOf(error);
  if (status >= 500) logServerError(logger, thrown);
  const headers = error.headers === undefined ? undefined : new Headers(error.headers);
  return createJsonResponse(error.toJSON(), status, headers, request);
}

/**
 * Middleware that turns errors thrown later in the chain (by middleware, routing, hooks or the
 * service) into JSON responses (spec: "Web Standard handler API", `errorHandler`): plume errors with
 * their status and `toJSON()` body, anything else as 500 `GeneralError` with a generic message.
 * 5xx errors go to `options.logger` (default `console`), 4xx are not logged. Put it first.
 */
export function errorHandler(options: ErrorHandlerOptions = {}): Middleware<HandlerContext> {
  const errors = createErrorStep(options);
  // Not an async function: a rejection handler costs less than an async frame on every request.
  return (context, next) => {
    errors.attach(context);
    return next().then(undefined, (error: unknown) => errors.answer(context, error));
  };
}

/** What `errorHandler` does before and after the rest of the chain, for `createHandler`'s default chain. */
export interface ErrorStep {
  /** Sets `context.logError`, for errors after the response started (an SSE iterator throwing). */
  attach(context: HandlerContext): void;
  /** Sets `context.response` to the JSON error for `error`, logging it as `ErrorHandlerOptions` says. */
  answer(context: HandlerContext, error: unknown): void;
}

/** The work of `errorHandler(options)`, without the middleware around it. */
export function createErrorStep(options: ErrorHandlerOptions = {}): ErrorStep {
  const fixed = options.logger;
  // One function per app (a handler serves one), not one per request.
  let loggedApp: Application | undefined;
  let logError: (error: unknown) => void = () => undefined;
  return {
    attach(context) {
      if (context.app !== loggedApp) {
        const app = (loggedApp = context.app);
        logError = (error) => logServerError(fixed ?? serverErrorLogger(app), error);
      }
      context.logError = logError;
    },
    answer(context, error) {
      const logger = fixed ?? serverErrorLogger(context.app);
      // The app's logger sees every error (4xx as one debug line); `console` and `options.logger` only 5xx.
      const fromApp = fixed === undefined && logger !== console;
      if (fromApp) logServerError(logger, error);
      context.response = createErrorResponse(error, fromApp ? false : logger, context.request);
    },
  };
}

/**
 * The logger for errors after the response started (an event stream's iterator failing): the app's
 * logger (`app.set('logger', …)`, through `errorLogger`) when it has one, else `console`.
 */
export function serverErrorLogger(app: Application): ErrorLogger {
  const logger = app.get('logger');
  return isLogger(logger) ? errorLogger(logger) : console;
}
