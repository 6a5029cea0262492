import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import { createBodyTooLarge } from '../core/index.js';
import {
  BadRequest,
  errorsByCode,
  isExposedClientError,
  isPlumeError,
  statusOf,
  toPlumeError,
  type PlumeError,
} from '../errors/index.js';

/** Where errors are logged: an object with `error(error)`, or `false` for nowhere. */
export type ErrorLogger = { error(error: unknown): void } | ((error: unknown) => void) | false;

/** Renders an HTML error page; the status is already set on `res`. Spec: "Errors", `html` function. */
export type HtmlErrorRenderer = (error: PlumeError, req: Request, res: Response, next: NextFunction) => void;

/** HTML files by status code, plus `default` for every other status. Relative paths start at the working directory. */
export type HtmlErrorPages = Partial<Record<number | 'default', string>>;

/** Options of `errorHandler()` (spec: "Errors", `errorHandler(options)`). */
export interface ErrorHandlerOptions {
  /**
   * HTML answers for clients that ask for HTML: a map of status codes (and `default`) to HTML files,
   * merged over plume's own pages for 401, 404 and `default`; a function that renders the page; or
   * `false` to always answer JSON. Default: plume's pages.
   */
  html?: HtmlErrorPages | HtmlErrorRenderer | false;
  /** Receives each error, as thrown: an object with `error(error)` or a function. Default `console`; `false` logs nothing. */
  logger?: ErrorLogger;
}

const publicPage = (name: string): string => fileURLToPath(new URL(`../../public/${name}`, import.meta.url));

/** plume's default HTML error pages (shipped in the package's `public/` folder). */
export const defaultHtmlPages: Readonly<HtmlErrorPages> = {
  401: publicPage('401.html'),
  404: publicPage('404.html'),
  default: publicPage('default.html'),
};

/**
 * The error a client sees for anything thrown: plume errors as they are; client errors raised by
 * Express or its body parsers (invalid JSON, body too large, 406 from `res.format`) as the plume
 * error of their status (a body over the limit as core `createBodyTooLarge`, the Web Standard answer); anything else as a 500 `GeneralError` with a generic message.
 */
export function toClientError(error: unknown): PlumeError {
  if (isPlumeError(error)) return error;
  const { type, limit } = (error ?? {}) as { type?: unknown; limit?: unknown };
  // body-parser's 413: the same answer as the Web Standard handler's.
  if (type === 'entity.too.large' && typeof limit === 'number') return createBodyTooLarge(limit, error);
  if (isExposedClientError(error)) {
    const ErrorClass = errorsByCode[error.status] ?? BadRequest;
    return new ErrorClass(error.message, { cause: error });
  }
  return toPlumeError(error);
}

/** True when the request asks for or sends JSON, or does not ask for HTML: then the answer is JSON. */
function prefersJson(req: Request): boolean {
  const accept = req.headers.accept ?? '';
  const type = req.headers['content-type'] ?? '';
  if (accept.includes('json') || type.includes('json')) return true;
  return !accept.includes('html');
}

function logError(logger: ErrorLogger, error: unknown): void {
  if (logger === false) return;
  try {
    if (typeof logger === 'function') logger(error);
    else logger.error(error);
  } catch {
    // A failing logger must not stop the error response.
  }
}

/**
 * Express error middleware that answers every error (spec: "Errors", `errorHandler(options)`). Register
 * it last, after all middleware, services and `notFound()`.
 *
 * - Status: the plume error's `code` (non-plume errors are 500 `GeneralError` with the message
 *   `Internal server error`; 4xx errors from Express' body parsers keep their status).
 * - JSON (`error.toJSON()`, never a stack) when the request's `Accept` or `Content-Type` mentions JSON,
 *   when `html` is `false`, or when the request does not ask for `text/html`; HTML otherwise (see
 *   `ErrorHandlerOptions.html`). A missing HTML file falls back to JSON.
 * - Each error, client (4xx) and server (5xx) alike, is passed to `logger.error` (or to `logger` when it is
 *   a function; default `console`), as the spec's `errorHandler(options)` table says.
 * - The error's `headers` (e.g. `Retry-After` of a 429, `Allow` of a 405) are set on the response.
 * - When the response has already started, the error is passed on to Express, which closes the connection.
 */
export function errorHandler(options: ErrorHandlerOptions = {}): ErrorRequestHandler {
  const logger = options.logger ?? console;
  const html = options.html ?? {};
  const pages: HtmlErrorPages | undefined =
    typeof html === 'object' ? { ...defaultHtmlPages, ...html } : undefined;

  return (thrown: unknown, req, res, next) => {
    const error = toClientError(thrown);
    const status = statusOf(error);
    logError(logger, thrown);
    if (res.headersSent) {
      next(thrown);
      return;
    }
    res.status(status);
    if (error.headers !== undefined) res.set(error.headers);
    const sendJson = (): void => {
      res.json(error.toJSON());
    };
    if (html === false || prefersJson(req)) {
      sendJson();
      return;
    }
    if (typeof html === 'function') {
      html(error, req, res, next);
      return;
    }
    const file = pages?.[status] ?? pages?.default;
    if (file === undefined) {
      sendJson();
      return;
    }
    res.sendFile(resolve(file), (sendError?: Error | null) => {
      if (sendError && !res.headersSent) {
        logError(logger, sendError);
        res.status(status);
        sendJson();
      }
    });
  };
}
