import { EventEmitter } from 'node:events';
import { BadRequest, NotFound } from '../errors/index.js';
import type {
  AroundHook,
  AroundHookMap,
  HookMap,
  LifecycleHookMap,
  Service,
  ServiceAddons,
  ServiceOptions,
  UntypedService,
} from './declarations.js';
import { HookStore } from './hooks.js';
import { LifecycleHooks } from './lifecycle-hooks.js';
import { Router, stripSlashes, type RouteMatch } from './router.js';
import { isMethodName } from './method-names.js';
import { getServiceMeta } from './service-meta.js';
import { wrapService } from './service.js';
import { watchListenErrors } from './listen-errors.js';
import { getLogger } from './logger.js';

/** A registered service: the user's object wrapped with hooks and events. */
export type RegisteredService<S = UntypedService> = S & ServiceAddons;

/** The result of `app.lookup(path)`: the service, `params.route` values and the id from the URL. */
export type ServiceLookup = RouteMatch<RegisteredService>;

/**
 * A plume application (spec: "What the service does"): a registry of services on paths, app-wide
 * hooks, settings, and setup/teardown. Create one with `createApp()`.
 *
 * `Services` maps paths to service types so that `app.service('users')` is typed. Its default,
 * `object`, is an untyped app, so a parameter typed `Application` accepts every app, including one
 * whose services are described by an interface (FeathersJS' generated `ServiceTypes`).
 */
export class Application<Services extends object = object> extends EventEmitter {
  /**
   * Registered services by path (without slashes). It has no prototype, so a path such as
   * `constructor` or `__proto__` is an ordinary key and never finds an `Object.prototype` member.
   */
  readonly services: Record<string, RegisteredService> = Object.create(null) as Record<
    string,
    RegisteredService
  >;
  /** Values stored with `app.set(name, value)`. */
  readonly settings: Record<string, unknown> = {};
  /** App-wide hooks, run around every service's own hooks. */
  readonly hookStore = new HookStore();
  /** App-level `setup` and `teardown` hooks. */
  private readonly lifecycleHooks = new LifecycleHooks();
  /** The HTTP server passed to `setup`, if any. */
  server: unknown;
  /** True once `setup()` has run (and until `teardown()`). */
  isSetup = false;
  /**
   * Type-only, never set (nothing exists at runtime): carries `Services` so that `plume/client` can
   * read it from `typeof app`. The method form keeps the type parameter bivariant.
   */
  declare readonly '~services'?: { types(services: Services): void };
  // Not `router`: plume/express merges the app onto an Express app, whose own `router` is Express' router.
  private readonly routes = new Router<RegisteredService>();

  /** Reads a setting. */
  get(name: string): unknown {
    return this.settings[name];
  }

  /** Stores a setting; returns the app for chaining. */
  set(name: string, value: unknown): this {
    this.settings[name] = value;
    return this;
  }

  /** Calls `fn(app)` (with `this` = app), e.g. `app.configure(rest())`. Returns the app. */
  configure(fn: (this: this, app: this) => void): this {
    fn.call(this, this);
    return this;
  }

  /**
   * Registers `service` at `path` (placeholders like `users/:userId/messages` allowed) and returns
   * the app. Throws `BadRequest` for a path that is not a string, a service that is not an object,
   * an invalid method list, or a taken path. `options.methods: []` registers an internal-only service
   * (callable in the app, no method reachable over HTTP). If the app is already set up, the
   * service's `setup(app, path)` runs now (not awaited; errors are emitted as `'error'`).
   */
  use<S extends Service>(path: string, service: S, options?: ServiceOptions): this {
    if (typeof path !== 'string') {
      throw new BadRequest(`'${String(path)}' is not a valid service path: expected a string`);
    }
    const location = stripSlashes(path);
    if (typeof service !== 'object' || service === null) {
      throw new BadRequest(`Invalid service object passed for path '${location}'`);
    }
    const wrapped = wrapService(this, location, service, options ?? {}) as RegisteredService;
    this.routes.insert(location, wrapped);
    this.services[location] = wrapped;
    if (this.isSetup && typeof service.setup === 'function') {
      Promise.resolve(service.setup.call(wrapped, this as Application, location)).catch((error: unknown) =>
        this.emit('error', error),
      );
    }
    return this;
  }

  /** Removes the service at `path`, calls its `teardown`, and resolves to the original service object. */
  async unuse(path: string): Promise<Service> {
    const location = stripSlashes(path);
    const wrapped = this.services[location];
    if (wrapped === undefined) throw new NotFound(`Can not find service '${location}'`);
    this.routes.remove(location);
    delete this.services[location];
    await runLifecycle(this, wrapped, 'teardown', location);
    return getServiceMeta(wrapped)?.original ?? wrapped;
  }

  /** The registered service at exactly `path`. Throws `NotFound` when there is none. */
  service<L extends keyof Services & string>(path: L): RegisteredService<Services[L]>;
  service(path: string): RegisteredService;
  service(path: string): RegisteredService {
    const location = typeof path === 'string' ? stripSlashes(path) : String(path);
    const wrapped = this.services[location];
    if (wrapped === undefined) throw new NotFound(`Can not find service '${location}'`);
    return wrapped;
  }

  /**
   * Matches a request path to a service: `users/42/messages/7` gives the `users/:userId/messages`
   * service, `route: { userId: '42' }` and `id: '7'`. Returns `null` when no service matches.
   * Throws `BadRequest` for malformed percent-encoding.
   */
  lookup(path: string): ServiceLookup | null {
    const match = this.routes.lookup(path);
    if (match === null) return null;
    const routeParams = getServiceMeta(match.value)?.options.routeParams;
    if (routeParams !== undefined) match.route = { ...routeParams, ...match.route };
    return match;
  }

  /**
   * Adds app-wide hooks, run around the hooks of every service (see `docs/hooks.md`): the
   * `{ around, before, after, error }` form, a list of around hooks, or a method map of around hooks.
   * `setup` and `teardown` keys hold around hooks of `app.setup()` and `app.teardown()` (context
   * `{ app, server }`). Throws `BadRequest` for a key that is none of these or a hook that is not a function.
   */
  hooks(map: LifecycleHookMap & HookMap): this;
  hooks(map: HookMap | AroundHook[] | AroundHookMap): this;
  hooks(map: HookMap | AroundHook[] | AroundHookMap | LifecycleHookMap): this {
    const methodHooks =
      typeof map === 'object' && map !== null && !Array.isArray(map)
        ? this.lifecycleHooks.take(map as Record<string, unknown>)
        : map;
    this.hookStore.add(methodHooks, isMethodName);
    return this;
  }

  /**
   * Runs `setup(app, path)` of every service in registration order and marks the app set up, inside
   * the app's `setup` hooks. A `server` without an `'error'` listener gets one (see
   * `watchListenErrors`): a `listen()` that fails (port in use) is then one log line and exit code 1,
   * not an unhandled 'error' event.
   */
  async setup(server?: unknown): Promise<this> {
    await this.lifecycleHooks.run('setup', { app: this, server }, async (chosen) => {
      if (chosen !== undefined) this.server = chosen;
      watchListenErrors(chosen, () => getLogger(this));
      for (const [path, wrapped] of Object.entries(this.services)) {
        await runLifecycle(this, wrapped, 'setup', path);
      }
      this.isSetup = true;
    });
    return this;
  }

  /** Runs `teardown(app, path)` of every service in reverse registration order, inside the app's `teardown` hooks. */
  async teardown(server?: unknown): Promise<this> {
    await this.lifecycleHooks.run('teardown', { app: this, server }, async (chosen) => {
      if (chosen !== undefined) this.server = chosen;
      for (const [path, wrapped] of Object.entries(this.services).reverse()) {
        await runLifecycle(this, wrapped, 'teardown', path);
      }
      this.isSetup = false;
    });
    return this;
  }
}

/** Calls a service's own `setup` or `teardown`, if it has one, with `this` = the registered service. */
async function runLifecycle(
  app: Application,
  wrapped: RegisteredService,
  name: 'setup' | 'teardown',
  path: string,
): Promise<void> {
  const fn: unknown = (wrapped as Record<string, unknown>)[name];
  if (typeof fn === 'function')
    await (fn as (app: Application, path: string) => unknown).call(wrapped, app, path);
}

/** Creates a plume application. Spec: "What the service does". */
export function createApp<Services extends object = Record<string, UntypedService>>(): Application<Services> {
  return new Application<Services>();
}
