import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import {
  createEventStream,
  getResponse,
  getServiceMeta,
  getServiceMethod,
  invokeService,
  isAsyncIterable,
  METHOD_HEADER,
  restArguments,
  type Application,
  type HeadersObject,
  type Params,
  type Query,
  type Service,
  type ServiceLookup,
} from '../core/index.js';
import { BadRequest, GeneralError, isPlumeError, statusOf, UnsupportedMediaType } from '../errors/index.js';
import { logServerError, serverErrorLogger } from '../http/index.js';
import { parseAuthentication, type AuthenticationSettings } from './authentication.js';
import type { ServiceMiddleware } from './declarations.js';

/**
 * Sends a REST answer: reads `res.data` (status and headers are already set) and answers, e.g. with
 * `res.format` for content negotiation (spec: "Server-framework integration API", `rest(formatter)`).
 */
export type Formatter = (req: Request, res: Response, next: NextFunction) => void;

/** Options of `rest()`. */
export interface RestOptions {
  /** Replaces the default JSON `formatter`. */
  formatter?: Formatter;
  /** Settings of the `parseAuthentication()` that `rest()` registers (default: the default authentication service). */
  authentication?: AuthenticationSettings;
}

/** Pipes a Web Standard stream into the Express response; a failing stream ends the connection. */
function pipeWebStream(body: ReadableStream<Uint8Array>, res: Response): void {
  Readable.fromWeb(body as NodeReadableStream<Uint8Array>)
    .on('error', () => res.destroy())
    .pipe(res);
}

/**
 * Streams an async iterable as Server-Sent Events, exactly as the Web Standard handler does (spec:
 * "Response behaviour", 2): one `data: <json>` event per item, the iterator closed when the client leaves.
 * `Cache-Control: no-cache, no-transform` keeps `compression()` from compressing (and so buffering) it.
 */
function sendEventStream(req: Request, res: Response, iterable: AsyncIterable<unknown>): void {
  const abort = new AbortController();
  // A client that left while the service was opening the stream closed the response already: 'close'
  // has fired and will not fire again, so the iterator must be closed now or it stays open for good.
  if (res.destroyed || res.socket === null || res.socket.destroyed) abort.abort();
  else res.once('close', () => abort.abort());
  // `no-transform`: compression() (and proxies) must not compress, which buffers events until the stream ends.
  res.set({
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
  });
  res.flushHeaders();
  pipeWebStream(
    // 5xx of an iterator that throws go where the Web Standard handler sends them: the app's logger.
    createEventStream(iterable, abort.signal, (error) =>
      logServerError(serverErrorLogger(req.app as unknown as Application), error),
    ),
    res,
  );
}

/** Sends a Web Standard `Response` a service returned as it is: status, headers and body (spec: "Response behaviour", 1). */
function sendResponse(res: Response, response: globalThis.Response): void {
  res.status(response.status);
  // res.append would pass Content-Type through Express' res.set, which adds a charset: set it as it is.
  response.headers.forEach((value, name) => {
    if (name === 'content-type') res.setHeader(name, value);
    else res.append(name, value);
  });
  if (response.body === null) res.end();
  else pipeWebStream(response.body, res);
}

/**
 * The default formatter: `res.data` as JSON (`res.json`); `undefined` answers with no body, and a
 * 204 never has one; a Web Standard `Response` is sent as it is and an async iterable is streamed as
 * `text/event-stream`. Every `Accept` header gets JSON, like the Web Standard handler.
 */
export const formatter: Formatter = (req, res) => {
  const data = res.data;
  if (data instanceof globalThis.Response) {
    sendResponse(res, data);
    return;
  }
  if (isAsyncIterable(data)) {
    sendEventStream(req, res, data);
    return;
  }
  if (data === undefined) {
    res.type('json').end();
    return;
  }
  res.json(data);
};

const bodyMethods = new Set(['POST', 'PUT', 'PATCH']);

/** True when the request carries a body on the wire (a non-zero `Content-Length`, or chunked). */
function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/**
 * The service data of a `POST`, `PUT` or `PATCH` request: what a body parser put in `req.body`.
 * Like the Web Standard handler, a request without a body is a 400; a body no parser handled is a
 * 415 (register `json()`, `urlencoded()` or another parser before `rest()`).
 */
function readData(req: Request, method: string): unknown {
  if (!bodyMethods.has(method)) return undefined;
  if (!hasBody(req)) throw new BadRequest(`A request body is required for ${method} requests`);
  const data = req.body as unknown;
  if (data === undefined) {
    const type = (req.headers['content-type'] ?? 'none').slice(0, 100);
    throw new UnsupportedMediaType(
      `No body parser read the request body (content type '${type}'); register one, e.g. json(), before rest()`,
    );
  }
  return data;
}

/** True for an app made by `serverFramework(app)`: plume's registry and Express' request handling. */
function isFrameworkApp(
  app: unknown,
): app is Application & { handle: unknown; use(fn: RequestHandler): unknown } {
  if (typeof app !== 'function') return false;
  const candidate = app as unknown as Record<string, unknown>;
  return typeof candidate.handle === 'function' && typeof candidate.lookup === 'function';
}

/** Calls the formatter as Express would: a throw, or a rejected promise it returns, goes to `next`. */
function runFormatter(format: Formatter, req: Request, res: Response, next: NextFunction): void {
  try {
    const returned = format(req, res, next) as unknown;
    if (returned instanceof Promise) returned.catch(next);
  } catch (error: unknown) {
    next(error);
  }
}

/**
 * Passes an error on to the error middleware with its status already on `res.statusCode` (a plume
 * error's `code`, else 500), so an application's own error middleware can answer with it, as in
 * FeathersJS; plume's `errorHandler` sets the status itself anyway.
 */
function passError(res: Response, next: NextFunction, error: unknown): void {
  if (!res.headersSent) {
    res.status(isPlumeError(error) ? statusOf(error) : 500);
  }
  next(error);
}

/** The `X-Service-Method` request header (a custom method for a `POST`), or `null`. */
function methodOverride(req: Request): string | null {
  const value = req.headers[METHOD_HEADER];
  return typeof value === 'string' ? value : null;
}

/** Answers one REST request for the service `lookup` found, with the service's middleware around it. */
type ServiceChain = (req: Request, res: Response, next: NextFunction, lookup: ServiceLookup) => void;

/** The service middleware `app.use(path, before, service, after)` stored on a registered service. */
function serviceMiddlewareOf(service: Service): Required<ServiceMiddleware> {
  const options = getServiceMeta(service)?.options.framework as ServiceMiddleware | undefined;
  return { before: options?.before ?? [], after: options?.after ?? [] };
}

/**
 * The REST transport (spec: "Server-framework integration API", `rest()`): `app.configure(rest())`.
 * Requests whose path matches a service (`app.lookup(req.path)`) are answered by that service:
 * the HTTP method and `X-Service-Method` header pick the method (405 when not allowed), the method
 * runs through its hooks with params `{ query: req.query, headers, route, ip: req.ip, ...req.framework }` and
 * data `req.body` (`POST`/`PUT`/`PATCH` without a body: 400; with a body no parser read: 415), then the status, headers and `res.data` come from the hook context (core
 * `getResponse`) and the formatter answers. Around that, the service's own before/after middleware run
 * (`res.hook` is the hook context). Other paths go on to the next middleware; errors go to the error
 * handler. Also registers `parseAuthentication(options.authentication)` first.
 *
 * Order matters: body parsers (`json()`, `urlencoded()`) and middleware that set `req.framework`
 * properties must be registered before `app.configure(rest())` (or be service middleware).
 * An error is passed on with its status already set on `res.statusCode` (a plume error's `code`, else
 * 500), for an application's own error middleware. `rest(null)` and `rest()` use the default formatter.
 * Throws a `TypeError` for an app that did not come from `serverFramework(app)`.
 */
export function rest(
  options: Formatter | RestOptions | null = {},
): <S extends object>(app: Application<S>) => void {
  const settings: RestOptions = typeof options === 'function' ? { formatter: options } : (options ?? {});
  const format = settings.formatter ?? formatter;
  if (typeof format !== 'function') throw new TypeError('rest(formatter): the formatter must be a function');

  return (app) => {
    if (!isFrameworkApp(app)) {
      throw new TypeError('rest() needs an application made by serverFramework(app) from plume/express');
    }
    const chains = new WeakMap<Service, ServiceChain>();

    /**
     * Calls the service `lookup` found for `req` and puts its answer on `res` (status, headers,
     * `res.hook`, `res.data`), then hands over to `then` (the formatter) or, when it is `null`, to
     * `next`. An error goes to `next` with its status set.
     */
    const callService = async (
      req: Request,
      res: Response,
      next: NextFunction,
      lookup: ServiceLookup,
      then: Formatter | null,
    ): Promise<void> => {
      try {
        const service = lookup.value;
        // The method first: a method the service lacks is a 405 whether or not a body came with it.
        const httpMethod = req.method;
        const method = getServiceMethod(service, httpMethod, lookup.id, methodOverride(req));
        const data = readData(req, httpMethod);
        const query = req.query as Query | undefined;
        const params: Params = {
          query: query ?? {},
          headers: req.headers as HeadersObject,
          route: lookup.route,
          ip: req.ip,
          ...req.framework,
        };
        const args = restArguments(method, { id: lookup.id, data, params });
        const context = await invokeService(app, service, method, args);
        res.hook = context;
        const { status, headers, body } = getResponse(context);
        // Each property access on `res` costs; most answers keep the status Express started with.
        if (res.statusCode !== status) res.status(status);
        for (const name of Object.keys(headers)) {
          const value = headers[name];
          if (value !== undefined) res.setHeader(name, value);
        }
        res.data = body;
      } catch (error: unknown) {
        passError(res, next, error);
        return;
      }
      if (then === null) next();
      else runFormatter(then, req, res, next);
    };

    const chainFor = (service: Service): ServiceChain => {
      let chain = chains.get(service);
      if (chain === undefined) {
        const { before, after } = serviceMiddlewareOf(service);
        if (before.length === 0 && after.length === 0) {
          // No service middleware: call the service then the formatter, without a Router per request.
          chain = (req, res, next, lookup) => void callService(req, res, next, lookup, format);
        } else {
          // The service middleware of one request reads the lookup it was routed by from here.
          const lookups = new WeakMap<Request, ServiceLookup>();
          const router = express.Router();
          router.use([
            ...before,
            (req: Request, res: Response, next: NextFunction) => {
              const lookup = lookups.get(req);
              if (lookup === undefined) {
                next(new GeneralError('The REST service middleware ran without a service'));
              } else void callService(req, res, next, lookup, null);
            },
            ...after,
            format,
          ]);
          chain = (req, res, next, lookup) => {
            lookups.set(req, lookup);
            void router(req, res, next);
          };
        }
        chains.set(service, chain);
      }
      return chain;
    };

    const serveServices: RequestHandler = (req, res, next) => {
      let lookup: ServiceLookup | null;
      try {
        lookup = app.lookup(req.path);
      } catch (error: unknown) {
        passError(res, next, error);
        return;
      }
      if (lookup === null) next();
      else chainFor(lookup.value)(req, res, next, lookup);
    };

    // One Express layer for both steps: each layer costs every request a router pass.
    const parse = parseAuthentication(settings.authentication);
    app.use(function serveRest(req: Request, res: Response, next: NextFunction) {
      void parse(req, res, (error?: unknown) => {
        if (error !== undefined && error !== null) passError(res, next, error);
        else serveServices(req, res, next);
      });
    });
  };
}
