import { createQueryStringParser, type Middleware, type Query } from '../core/index.js';
import type { HandlerContext } from './declarations.js';
import { getSearch } from './handler-context.js';

/** A query-string parser: the text after `?` (without it) → `params.query`. */
export type QueryParseFunction = (queryString: string) => Query;

/**
 * The default query parser, core's `createQueryStringParser` (the one Express' `queryParser()` uses
 * too) with the Web Standard handler's limits: nested brackets with `qs` (`a[b]=1&c[]=2` →
 * `{ a: { b: '1' }, c: ['2'] }`), values kept as strings, at most 5 levels deep, 100 array indices
 * (larger indices make an object) and 1000 parameters (the rest are ignored); `__proto__`,
 * `constructor` and `prototype` keys are dropped at every depth. Spec: "Request params (HTTP transports)".
 */
export const parseQueryString: QueryParseFunction = createQueryStringParser({ arrayLimit: 100 });

/**
 * Middleware that sets `context.params.query` from the URL query string (spec: "Web Standard handler
 * API", `queryParser`). `parse` replaces the default `parseQueryString`; it receives the text after
 * `?` (`''` when there is none) and returns the query object. Errors it throws reach `errorHandler`.
 */
export function queryParser(parse: QueryParseFunction = parseQueryString): Middleware<HandlerContext> {
  // Not an async function, which would add a promise and a turn to every request: an error `parse`
  // throws is thrown from here, and the chain turns it into a rejection as for any middleware.
  return (context, next) => {
    setQuery(context, parse);
    return next();
  };
}

/** Sets `context.params.query` to `parse` of the query string (the text after `?`, `''` when none). */
export function setQuery(context: HandlerContext, parse: QueryParseFunction): void {
  const search = getSearch(context);
  context.params.query = parse(search.length > 1 ? search.slice(1) : '');
}
