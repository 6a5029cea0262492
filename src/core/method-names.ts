/**
 * Service method names: which names a method may have, and the positional arguments of each method
 * (spec: "Services"; custom methods take `(data, params)`).
 */
import { EventEmitter } from 'node:events';

/** The name of a positional argument of a service method. */
export type ArgumentName = 'id' | 'data' | 'params';
const findArguments: readonly ArgumentName[] = ['params'];
const idArguments: readonly ArgumentName[] = ['id', 'params'];
const dataArguments: readonly ArgumentName[] = ['data', 'params'];
const idDataArguments: readonly ArgumentName[] = ['id', 'data', 'params'];

/** Names that can never be custom methods: they would shadow plume's own members or JavaScript's. */
const reservedNames = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  ...Object.getOwnPropertyNames(EventEmitter.prototype),
  'all',
  'around',
  'before',
  'after',
  'error',
  'hooks',
  'setup',
  'teardown',
  'publish',
  'then',
]);

/** True for a name a service method may have (app-level hooks accept any of them). */
export function isMethodName(name: string): boolean {
  return !reservedNames.has(name) && !name.startsWith('_') && /^[A-Za-z][\w]*$/.test(name);
}

/**
 * The argument names of `method`, e.g. `['id', 'data', 'params']` for `patch`; custom methods take
 * `(data, params)`. A switch rather than a lookup object: it runs several times per call, and it
 * cannot find `Object.prototype` members such as `constructor`.
 */
export function argumentsOf(method: string): readonly ArgumentName[] {
  switch (method) {
    case 'find':
      return findArguments;
    case 'get':
    case 'remove':
      return idArguments;
    case 'update':
    case 'patch':
      return idDataArguments;
    default:
      return dataArguments; // `create` and custom methods
  }
}

/**
 * The positional arguments of `method` taken from `values` by name, e.g. `[id, data, params]` for
 * `patch` (the order `argumentsOf` gives). Named reads rather than a loop over the names: it runs
 * for every call.
 */
export function argumentValues(
  method: string,
  values: { readonly id?: unknown; readonly data?: unknown; readonly params?: unknown },
): unknown[] {
  switch (argumentsOf(method)) {
    case findArguments:
      return [values.params];
    case idArguments:
      return [values.id, values.params];
    case idDataArguments:
      return [values.id, values.data, values.params];
    default:
      return [values.data, values.params];
  }
}
