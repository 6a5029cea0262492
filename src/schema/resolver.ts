import type { HookContext } from '../core/index.js';
import { BadRequest, isPlumeError } from '../errors/index.js';

/**
 * Resolves one property: gets the current value (`undefined` when absent), the whole record and the
 * hook context, and returns the new value; `undefined` removes the property.
 */
export type PropertyResolver<T = Record<string, unknown>, C = HookContext> = (
  value: unknown,
  data: T,
  context: C,
) => unknown;

/** Property resolvers by property name. */
export type PropertyResolvers<T = Record<string, unknown>, C = HookContext> = Record<
  string,
  PropertyResolver<T, C>
>;

/** Marks resolvers made by `virtual`. */
const VIRTUAL = Symbol.for('plume/schema/virtual');

/**
 * A property resolver for a computed property: `fn(data, context)` gives the value; whatever the record
 * held under that name is ignored (e.g. `virtual(async (user, ctx) => ctx.app.service('x').get(...))`).
 */
export function virtual<T = Record<string, unknown>, C = HookContext>(
  fn: (data: T, context: C) => unknown,
): PropertyResolver<T, C> {
  const resolver: PropertyResolver<T, C> = (_value, data, context) => fn(data, context);
  Object.defineProperty(resolver, VIRTUAL, { value: true });
  return resolver;
}

/** True for resolvers made by `virtual`. */
export function isVirtual(resolver: unknown): boolean {
  return typeof resolver === 'function' && (resolver as { [VIRTUAL]?: unknown })[VIRTUAL] === true;
}

/** A set of property resolvers applied to one record at a time (see `resolve`). */
export interface Resolver<T = Record<string, unknown>, C = HookContext> {
  readonly properties: PropertyResolvers<T, C>;
  /**
   * Runs every property resolver (concurrently) on `data` and resolves to a new object: `data`'s
   * properties with the resolved ones set, and removed where a resolver returned `undefined`. `data`
   * itself is not changed; a non-object (`null`, a primitive, an array) is returned as it is.
   * @throws BadRequest (400) `Error resolving data`, `errors` = `{ <property>: message }`, when
   * resolvers throw plume errors; other errors are rethrown as they are (they are our bugs → 500).
   */
  resolve(data: T, context: C): Promise<T>;
}

/** Options of `resolve`. */
export interface ResolverOptions<T, C> {
  properties: PropertyResolvers<T, C>;
}

function isOptions<T, C>(
  value: ResolverOptions<T, C> | PropertyResolvers<T, C>,
): value is ResolverOptions<T, C> {
  const properties = (value as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null;
}

/**
 * Builds a `Resolver` from property resolvers, given as `resolve({ properties })` or
 * `resolve(properties)` (REFERENCE-feathers §2.6). Use it with `resolveData`, `resolveResult`
 * and `resolveExternal`, or call `resolver.resolve(data, context)` directly.
 * @throws BadRequest when a property resolver is not a function.
 */
export function resolve<T = Record<string, unknown>, C = HookContext>(
  options: ResolverOptions<T, C> | PropertyResolvers<T, C>,
): Resolver<T, C> {
  const properties = isOptions(options) ? options.properties : options;
  for (const [name, fn] of Object.entries(properties)) {
    if (typeof fn !== 'function')
      throw new BadRequest(`The resolver for property '${name}' is not a function`);
  }
  const entries = Object.entries(properties);
  return {
    properties,
    async resolve(data, context) {
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
      const record = data as Record<string, unknown>;
      const output: Record<string, unknown> = { ...record };
      const errors: Record<string, unknown> = {};
      let failed = false;
      await Promise.all(
        entries.map(async ([name, fn]) => {
          try {
            const value = await fn(Object.hasOwn(record, name) ? record[name] : undefined, data, context);
            if (value === undefined) delete output[name];
            else output[name] = value;
          } catch (error: unknown) {
            if (!isPlumeError(error)) throw error;
            failed = true;
            errors[name] = error.toJSON();
          }
        }),
      );
      if (failed) throw new BadRequest('Error resolving data', { errors });
      return output as T;
    },
  };
}
