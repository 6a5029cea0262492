/** Registering a service: its options checked and completed, and the wrapper whose methods run hooks. */
import { EventEmitter } from 'node:events';
import { BadRequest } from '../errors/index.js';
import type { Application } from './application.js';
import {
  defaultServiceMethods,
  type AroundHook,
  type AroundHookMap,
  type HookMap,
  type Service,
  type ServiceAddons,
  type ServiceOptions,
} from './declarations.js';
import { HookStore } from './hooks.js';
import { isMethodName } from './method-names.js';
import { invokeService } from './service-call.js';
import { META, type ServiceMeta } from './service-meta.js';

function hasMethod(service: object, name: string): boolean {
  return typeof (service as Record<string, unknown>)[name] === 'function';
}

/** Checks `options.methods` and fills in defaults. Throws `BadRequest` for an unusable service or method. */
export function normalizeOptions(
  path: string,
  service: Service,
  options: ServiceOptions = {},
): ServiceMeta['options'] {
  const methods = options.methods ?? defaultServiceMethods.filter((m) => hasMethod(service, m));
  for (const method of methods) {
    if (!isMethodName(method)) {
      throw new BadRequest(`'${method}' on service '${path}' is not allowed as a method name`);
    }
    if (!hasMethod(service, method)) {
      throw new BadRequest(
        `Method '${method}' is listed for service '${path}' but the service does not implement it`,
      );
    }
  }
  // `methods: []` is an internal-only service: its standard methods still count.
  const usable =
    methods.length > 0 ||
    defaultServiceMethods.some((m) => hasMethod(service, m)) ||
    hasMethod(service, 'setup') ||
    hasMethod(service, 'teardown');
  if (!usable) throw new BadRequest(`Invalid service object passed for path '${path}'`);
  // Like FeathersJS, a service may name its custom events itself (adapters take an `events` option).
  const ownEvents = (service as { events?: unknown }).events;
  const events = options.events ?? (Array.isArray(ownEvents) ? (ownEvents as string[]) : []);
  return { ...options, methods, events };
}

/**
 * Wraps a service object for registration: the result inherits from the original, so its own
 * members stay reachable; the listed methods run through hooks; it gains `hooks()` and events.
 */
export function wrapService(
  app: Application,
  path: string,
  service: Service,
  options: ServiceOptions,
): Service & ServiceAddons {
  const normalized = normalizeOptions(path, service, options);
  const wrapped = Object.create(service) as Service & ServiceAddons & Record<string | symbol, unknown>;
  const meta: ServiceMeta = {
    path,
    original: service,
    options: normalized,
    hooks: new HookStore(),
    chains: new Map(),
  };
  Object.defineProperty(wrapped, META, { value: meta });

  if (!(hasMethod(service, 'emit') && hasMethod(service, 'on'))) {
    const emitter = new EventEmitter();
    for (const name of [
      'on',
      'once',
      'off',
      'emit',
      'addListener',
      'removeListener',
      'removeAllListeners',
      'listeners',
      'listenerCount',
    ]) {
      const fn = (emitter as unknown as Record<string, (...args: unknown[]) => unknown>)[name] as (
        ...args: unknown[]
      ) => unknown;
      Object.defineProperty(wrapped, name, { value: fn.bind(emitter), writable: true });
    }
  }
  const hookable = new Set([
    ...normalized.methods,
    ...defaultServiceMethods.filter((m) => hasMethod(service, m)),
  ]);
  Object.defineProperty(wrapped, 'hooks', {
    value(map: HookMap | AroundHook[] | AroundHookMap) {
      meta.hooks.add(map, (name) => hookable.has(name));
      return wrapped;
    },
    writable: true,
  });

  for (const method of hookable) {
    const hooked = async (...args: unknown[]) => (await invokeService(app, wrapped, method, args)).result;
    copyOwnProperties(hooked, (service as Record<string, unknown>)[method] as object);
    Object.defineProperty(wrapped, method, { value: hooked, writable: true, configurable: true });
  }
  return wrapped;
}

/**
 * Gives a hooked method the own properties of the method it wraps (`name`, `length`, and anything
 * set on the function, symbols included), as FeathersJS does, so code that tags methods keeps working.
 */
function copyOwnProperties(target: object, source: object): void {
  for (const key of Reflect.ownKeys(source)) {
    if (key === 'prototype' || key === 'arguments' || key === 'caller') continue;
    const descriptor = Object.getOwnPropertyDescriptor(source, key);
    if (descriptor !== undefined) Object.defineProperty(target, key, descriptor);
  }
}
