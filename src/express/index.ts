/**
 * `plume/express`: the server-framework integration (spec: "Server-framework integration API",
 * "Rules for the REST transport", "Errors", "Authentication"). `serverFramework(app)` turns a plume
 * app into an Express 5 app; `app.configure(rest())` exposes its services over REST.
 * @packageDocumentation
 */
import compressionModule from 'compression';
import corsModule from 'cors';
import express from 'express';

export { serverFramework } from './server-framework.js';
export { rest, formatter, type Formatter, type RestOptions } from './rest.js';
export { queryParser, type QueryParserOptions } from './query-parser.js';
export { json, type JsonOptions } from './json.js';
export { urlencoded, type UrlencodedOptions } from './urlencoded.js';
export { notFound, type NotFoundOptions } from './not-found.js';
export { accessLog, type AccessLogOptions } from './access-log.js';
export {
  defaultHtmlPages,
  errorHandler,
  toClientError,
  type ErrorHandlerOptions,
  type ErrorLogger,
  type HtmlErrorPages,
  type HtmlErrorRenderer,
} from './error-handler.js';
export {
  authenticate,
  parseAuthentication,
  type AuthenticationServiceLike,
  type AuthenticationSettings,
} from './authentication.js';
export type {
  FrameworkApplication,
  FrameworkOverrides,
  FrameworkParams,
  FrameworkServiceOptions,
  ServiceMiddleware,
  UseArgument,
} from './declarations.js';

/** Express itself (`express` package default export), for anything not re-exported here. */
export const original = express;
/** The `cors` package's middleware factory, as is (spec: re-exports). */
export const cors = corsModule;
/** The `compression` package's middleware factory, as is. */
export const compression = compressionModule;
/** `express.static` (serve-static): serves files from a folder. */
export const serveStatic = express.static;
/** `express.Router`: a router to mount with `app.use(path, router)`. */
export const Router = express.Router;
export type { NextFunction, Request, RequestHandler, Response, ErrorRequestHandler } from 'express';
