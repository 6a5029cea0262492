import {
  compose,
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
  createCorsPolicy,
  createPreflightResponse,
  setHandlerCorsPolicy,
  type CorsOptions,
  type CorsPolicy,
} from './cors.js';
import { createErrorResponse, createErrorStep, type ErrorStep } from './error-handler.js';
import type {
  HandlerContext,
  HandlerMiddleware,
  HandlerParams,
  RequestHandler,
  Responder,
  ResponseCallback,
} from './declarations.js';
import { finishResponse } from './finish-response.js';
import { parseQueryString, setQuery } from './query-parser.js';
import { getPathname, RequestContext } from './handler-context.js';
import { getClientAddress, getRequestHeader, getRequestHeaders } from './runtime-request.js';
import { createServiceResponse } from './service-response.js';

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

const noResponse = (): GeneralError => new GeneralError('The middleware chain did not produce a response');

/** Where `serveCall` reports, with `this` = the target: `served(hook)` once the call is over, else `failed(error)`. */
interface CallTarget {
  // Function-valued fields rather than methods: serveCall hands them on, unbound, with the target.
  readonly served: (this: CallTarget, hook: HookContext) => void;
  readonly failed: (this: CallTarget, error: unknown) => void;
}

/**
 * Routes the request, maps it to a service method and calls it; then calls `target.served` with the
 * final hook context, or `target.failed` with what went wrong (before the call too: 404, 405, 400).
 */
function serveCall(context: HandlerContext, target: CallTarget): void {
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
    target.failed(error);
    return;
  }
  invokeServiceCallback(app, service, method, args, target.served, target.failed, undefined, target);
}

/** The service call of a composed chain, which settles the promise `callService` returns. */
class PromisedCall implements CallTarget {
  constructor(
    private readonly context: HandlerContext,
    private readonly resolve: () => void,
    readonly failed: (error: unknown) => void,
  ) {}

  served(hook: HookContext): void {
    this.context.response = createServiceResponse(hook, this.context);
    this.resolve();
  }
}

/** The last step of every composed chain: `serveCall` as a middleware. */
const callService: Middleware<HandlerContext> = (context) =>
  new Promise<void>((resolve, reject) => {
    serveCall(context, new PromisedCall(context, resolve, reject));
  });

/** What the requests of one `createHandler` handler share. */
interface HandlerShared {
  readonly cors: CorsPolicy;
  /** The default chain's `errorHandler()`. */
  readonly errors: ErrorStep;
}

/**
 * Answers through `reply`: with `response`, or (`failed`) with the JSON error for `error`; HEAD and
 * CORS applied (`finishResponse`). Never throws: what fails here goes to `reply` as an error.
 */
function settle(
  shared: HandlerShared,
  request: Request,
  origin: string | null,
  reply: ResponseCallback,
  failed: boolean,
  error: unknown,
  response: Response | undefined,
): void {
  let answer: Response;
  try {
    answer = finishResponse(
      request,
      origin,
      shared.cors,
      failed
        ? createErrorResponse(error, console, request)
        : (response ?? createErrorResponse(noResponse(), console, request)),
    );
  } catch (failure: unknown) {
    reply(null, failure);
    return;
  }
  reply(answer);
}

/**
 * One request through a `createHandler` handler: the context its middleware sees, and what its answer
 * needs (`reply`, the request's `Origin`). The steps of the default chain are its methods, so that a
 * request waiting for its service holds this one object instead of a closure and a context per step,
 * which the collector would copy.
 */
class Exchange extends RequestContext implements CallTarget {
  readonly #shared: HandlerShared;
  readonly #origin: string | null;
  readonly #reply: ResponseCallback;

  constructor(
    app: Application,
    request: Request,
    params: HandlerParams,
    shared: HandlerShared,
    origin: string | null,
    reply: ResponseCallback,
  ) {
    super(app, request, params);
    // Set here, so that every field is in the object from the start (one allocation, no growing).
    this.data = undefined;
    this.response = undefined;
    this.logError = undefined;
    this.#shared = shared;
    this.#origin = origin;
    this.#reply = reply;
  }

  /**
   * The default chain, `[errorHandler(), queryParser(), bodyParser()]` and the service call, run as
   * one step instead of composed: the same work and the same answers, with fewer promises and calls.
   */
  runDefaultChain(): void {
    this.#shared.errors.attach(this);
    let reading: Promise<void> | undefined;
    try {
      setQuery(this, parseQueryString);
      reading = readContextBody(this, DEFAULT_BODY_LIMIT);
    } catch (error: unknown) {
      this.failed(error);
      return;
    }
    if (reading === undefined) serveCall(this, this);
    else
      reading.then(
        () => serveCall(this, this),
        (error: unknown) => this.failed(error),
      );
  }

  /** The service call is over: answers with its response. */
  served(hook: HookContext): void {
    this.response = createServiceResponse(hook, this);
    this.settle(false);
  }

  /** A step of the default chain threw: answers as `errorHandler()` does. */
  failed(error: unknown): void {
    try {
      this.#shared.errors.answer(this, error);
    } catch (failure: unknown) {
      this.settle(true, failure);
      return;
    }
    this.settle(false);
  }

  /** Answers with `this.response`, or (`failed`) with the JSON error for `error`. Never throws. */
  settle(failed: boolean, error?: unknown): void {
    settle(this.#shared, this.request, this.#origin, this.#reply, failed, error, this.response);
  }
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
  const cors = createCorsPolicy(options.cors);
  const shared: HandlerShared = { cors, errors: createErrorStep() };

  // A callback rather than a promise: `toRuntimeHandler` calls this directly, which saves a promise
  // and a reaction per request; `handle` wraps it in the promise other runtimes expect.
  const respond: Responder = (request, reply) => {
    if (request.method === 'OPTIONS') {
      reply(createPreflightResponse(getRequestHeader(request, 'origin'), cors));
      return;
    }
    // Read from the object given to `params.headers`, which costs less than a second lookup.
    let origin: string | null = null;
    let exchange: Exchange;
    try {
      const headers = getRequestHeaders(request);
      origin = headers.origin ?? null;
      const params: HandlerParams = { provider: 'rest', headers, route: {}, request };
      exchange = new Exchange(app, request, params, shared, origin, reply);
      const ip = getClientAddress(request);
      if (ip !== undefined) params.ip = ip;
      try {
        exchange.lookup = app.lookup(exchange.pathname);
        if (exchange.lookup !== null) params.route = exchange.lookup.route;
      } catch {
        // Malformed percent-encoding: the lookup is repeated in the chain, where errorHandler answers it.
      }
    } catch (error: unknown) {
      settle(shared, request, origin, reply, true, error, undefined);
      return;
    }
    if (run === null) {
      exchange.runDefaultChain();
      return;
    }
    run(exchange).then(
      () => exchange.settle(false),
      (error: unknown) => exchange.settle(true, error),
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
