import { createQueryStringParser, type Query } from '../core/index.js';

/** Options of `queryParser()`: the limits of the `qs` parser. */
export interface QueryParserOptions {
  /** Highest array index kept as an array; larger arrays become objects keyed by index. Default 20. */
  arrayLimit?: number;
  /** Deepest bracket nesting parsed; deeper brackets stay part of the key. Default 5. */
  depth?: number;
  /** Most parameters read; the rest are ignored. Default 1000. */
  parameterLimit?: number;
}

/**
 * A query-string parser for `app.set('query parser', queryParser({ arrayLimit: 100 }))`: core's
 * `createQueryStringParser` (the one the Web Standard handler uses too) with Express' limits: nested
 * brackets with `qs` (`a[b]=1&c[]=2` → `{ a: { b: '1' }, c: ['2'] }`), values kept as strings,
 * prototype keys never set (`allowPrototypes: false`) and `__proto__`/`constructor`/`prototype`
 * dropped at every depth. With the default `arrayLimit` of 20, an array of more than 20 items becomes
 * an object keyed by index (spec: "Rules for the REST transport" 3, "Limits"). `serverFramework(app)`
 * installs `queryParser()` unless the Express app already has a query parser function.
 */
export function queryParser(
  options: QueryParserOptions = {},
): (queryString: string | null | undefined) => Query {
  return createQueryStringParser({
    arrayLimit: options.arrayLimit ?? 20,
    depth: options.depth,
    parameterLimit: options.parameterLimit,
  });
}
