import {
  compose,
  getResponse,
  getServiceMethod,
  invokeServiceThen,
  METHOD_HEADER,
  restArguments,
  type Application,
  type HookContext,
  type Middleware,
} from '../core/index.js';
import { GeneralError, NotFound } from '../errors/index.js';
import { bodyParser } from './body-parser.js';
import {
  applyCors,
  createCorsPolicy,
  createPreflightResponse,
  setHandlerCorsPolicy,
  type CorsOptions,
} from './cors.js';
import { createErrorResponse, errorHandler, logServerError } from './error-handler.js';
import type { HandlerContext, HandlerMiddleware, RequestHandler, Responder } from './declarations.js';
import { createJsonResponse, getJsonText } from './json-response.js';
import { queryParser } from './query-parser.js';
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

/** Turns a finished service call into a `Response` (spec: "Response behaviour (Web Standard handler)"). */
function createServiceResponse(hook: HookContext, context: HandlerContext): Response {
  const { status, headers, body } = getResponse(hook);
  if (body instanceof Response) return body;
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
 * The last step of every chain: route, map to a service method, call it and build the response.
 * Not an async function (one reaction costs less than an async frame); what it throws before the
 * call reaches the chain as a rejection, as for any middleware.
 */
const callService: Middleware<HandlerContext> = (context) => {
  const { app, request, params } = context;
  const lookup = context.lookup === undefined ? app.lookup(getPathname(context)) : context.lookup;
  if (lookup === null) throw new NotFound(`Path '${getPathname(context).slice(0, 200)}' not found`);
  const service = lookup.value;
  const method = getServiceMethod(
    service,
    request.method,
    lookup.id,
    getRequestHeader(request, METHOD_HEADER),
  );
  if (params.query === undefined) params.query = {};
  const args = restArguments(method, { id: lookup.id, data: context.data, params });
  return invokeServiceThen(app, service, method, args, (hook) => {
    context.response = createServiceResponse(hook, context);
  });
};

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
 */
export function createHandler(
  app: Application,
  middleware: HandlerMiddleware[] = [errorHandler(), queryParser(), bodyParser()],
  options: HandlerOptions = {},
): RequestHandler {
  const run = compose<HandlerContext>([...middleware, callService]);
  const cors = createCorsPolicy(options.cors);

  /** The last touches every response gets: no body for `HEAD`, the CORS headers. */
  const finish = (request: Request, origin: string | null, response: Response): Response =>
    applyCors(request.method === 'HEAD' ? withoutBody(response) : response, origin, cors);

  // A callback rather than a promise: `toRuntimeHandler` calls this directly, which saves a promise
  // and a reaction per request; `handle` wraps it in the promise other runtimes expect.
  const respond: Responder = (request, reply) => {
    const origin = getRequestHeader(request, 'origin');
    if (request.method === 'OPTIONS') {
      reply(createPreflightResponse(origin, cors));
      return;
    }
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
      context = new RequestContext(app, request, {
        provider: 'rest',
        headers: getRequestHeaders(request),
        route: {},
        request,
      });
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
