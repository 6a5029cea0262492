import type { HookContext, Query } from '../core/index.js';
import { hasData, type SchemaHook } from './hook-function.js';
import { setDispatch, withExternalValues } from './dispatch.js';
import type { Resolver } from './resolver.js';
import { isValidated, markValidated } from './validation-hooks.js';

/** Any `Resolver` for hook contexts, whatever its record type. */
export type AnyResolver = Pick<Resolver<never, HookContext>, 'properties'> & {
  resolve(data: never, context: HookContext): Promise<unknown>;
};

/** Resolves one record or, for arrays, each item (in parallel). */
async function resolveRecords(resolver: AnyResolver, value: unknown, context: HookContext): Promise<unknown> {
  const target = resolver as unknown as { resolve(data: unknown, context: HookContext): Promise<unknown> };
  if (Array.isArray(value)) return Promise.all(value.map((item) => target.resolve(item, context)));
  return target.resolve(value, context);
}

/** A page from a paginated `find`: `{ total, limit, skip, data: [] }`. */
function isPage(value: unknown): value is { data: unknown[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { data?: unknown }).data) &&
    typeof (value as { total?: unknown }).total === 'number'
  );
}

/** Resolves a method result: a page (`find` only) item by item keeping its shape, an array per item, or one record. */
async function resolveResultValue(
  resolver: AnyResolver,
  value: unknown,
  context: HookContext,
): Promise<unknown> {
  if (context.method === 'find' && isPage(value)) {
    return { ...value, data: await resolveRecords(resolver, value.data, context) };
  }
  return resolveRecords(resolver, value, context);
}

/** One resolver for every method with data, or resolvers per method name. */
export type DataResolvers = AnyResolver | Partial<Record<string, AnyResolver>>;

function isResolver(value: unknown): value is AnyResolver {
  return typeof (value as { resolve?: unknown }).resolve === 'function';
}

/**
 * A hook that replaces `context.data` with the resolved data (e.g. adds `createdAt`, hashes a
 * password). Takes one resolver (used for `create`, `update`, `patch` and custom methods) or
 * `{ create, update, patch, ... }`. Arrays are resolved item by item. Runs before the method,
 * as an around or before hook. Errors: see `Resolver.resolve`.
 */
export function resolveData(resolvers: DataResolvers): SchemaHook {
  return async (context, next) => {
    const resolver = isResolver(resolvers)
      ? hasData(context.method)
        ? resolvers
        : undefined
      : resolvers[context.method];
    if (resolver !== undefined) context.data = await resolveRecords(resolver, context.data, context);
    if (next) await next();
  };
}

/**
 * A hook that replaces `context.params.query` (an absent query counts as `{}`) with the query resolved
 * by `resolver`, before the method: e.g. limit a user to their own records by setting `userId` from
 * `params.user`. A query `validateQuery` marked as validated stays marked, so run it after
 * `validateQuery`: what the resolvers add is server code's, not the client's. As an around or before
 * hook, for every method. Errors: see `Resolver.resolve`.
 */
export function resolveQuery(resolver: AnyResolver): SchemaHook {
  return async (context, next) => {
    const source = context.params.query ?? {};
    const query = (await resolveRecords(resolver, source, context)) as Query;
    if (isValidated(source)) markValidated(query);
    context.params = { ...context.params, query };
    if (next) await next();
  };
}

/** Runs `next` (around use) and then `work`; as an after hook, `work` runs at once. */
function afterMethod(work: (context: HookContext) => Promise<void>): SchemaHook {
  return async (context, next) => {
    if (next) await next();
    await work(context);
  };
}

/**
 * A hook that replaces `context.result` with the resolved result, after the method ran: one record,
 * each item of an array, or each item of a paginated `find` page (`{ total, limit, skip, data }`).
 * Use it as an around hook or an after hook. Errors: see `Resolver.resolve`.
 */
export function resolveResult(resolver: AnyResolver): SchemaHook {
  return afterMethod(async (context) => {
    context.result = await resolveResultValue(resolver, context.result, context);
  });
}

/**
 * A hook that sets `context.dispatch`, what the transports send to external clients, to the resolved
 * result (e.g. without password hashes), leaving `context.result` (what internal calls get) untouched.
 * It starts from an existing `dispatch` when another hook set one. Shapes as `resolveResult`.
 * The result remembers its dispatch, and property values that remember one (a record another
 * service's `resolveExternal` saw, e.g. the `user` of a message) are sent in that external form,
 * as in FeathersJS 5. Use it as an around hook (the outermost, so it sees the final result) or an
 * after hook.
 */
export function resolveExternal(resolver: AnyResolver): SchemaHook {
  const external = {
    properties: resolver.properties,
    resolve: async (data: never, context: HookContext) =>
      withExternalValues(await resolver.resolve(data, context)),
  };
  return afterMethod(async (context) => {
    const source = context.dispatch !== undefined ? context.dispatch : context.result;
    context.dispatch = await resolveResultValue(external, source, context);
    setDispatch(context.result, context.dispatch);
  });
}
