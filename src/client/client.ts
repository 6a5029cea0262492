import { BadRequest, NotAcceptable } from '../errors/index.js';
import type {
  ClientMiddleware,
  ClientOptions,
  ClientParams,
  ClientRequest,
  EventStream,
  EventStreamParams,
  Id,
} from './declarations.js';
import { eventStream } from './event-stream.js';
import { isEventStream, readBody, send, type Attempt, type Connection } from './fetch-call.js';
import type { ServiceClient, ServicesOf } from './service-types.js';

/** Default milliseconds before a call without an answer fails with `Timeout`. */
const DEFAULT_TIMEOUT = 30_000;
/** Default milliseconds before an event stream reconnects when the server sent no `retry:`. */
const DEFAULT_RETRY_DELAY = 1000;

/** `users/:userId/messages` with `{ userId: '42' }` → `users/42/messages` (values URL-encoded). */
function fillPlaceholders(path: string, route: ClientParams['route'] = {}): string {
  return path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const value = route[segment.slice(1)];
      if (value === undefined || value === '') {
        throw new BadRequest(`params.route.${segment.slice(1)} is needed for the path '${path}'`);
      }
      return encodeURIComponent(String(value));
    })
    .join('/');
}

/** A standard or custom method call turned into an HTTP request (spec: "REST mapping"). */
/** HTTP method of each standard service method (SEED.md "REST mapping"); any other name is a custom method. */
const VERBS: Readonly<Record<string, string>> = {
  find: 'GET',
  get: 'GET',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  remove: 'DELETE',
};

function restRequest(
  path: string,
  method: string,
  id: Id | null | undefined,
  data: unknown,
  params: ClientParams = {},
): ClientRequest {
  let location = fillPlaceholders(path, params.route);
  if (id !== null && id !== undefined) location += `/${encodeURIComponent(String(id))}`;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(params.headers ?? {})) headers[name.toLowerCase()] = value;
  const verb = VERBS[method];
  if (verb === undefined) headers['x-service-method'] = method;
  return {
    method: verb ?? 'POST',
    path: location,
    query: params.query,
    body: data,
    headers,
    signal: params.signal,
    timeout: params.timeout,
  };
}

/**
 * A plume client: `service(path)` calls a service over HTTP as the transports map it back, `events`
 * reads a Server-Sent Events endpoint, and `use` adds middleware around every call. Create it with
 * `createClient(baseUrl, options)`. `App` is `typeof app` or a service map, for typed services.
 */
export class Client<App = Record<string, unknown>> {
  /** The server's URL, e.g. `https://api.example.com` (services are below it). */
  readonly baseUrl: string;
  private readonly connection: Connection;
  private readonly middleware: ClientMiddleware[] = [];
  private readonly services = new Map<string, unknown>();

  constructor(baseUrl: string, options: ClientOptions = {}) {
    const fetchFunction = options.fetch ?? globalThis.fetch;
    if (typeof fetchFunction !== 'function') throw new TypeError('No global fetch: pass options.fetch');
    this.baseUrl = baseUrl;
    this.connection = {
      baseUrl,
      fetch: (input, init) => fetchFunction(input, init),
      timeout: options.timeout ?? DEFAULT_TIMEOUT,
      headers: options.headers ?? {},
      credentials: options.credentials,
    };
  }

  /** Adds middleware run around every later call (in the order added); returns the client. */
  use(middleware: ClientMiddleware): this {
    this.middleware.push(middleware);
    return this;
  }

  /**
   * The service at `path` (placeholders allowed: `users/:userId/messages`, filled from
   * `params.route`). Standard methods map to `GET`/`POST`/`PUT`/`PATCH`/`DELETE`; any other method
   * name is a custom method: `POST /<path>` with `X-Service-Method: <name>`. Calls reject with the
   * plume error class of the answer (`NotFound`, `BadRequest`, …), `Timeout` or `Unavailable`.
   */
  service<Path extends keyof ServicesOf<App> & string>(path: Path): ServiceClient<ServicesOf<App>[Path]> {
    const location = path.replace(/^\/+|\/+$/g, '');
    let service = this.services.get(location);
    if (service === undefined) {
      service = this.createService(location);
      this.services.set(location, service);
    }
    return service as ServiceClient<ServicesOf<App>[Path]>;
  }

  /**
   * Runs `request` through the middleware and sends it: resolves to the JSON answer (`null` when
   * empty) or an `EventStream` for a `text/event-stream` answer; rejects with a plume error.
   */
  async request(request: ClientRequest): Promise<unknown> {
    const run = async (index: number): Promise<unknown> => {
      const middleware = this.middleware[index];
      if (middleware === undefined) return this.send(request);
      return middleware(request, () => run(index + 1));
    };
    return run(0);
  }

  /**
   * The events of the Server-Sent Events endpoint at `path` (`GET`, `Accept: text/event-stream`):
   * `for await (const message of await client.events('messages/stream'))`. Reconnects with
   * `Last-Event-ID` when the server sends event ids (see `EventStreamParams`). Rejects with
   * `NotAcceptable` when the answer is not an event stream.
   */
  async events<T = unknown>(path: string, params: EventStreamParams = {}): Promise<EventStream<T>> {
    const { reconnect = true, retryDelay = DEFAULT_RETRY_DELAY, ...rest } = params;
    const request = restRequest(path.replace(/^\/+|\/+$/g, ''), 'find', null, undefined, {
      ...rest,
      headers: { accept: 'text/event-stream', ...rest.headers },
    });
    request.events = { reconnect, retryDelay };
    const answer = await this.request(request);
    if (!isStream(answer)) throw new NotAcceptable(`'${path}' did not answer an event stream`);
    return answer as EventStream<T>;
  }

  private async send(request: ClientRequest): Promise<unknown> {
    const { reconnect: reconnects = true, retryDelay = DEFAULT_RETRY_DELAY } = request.events ?? {};
    const attempt = await send(this.connection, request);
    if (!isEventStream(attempt.response)) {
      try {
        return await readBody(attempt.response);
      } catch (error: unknown) {
        throw attempt.failure(error);
      } finally {
        attempt.finish();
      }
    }
    attempt.clearTimeout();
    const reconnect = async (lastEventId: string): Promise<Attempt> => {
      const next = await send(this.connection, {
        ...request,
        headers: { ...request.headers, 'last-event-id': lastEventId },
      });
      next.clearTimeout();
      return next;
    };
    return eventStream(attempt, reconnects ? reconnect : undefined, retryDelay);
  }

  private createService(path: string): object {
    const call = async (method: string, id: Id | null | undefined, data: unknown, params?: ClientParams) =>
      this.request(restRequest(path, method, id, data, params));
    const standard: Record<string, unknown> = {
      path,
      find: (params?: ClientParams) => call('find', undefined, undefined, params),
      get: (id: Id, params?: ClientParams) => call('get', id, undefined, params),
      create: (data: unknown, params?: ClientParams) => call('create', undefined, data, params),
      update: (id: Id | null, data: unknown, params?: ClientParams) => call('update', id, data, params),
      patch: (id: Id | null, data: unknown, params?: ClientParams) => call('patch', id, data, params),
      remove: (id: Id | null, params?: ClientParams) => call('remove', id, undefined, params),
    };
    return new Proxy(standard, {
      get(target, name) {
        if (typeof name !== 'string' || name in target || name === 'then' || name === 'toJSON') {
          return target[name as string];
        }
        // Any other name is a custom method.
        return (data: unknown, params?: ClientParams) => call(name, undefined, data, params);
      },
    });
  }
}

function isStream(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as EventStream).close === 'function';
}

/**
 * Creates a client for the plume server at `baseUrl` (spec: "REST mapping"). Runs wherever a
 * `fetch` exists (browsers, Deno, Bun, Node ≥ 20); `options.fetch` injects another. Type it with
 * the server's app (`createClient<typeof app>(url)`) or a service map to get typed services.
 */
export function createClient<App = Record<string, unknown>>(
  baseUrl: string,
  options?: ClientOptions,
): Client<App> {
  return new Client<App>(baseUrl, options);
}
