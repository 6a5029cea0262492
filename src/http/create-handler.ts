import {
  compose,
  getResponse,
  getServiceMethod,
  invokeServiceCallback,
  METHOD_HEADER,
  restArguments,
  type Application,
  type HookContext,
  type Middleware,
  type Service,
} from '../core/index.js';
import { GeneralError, NotFound } from '../errors/index.js';
import { DEFAULT_BODY_LIMIT, readContextBody } from './body-parser.js';
import {
  applyCors,
  createCorsPolicy,
  createPreflightResponse,
  setHandlerCorsPolicy,
  type CorsOptions,
} from './cors.js';
import { createErrorResponse, createErrorStep, logServerError, type ErrorStep } from './error-handler.js';
import type { HandlerContext, HandlerMiddleware, RequestHandler, Responder } from './declarations.js';
import { createJsonResponse, getJsonText } from './json-response.js';
import { parseQueryString, setQuery } from './query-parser.js';
import { getPathname, RequestContext } from './handler-context.js';
import { getClientAddress, getRequestHeader, getRequestHeaders } from './runtime-request.js';
import { createEventStream, isAsyncIterable } from '../core/index.js';

/** Options of `createHandler(app, middleware, options)`. */
export interface HandlerOptions {
  /**
   * Restricts CORS (allowed origins, credentials, headers, max age); see `CorsOptions`. Default: SEED.md's
   * rules, which let any site read every answer and send credentialed preflights.
   */
  cors?: CorsOptions;
}

const responders = new WeakMap<RequestHandler, Responder>();

/** The callback form of a handler made by `createHandler` (for `toRuntimeHandler`); `undefined` for any other. */
export function getResponder(handler: RequestHandler): Responder | undefined {
  return responders.get(handler);
}

const logToConsole = (error: unknown): void => logServerError(console, error);

const noResponse = (): GeneralError => new GeneralError('The middleware chain did not produce a response');

/** Response headers: the transport's own first, then `http.headers` from hooks, which win. */
function buildHeaders(own: Record<string, string>, extra: Record<string, string | string[]>): Headers {
  const headers = new Headers(own);
  for (const name of Object.keys(extra)) {
    const value = extra[name];
    if (Array.isArray(value)) {
      headers.delete(name);
      for (const item of value) headers.append(name, item);
    } else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * `value instanceof Response`, asked as `isPrototypeOf` of `Response.prototype`: the same answer
 * (both walk `value`'s prototype chain), but V8 compiles `instanceof` Node.js' global `Response` to
 * a generic call of about 200 instructions, and this to a few loads.
 */
function isResponse(value: unknown): value is Response {
  return Object.prototype.isPrototypeOf.call(Response.prototype, value as object);
}

/** Turns a finished service call into a `Response` (spec: "Response behaviour (Web Standard handler)"). */
function createServiceResponse(hook: HookContext, context: HandlerContext): Response {
  const { status, headers, body } = getResponse(hook);
  if (isResponse(body)) return body;
  const hasHeaders = Object.keys(headers).length > 0;
  if (isAsyncIterable(body)) {
    const own = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' };
    const stream = createEventStream(body, context.request.signal, context.logError ?? logToConsole);
    return new Response(stream, { status, headers: hasHeaders ? buildHeaders(own, headers) : own });
  }
  return createJsonResponse(
    body,
    status,
    hasHeaders ? buildHeaders({}, headers) : undefined,
    context.request,
  );
}

/**
 * Routes the request, maps it to a service method, calls it and sets `context.response`; then calls
 * `done`, or `failed` with what went wrong (before the call too: 404, 405, 400).
 */
function serveCall(context: HandlerContext, done: () => void, failed: (error: unknown) => void): void {
  const { app, request, params } = context;
  let service: Service;
  let method: string;
  let args: unknown[];
  try {
    const lookup = context.lookup === undefined ? app.lookup(getPathname(context)) : context.lookup;
    if (lookup === null) throw new NotFound(`Path '${getPathname(context).slice(0, 200)}' not found`);
    service = lookup.value;
    // Only a POST can name a custom method.
    const override = request.method === 'POST' ? getRequestHeader(request, METHOD_HEADER) : null;
    method = getServiceMethod(service, request.method, lookup.id, override);
    if (params.query === undefined) params.query = {};
    args = restArguments(method, { id: lookup.id, data: context.data, params });
  } catch (error: unknown) {
    failed(error);
    return;
  }
  invokeServiceCallback(
    app,
    service,
    method,
    args,
    (hook) => {
      context.response = createServiceResponse(hook, context);
      done();
    },
    failed,
  );
}

/** The last step of every composed chain: `serveCall` as a middleware. */
const callService: Middleware<HandlerContext> = (context) =>
  new Promise<void>((resolve, reject) => {
    serveCall(context, resolve, reject);
  });

/**
 * The default chain, `[errorHandler(), queryParser(), bodyParser()]` and the service call, run as one
 * step instead of composed: the same work and the same answers, with fewer promises and calls per
 * request. Calls `settle` once the response (or the error answer) is in `context.response`; its
 * `failed` form only for an error the error answer itself threw.
 */
function runDefaultChain(
  context: RequestContext,
  errors: ErrorStep,
  settle: (failed: boolean, error?: unknown) => void,
): void {
  const fail = (error: unknown): void => {
    try {
      errors.answer(context, error);
    } catch (failure: unknown) {
      settle(true, failure);
      return;
    }
    settle(false);
  };
  const succeed = (): void => settle(false);
  errors.attach(context);
  let reading: Promise<void> | undefined;
  try {
    setQuery(context, parseQueryString);
    reading = readContextBody(context, DEFAULT_BODY_LIMIT);
  } catch (error: unknown) {
    fail(error);
    return;
  }
  if (reading === undefined) serveCall(context, succeed, fail);
  else reading.then(() => serveCall(context, succeed, fail), fail);
}

/** A `HEAD` answer: the `GET` response's status and headers, no body (its stream is cancelled). */
function withoutBody(response: Response): Response {
  const text = getJsonText(response);
  if (text === undefined) {
    const body = response.body;
    if (body === null) return response;
    body.cancel().catch(() => undefined);
  }
  const headless = new Response(null, response);
  if (text !== undefined && !headless.headers.has('content-length')) {
    headless.headers.set('content-length', String(new TextEncoder().encode(text).byteLength));
  }
  return headless;
}

/**
 * Turns `app` into a Web Standard handler `(request: Request) => Promise<Response>` (spec: "Web
 * Standard handler API"). Each request runs through `middleware` (koa-style `async (context, next)`,
 * composed once here) and then the service call: the path is matched with `app.lookup` (none → 404),
 * the HTTP method and `X-Service-Method` header pick the service method (405 when not allowed), the
 * method runs through its hooks with params `{ provider: 'rest', headers, route, request, query }`,
 * and its result becomes the response: a `Response` as is, an async iterable as `text/event-stream`,
 * anything else as JSON, with status and headers from core `getResponse`. `HEAD` answers like `GET`
 * without a body; `OPTIONS` is answered as a CORS preflight before any middleware; every response
 * carries `Access-Control-Allow-Origin` (spec: "CORS"), unless `options.cors` restricts origins.
 *
 * Errors are answered by `errorHandler()` in the chain; if the chain has none, errors (and a chain that
 * leaves no response) are still answered with a JSON error and logged to `console`. The handler
 * itself never rejects. Pass your own array to add middleware, keeping the defaults first:
 * `createHandler(app, [errorHandler(), queryParser(), bodyParser(), myMiddleware])`.
 *
 * Without `middleware` (`undefined`), the default chain `[errorHandler(), queryParser(), bodyParser()]`
 * runs as one step rather than composed: the same answers, with fewer calls and promises per request.
 */
export function createHandler(
  app: Application,
  middleware?: HandlerMiddleware[],
  options: HandlerOptions = {},
): RequestHandler {
  // Without a middleware array, the default chain runs as one step (runDefaultChain).
  const run = middleware === undefined ? null : compose<HandlerContext>([...middleware, callService]);
  const errors = createErrorStep(); // the default chain's errorHandler()
  const cors = createCorsPolicy(options.cors);

  /** The last touches every response gets: no body for `HEAD`, the CORS headers. */
  const finish = (request: Request, origin: string | null, response: Response): Response =>
    applyCors(request.method === 'HEAD' ? withoutBody(response) : response, origin, cors);

  // A callback rather than a promise: `toRuntimeHandler` calls this directly, which saves a promise
  // and a reaction per request; `handle` wraps it in the promise other runtimes expect.
  const respond: Responder = (request, reply) => {
    if (request.method === 'OPTIONS') {
      reply(createPreflightResponse(getRequestHeader(request, 'origin'), cors));
      return;
    }
    // Read from the object given to `params.headers`, which costs less than a second lookup.
    let origin: string | null = null;
    let context: RequestContext;
    /** Answers with the chain's response, or with the error it `failed` with. Never throws. */
    const settle = (failed: boolean, error?: unknown): void => {
      let response: Response;
      try {
        response = finish(
          request,
          origin,
          failed
            ? createErrorResponse(error, console, request)
            : (context.response ?? createErrorResponse(noResponse(), console, request)),
        );
      } catch (failure: unknown) {
        reply(null, failure);
        return;
      }
      reply(response);
    };
    try {
      const headers = getRequestHeaders(request);
      origin = headers.origin ?? null;
      context = new RequestContext(app, request, { provider: 'rest', headers, route: {}, request });
      const ip = getClientAddress(request);
      if (ip !== undefined) context.params.ip = ip;
      try {
        context.lookup = app.lookup(context.pathname);
        if (context.lookup !== null) context.params.route = context.lookup.route;
      } catch {
        // Malformed percent-encoding: the lookup is repeated in the chain, where errorHandler answers it.
      }
    } catch (error: unknown) {
      settle(true, error);
      return;
    }
    if (run === null) {
      runDefaultChain(context, errors, settle);
      return;
    }
    run(context).then(
      () => settle(false),
      (error: unknown) => settle(true, error),
    );
  };

  const handle = function handle(request: Request): Promise<Response> {
    return new Promise((resolve, reject) => {
      respond(request, (response, error) => {
        // Rejected with what was thrown, as an async function would be.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        if (response === null) reject(error);
        else resolve(response);
      });
    });
  };
  responders.set(handle, respond);
  setHandlerCorsPolicy(handle, cors);
  return handle;
}
