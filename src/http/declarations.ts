/**
 * The types the files of `plume/http` share (DESIGN.md: a folder's shared types live in its
 * `declarations.ts`, so that no file imports another only for a type).
 */
import type { Application, HeadersObject, Middleware, Params, ServiceLookup } from '../core/index.js';

/** Service params of a call made through the Web Standard handler (spec: "Request params"). */
export interface HandlerParams extends Params {
  provider: string;
  /** Request headers as a plain object with lower-case names. */
  headers: HeadersObject;
  /** Values of the service path's placeholders (`{ userId }` for `users/:userId/messages`). */
  route: Record<string, string>;
  /** The original Web Standard request. */
  request: Request;
  /**
   * The client's IP address: the connection's peer under `toRuntimeHandler`; unset on other runtimes
   * (set it in a middleware, and behind a proxy from the header your proxy sets). Used by the
   * authentication rate limits.
   */
  ip?: string;
}

/**
 * What each `createHandler` middleware receives (spec: "Web Standard handler API", custom middleware).
 * Middleware may set any `params` (e.g. `params.user`) and `data`; one that returns without calling
 * `next()` answers by setting `response`.
 */
export interface HandlerContext {
  readonly app: Application;
  readonly request: Request;
  /** The request URL; for a request from `toRuntimeHandler` it is parsed on first read. */
  readonly url: URL;
  /** Params given to the service: `provider: 'rest'`, `headers`, `route`, `request`, then `query` from `queryParser`. */
  params: HandlerParams;
  /** The service data, set by `bodyParser` for `POST`, `PUT` and `PATCH`. */
  data?: unknown;
  /**
   * The service and id the path leads to, looked up before the chain runs: `null` when no service
   * matches (answered with 404 at the end of the chain), `undefined` when the path could not be
   * decoded (answered with 400). Middleware may replace it to reroute a request.
   */
  lookup?: ServiceLookup | null;
  /** The response; set by the end of the chain, by `errorHandler`, or by middleware that answers itself. */
  response?: Response;
  /** Logs errors that happen after the response started (a failing SSE iterator); set by `errorHandler`. */
  logError?: (error: unknown) => void;
}

/** A `createHandler` middleware: `async (context, next) => void` (spec: "Web Standard handler API"). */
export type HandlerMiddleware = Middleware<HandlerContext>;

/** A Web Standard request handler, as returned by `createHandler`. */
export type RequestHandler = (request: Request) => Promise<Response>;

/** Receives a handler's answer: the response, or `null` and the error that kept it from making one. */
export type ResponseCallback = (response: Response | null, error?: unknown) => void;

/** The callback form of a `createHandler` handler: answers `request` by calling `reply` once (or throws before calling it). */
export type Responder = (request: Request, reply: ResponseCallback) => void;
