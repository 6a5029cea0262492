/**
 * Calling a registered service: the hook context of a call, its hook chain (composed once per method
 * and hook version), the original method, and the events of its result (spec: "Hooks", "Events").
 */
import { BadRequest } from '../errors/index.js';
import type { Application } from './application.js';
import { compose } from './compose.js';
import {
  defaultEventMap,
  type HookContext,
  type Params,
  type Service,
  type ServiceAddons,
} from './declarations.js';
import { argumentsOf, argumentValues } from './method-names.js';
import { getServiceMeta, type HookChain, type ServiceMeta } from './service-meta.js';

/** Builds the hook context for a call from the method's positional arguments. */
function createContext(
  app: Application,
  service: Service,
  meta: ServiceMeta,
  method: string,
  args: unknown[],
  http: HookContext['http'] = {},
): HookContext {
  const names = argumentsOf(method);
  let id: HookContext['id'];
  let data: unknown;
  let params: Params | undefined;
  // A plain loop: this runs for every service call, and a callback would be one more allocation.
  for (let index = 0; index < names.length; index++) {
    const name = names[index];
    const value = args[index];
    if (name === 'params') params = value as Params | undefined;
    else if (name === 'id') id = value as HookContext['id'];
    else data = value;
  }
  // Every field a call sets is in the literal (undefined until set), so the object never grows.
  const context: HookContext = {
    app,
    service,
    path: meta.path,
    method,
    type: 'around',
    params: params ?? {},
    id,
    data,
    result: undefined,
    event: defaultEventMap[method] ?? null,
    http,
    arguments: args,
  };
  return context;
}

/**
 * Calls the original method with the context's (possibly hook-changed) `id`, `data` and `params`, and
 * returns what it returns (a promise, or a value for a method that is not async). `args` are the
 * arguments to call it with when the caller knows they still match the context.
 */
function startOriginal(
  meta: ServiceMeta,
  wrapped: Service,
  context: HookContext,
  args: unknown[] = argumentValues(context.method, context),
): unknown {
  const fn = (meta.original as Record<string, unknown>)[context.method];
  if (typeof fn !== 'function') throw new BadRequest(`Method '${context.method}' is not implemented`);
  context.arguments = args;
  const method = fn as (...a: unknown[]) => unknown;
  // `call` with the arguments spelled out: V8 compiles it to a direct call, `apply` to a generic one.
  switch (args.length) {
    case 1:
      return method.call(wrapped, args[0]);
    case 2:
      return method.call(wrapped, args[0], args[1]);
    case 3:
      return method.call(wrapped, args[0], args[1], args[2]);
    default:
      return method.apply(wrapped, args);
  }
}

/**
 * The last step of a hook chain: calls the original method, unless a hook already set
 * `context.result` (an around hook that sets it before `next()` skips the method, as FeathersJS does).
 */
async function callOriginal(meta: ServiceMeta, wrapped: Service, context: HookContext): Promise<void> {
  if (context.result === undefined) context.result = await startOriginal(meta, wrapped, context);
}

/**
 * Emits the context's event once per item of the result. A service registered from another app
 * (`app2.use('x', app1.service('y'))`) shares that service's emitter, which already emitted the event.
 */
function emitEvents(wrapped: Service & ServiceAddons, meta: ServiceMeta, context: HookContext): void {
  const event = context.event;
  if (typeof event !== 'string' || meta.options.events.includes(event)) return;
  if (getServiceMeta(meta.original) !== undefined) return;
  const items = Array.isArray(context.result) ? context.result : [context.result];
  for (const item of items) wrapped.emit(event, item, context);
}

/**
 * Runs `method` of a registered service through app and service hooks and resolves to the final hook
 * context (transports use it to read `result`, `dispatch` and `http`). `init` adds fields to the new
 * context before any hook runs. Rejects with whatever the chain throws.
 *
 * Order: app around → app before → service around → service before → method → service after →
 * app after; see `docs/hooks.md`. Every hook is called with `this` = `service`.
 */
export function invokeService(
  app: Application,
  service: Service,
  method: string,
  args: unknown[],
  init?: Partial<Pick<HookContext, 'http' | 'params'>>,
): Promise<HookContext> {
  return new Promise((resolve, reject) => {
    invokeServiceCallback(app, service, method, args, resolve, reject, init);
  });
}

/**
 * `invokeService` in the callback form, for transports, which turn the final context into a
 * response: `done(context)` gets the final hook context, `failed(error)` what the chain threw (or what
 * `done` threw). Exactly one of them is called once, perhaps before this returns (for an error thrown
 * before any hook ran), with `this` = `thisArg` (as `Array.prototype.forEach` calls its callback):
 * a transport can pass methods shared by all requests and the request's own object, instead of
 * closures made for each request. One promise reaction per call, and no promise handed back to wait
 * on. `failed` must not throw: there is no one left to tell.
 */
export function invokeServiceCallback<T = undefined>(
  app: Application,
  service: Service,
  method: string,
  args: unknown[],
  done: (this: T, context: HookContext) => void,
  failed: (this: T, error: unknown) => void,
  init?: Partial<Pick<HookContext, 'http' | 'params'>>,
  thisArg?: T,
): void {
  let context: HookContext;
  let meta: ServiceMeta;
  let started: unknown;
  try {
    const found = getServiceMeta(service);
    if (found === undefined) throw new BadRequest('Not a registered service');
    meta = found;
    context = createContext(app, service, meta, method, args, init?.http || undefined);
    const { run } = getChain(app, service, meta, method);
    if (run !== null) {
      run(context).then(
        () => finishCall(service, meta, context, done, failed, thisArg as T),
        (error: unknown) => failed.call(thisArg as T, error),
      );
      return;
    }
    // Without hooks the method is called from here. Nothing can have changed the context yet, so
    // the caller's arguments are passed on as they are when they are complete (params included).
    const complete = args.length === argumentsOf(method).length && args[args.length - 1] === context.params;
    started = startOriginal(meta, service, context, complete ? args : undefined);
  } catch (error: unknown) {
    failed.call(thisArg as T, error);
    return;
  }
  Promise.resolve(started).then(
    (result) => {
      context.result = result;
      finishCall(service, meta, context, done, failed, thisArg as T);
    },
    (error: unknown) => failed.call(thisArg as T, error),
  );
}

/** The end of every call, hooked or not: its events, then the caller's `done`; what they throw goes to `failed`. */
function finishCall<T>(
  service: Service,
  meta: ServiceMeta,
  context: HookContext,
  done: (this: T, context: HookContext) => void,
  failed: (this: T, error: unknown) => void,
  thisArg: T,
): void {
  try {
    emitEvents(service as Service & ServiceAddons, meta, context);
    done.call(thisArg, context);
  } catch (error: unknown) {
    failed.call(thisArg, error);
  }
}

/** The hook chain of `method`, composed on first use and again after hooks were added. */
function getChain(app: Application, service: Service, meta: ServiceMeta, method: string): HookChain {
  const appVersion = app.hookStore.version;
  const serviceVersion = meta.hooks.version;
  const cached = meta.chains.get(method);
  if (cached !== undefined && cached.appVersion === appVersion && cached.serviceVersion === serviceVersion)
    return cached;
  const hooks = [...app.hookStore.forMethod(method), ...meta.hooks.forMethod(method)];
  const run = compose<HookContext>(hooks);
  // Made once per chain, not per call: compose hands the context to the last step.
  const last = (ctx: HookContext): Promise<void> => callOriginal(meta, service, ctx);
  // Hooks run with `this` = the service, as in FeathersJS.
  const chain: HookChain = {
    appVersion,
    serviceVersion,
    run: hooks.length === 0 ? null : (ctx) => run.call(service, ctx, last),
  };
  meta.chains.set(method, chain);
  return chain;
}
