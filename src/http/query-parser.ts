import qs from 'qs';
import type { Middleware, Query } from '../core/index.js';
import type { HandlerContext } from './create-handler.js';
import { getSearch } from './handler-context.js';

/** A query-string parser: the text after `?` (without it) → `params.query`. */
export type QueryParseFunction = (queryString: string) => Query;

/** Keys that could reach an object's prototype if a service merged the query unsafely. */
const unsafeKeys = new Set(['__proto__', 'constructor', 'prototype']);

/** True for `__proto__`, `constructor` and `prototype`: keys plume never copies from client input. */
export function isUnsafeKey(key: string): boolean {
  return unsafeKeys.has(key);
}

const options: qs.IParseOptions = {
  depth: 5,
  arrayLimit: 100,
  parameterLimit: 1000,
  allowPrototypes: false,
};

/** Removes unsafe keys at every depth, in place (qs already skips most; this is the guarantee). */
function stripUnsafeKeys(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) {
    if (unsafeKeys.has(key)) delete (value as Record<string, unknown>)[key];
    else stripUnsafeKeys((value as Record<string, unknown>)[key]);
  }
}

/**
 * The default query parser: nested brackets with `qs` (`a[b]=1&c[]=2` → `{ a: { b: '1' }, c: ['2'] }`),
 * values kept as strings, at most 5 levels deep, 100 array indices (larger indices make an object)
 * and 1000 parameters (the rest are ignored); `__proto__`, `constructor` and `prototype` keys are
 * dropped at every depth. Spec: "Request params (HTTP transports)".
 */
export function parseQueryString(queryString: string): Query {
  if (queryString === '') return {};
  const query: Query = qs.parse(queryString, options);
  stripUnsafeKeys(query);
  return query;
}

/**
 * Middleware that sets `context.params.query` from the URL query string (spec: "Web Standard handler
 * API", `queryParser`). `parse` replaces the default `parseQueryString`; it receives the text after
 * `?` (`''` when there is none) and returns the query object. Errors it throws reach `errorHandler`.
 */
export function queryParser(parse: QueryParseFunction = parseQueryString): Middleware<HandlerContext> {
  // Not an async function, which would add a promise and a turn to every request: an error `parse`
  // throws is thrown from here, and the chain turns it into a rejection as for any middleware.
  return (context, next) => {
    const search = getSearch(context);
    context.params.query = parse(search.length > 1 ? search.slice(1) : '');
    return next();
  };
}
