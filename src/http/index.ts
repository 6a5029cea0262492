/**
 * `plume/http`: the Web Standard handler (spec: "Web Standard handler API", "Request body parsing",
 * "Response behaviour", "CORS"). `createHandler(app)` gives `(request: Request) => Promise<Response>`
 * for any runtime; `toRuntimeHandler` serves it with Node.js' `http` module.
 * @packageDocumentation
 */
export { createHandler, type HandlerOptions } from './create-handler.js';
export type { HandlerContext, HandlerMiddleware, HandlerParams, RequestHandler } from './declarations.js';
export {
  createErrorResponse,
  errorHandler,
  logServerError,
  serverErrorLogger,
  type ErrorHandlerOptions,
  type ErrorLogger,
} from './error-handler.js';
export { parseQueryString, queryParser, type QueryParseFunction } from './query-parser.js';
export { bodyParser, DEFAULT_BODY_LIMIT, parseRequestBody, type BodyParserOptions } from './body-parser.js';
// The body rules plume/express applies to what body-parser reads, so both transports refuse the same bodies.
export { decodeBodyText, getBodyCharset } from './body-charset.js';
export { findScalarBody, findUnstorableNumber, findUnstorableText } from './body-text.js';
export {
  applyCors,
  CORS_ALLOW_HEADERS,
  CORS_ALLOW_METHODS,
  createCorsPolicy,
  createPreflightResponse,
  type CorsOptions,
  type CorsPolicy,
} from './cors.js';
export { createEventStream, isAsyncIterable } from '../core/index.js';
export { accessLog, type AccessLogOptions } from './access-log.js';
// The Host rule plume/express applies too, so both transports answer a request without one alike.
export { duplicateHostError, missingHostError } from './host-header.js';
export { toRuntimeHandler, type RuntimeHandlerOptions, type RuntimeListener } from './runtime-handler.js';
export type { CompressionOptions, ContentEncoding } from './compression.js';
