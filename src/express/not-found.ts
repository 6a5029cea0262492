import type { RequestHandler } from 'express';
import { NotFound } from '../errors/index.js';

/** Options of `notFound()`. */
export interface NotFoundOptions {
  /** When true, the request URL is part of the message (and of `data.url`). Default false. */
  verbose?: boolean;
}

/**
 * Middleware that passes a `NotFound` (404) error to the error handler for every request that gets
 * this far (spec: "Errors", `notFound`). Register it after all routes and services, right before
 * `errorHandler()`. The message is `Page not found`, or `Page not found: <url>` with `verbose`
 * (URLs longer than 200 characters are cut).
 */
export function notFound(options: NotFoundOptions = {}): RequestHandler {
  const verbose = options.verbose === true;
  return (req, _res, next) => {
    if (!verbose) {
      next(new NotFound('Page not found'));
      return;
    }
    const url = req.originalUrl.slice(0, 200);
    next(new NotFound(`Page not found: ${url}`, { data: { url } }));
  };
}
