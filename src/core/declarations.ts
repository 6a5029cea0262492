import type { Application } from './application.js';

/** A record id as it arrives from a URL or a call. Adapters may accept wider types (e.g. `ObjectId`). */
export type Id = string | number;
/** An id, or `null` for "every record the query matches" (multi `patch`/`remove`). */
export type NullableId = Id | null;

/** A service query: `params.query`, the only params a client may send. */
export type Query = Record<string, unknown>;

/** Headers as a plain object with lower-case names. */
export type HeadersObject = Record<string, string>;

/**
 * Parameters of a service call (spec: "Request params (HTTP transports)").
 * `provider` is `'rest'` for calls that came over HTTP and absent for internal calls.
 * Other keys (e.g. `user`, `authentication`, `paginate`) are set by hooks and middleware, never by clients.
 */
export interface Params<Q = Query> {
  query?: Q;
  provider?: string;
  route?: Record<string, string>;
  headers?: HeadersObject;
  [key: string]: unknown;
}

/** The paginated result of `find` when pagination is on (spec: "REST mapping"). */
export interface Paginated<T> {
  /** Number of records the query matches (before `$skip`/`$limit`). */
  total: number;
  /** The page size used. */
  limit: number;
  /** Number of records skipped. */
  skip: number;
  data: T[];
}

/**
 * The standard service methods (spec: "What the service does"). Every method is optional: a service
 * implements the ones it supports, and HTTP calls to a missing one answer 405.
 */
export interface ServiceMethods<
  Result = unknown,
  Data = unknown,
  P extends Params = Params,
  PatchData = Data,
> {
  /** Usually `Result[]` or `Paginated<Result>`; may also be an async iterable (sent as Server-Sent Events). */
  find?(params?: P): Promise<unknown>;
  get?(id: Id, params?: P): Promise<Result>;
  create?(data: Data | Data[], params?: P): Promise<Result | Result[]>;
  update?(id: NullableId, data: Data, params?: P): Promise<Result | Result[]>;
  patch?(id: NullableId, data: PatchData, params?: P): Promise<Result | Result[]>;
  remove?(id: NullableId, params?: P): Promise<Result | Result[]>;
  /** Called by `app.setup()` (or by `app.use` after setup) with the app and the service path. */
  setup?(app: Application, path: string): Promise<void> | void;
  /** Called by `app.teardown()` and `app.unuse()`. */
  teardown?(app: Application, path: string): Promise<void> | void;
}

/** Any service object: standard methods plus custom methods `(data, params) => Promise<unknown>`. */
export type Service = ServiceMethods & object;

/**
 * How `app.service(path)` types a service when the app has no typed service map: every standard
 * method present (calling a missing one rejects), results `unknown` until the caller narrows them.
 */
export interface UntypedService extends Required<Pick<ServiceMethods, StandardMethod>> {
  [custom: string]: unknown;
}

/** Names of the standard service methods, in REST-mapping order. */
export const defaultServiceMethods = ['find', 'get', 'create', 'update', 'patch', 'remove'] as const;
/** A standard service method name. */
export type StandardMethod = (typeof defaultServiceMethods)[number];

/** The event each standard method emits after it succeeds (spec: core events). */
export const defaultEventMap: Readonly<Record<string, string>> = {
  create: 'created',
  update: 'updated',
  patch: 'patched',
  remove: 'removed',
};

/** Options given as the third argument of `app.use(path, service, options)`. */
export interface ServiceOptions {
  /** Methods reachable from outside (HTTP). Default: the standard methods the service implements. Custom methods must be listed here. */
  methods?: string[];
  /** Custom event names the service emits itself (default: the service's own `events` array, if any). Standard events listed here are not emitted automatically. */
  events?: string[];
  /** Values merged into `params.route` for every call. */
  routeParams?: Record<string, string>;
  /** Transport-specific options (e.g. Express middleware) live under their own keys. */
  [key: string]: unknown;
}

/** HTTP details a hook may set for the transports: status code, extra headers, `Location`. */
export interface HttpOptions {
  status?: number;
  headers?: Record<string, string | string[]>;
  location?: string;
}

/**
 * The context every hook receives (spec: hooks; REFERENCE-feathers §2.2).
 * `type` is `'before' | 'after' | 'error'` while a regular hook runs and `'around'` otherwise.
 */
export interface HookContext<S = Service> {
  readonly app: Application;
  readonly service: S;
  readonly path: string;
  readonly method: string;
  type: 'around' | 'before' | 'after' | 'error';
  params: Params;
  id?: NullableId;
  data?: unknown;
  /**
   * Setting it in a before hook, or in an around hook before `next()`, skips the method; in an error
   * hook it recovers from the error.
   */
  result?: unknown;
  /** What is sent to external clients instead of `result` when set (e.g. without password hashes). */
  dispatch?: unknown;
  error?: unknown;
  /** The context as it was when the error happened (error hooks only). */
  original?: HookContext<S>;
  /** The event to emit after success; set to `null` to suppress it. */
  event: string | null;
  http: HttpOptions;
  /** The arguments the method is called with, in its own order. */
  arguments: unknown[];
}

/** The primitive hook: `async (context, next) => { …; await next(); … }`. */
export type AroundHook<S = Service> = (context: HookContext<S>, next: () => Promise<void>) => Promise<void>;
/** A before, after or error hook. It may return nothing, or a partial context to merge. */
export type RegularHook<S = Service> = (
  context: HookContext<S>,
) => void | Partial<HookContext<S>> | Promise<void | Partial<HookContext<S>>>;

/** Hooks for `all` methods or per method name. */
export type HookMethodMap<H> = { all?: H | H[] } & { [method: string]: H | H[] | undefined };

/**
 * FeathersJS' shorthand for around hooks per method: `{ all: [hookB], get: [hookA] }` (values a hook
 * or a list). The four hook type names are not allowed as keys, so a `{ before, … }` map stays a `HookMap`.
 */
export type AroundHookMap<S = Service> = {
  around?: never;
  before?: never;
  after?: never;
  error?: never;
} & HookMethodMap<AroundHook<S>>;

/** The argument of `service.hooks()` and `app.hooks()`. */
export interface HookMap<S = Service> {
  around?: AroundHook<S>[] | HookMethodMap<AroundHook<S>>;
  before?: RegularHook<S> | RegularHook<S>[] | HookMethodMap<RegularHook<S>>;
  after?: RegularHook<S> | RegularHook<S>[] | HookMethodMap<RegularHook<S>>;
  error?: RegularHook<S> | RegularHook<S>[] | HookMethodMap<RegularHook<S>>;
}

/**
 * What `app.use` adds to every registered service: hooks and events (`on`, `emit`, …). `hooks()`
 * takes `{ around, before, after, error }`, a list of around hooks for all methods, or a method map
 * of around hooks (`{ all: [...], get: [...] }`); hooks run with `this` = the service.
 */
export interface ServiceAddons {
  hooks(map: HookMap | AroundHook[] | AroundHookMap): this;
  on(event: string, listener: (...args: unknown[]) => void): this;
  once(event: string, listener: (...args: unknown[]) => void): this;
  off(event: string, listener: (...args: unknown[]) => void): this;
  emit(event: string, ...args: unknown[]): boolean;
}

/**
 * The context of an app-level `setup` or `teardown` hook: the app and the server passed to
 * `app.setup(server)` / `app.teardown(server)` (`undefined` when none was). A hook may replace
 * `server` before `next()`; the services' own `setup`/`teardown` then run with it.
 */
export interface LifecycleContext {
  readonly app: Application;
  server: unknown;
}

/** An app-level `setup` or `teardown` hook: an around hook, `async (context, next) => { …; await next(); … }`. */
export type LifecycleHook = (context: LifecycleContext, next: () => Promise<void>) => Promise<void>;

/**
 * FeathersJS' app-level lifecycle hooks, `app.hooks({ setup: [...], teardown: [...] })`: around hooks
 * that run around `app.setup()` (every service's `setup`) and `app.teardown()`, with `this` = the app.
 */
export interface LifecycleHookMap {
  setup?: LifecycleHook | LifecycleHook[];
  teardown?: LifecycleHook | LifecycleHook[];
}
