/**
 * `plume/adapter`: the common database adapter base (spec: "Service options (adapter)",
 * "Adapter query syntax", "Limits"): options, per-call overrides, query validation with an operator
 * allow-list, `$limit/$skip/$sort/$select`, pagination and `multi`. It holds no database code.
 * @packageDocumentation
 */
export { AdapterBase, VALIDATED, type ResolvedAdapterOptions } from './adapter-base.js';
export { coerceQuery, type CoercedType } from './coerce-query.js';
export type {
  AdapterParams,
  AdapterServiceOptions,
  FilterConverter,
  PaginationOptions,
  PaginationParams,
  QueryConverter,
  QueryFilters,
} from './declarations.js';
export {
  FORBIDDEN_OPERATORS,
  QUERY_LIMITS,
  STANDARD_FILTERS,
  STANDARD_OPERATORS,
  describeValue,
  filterQuery,
  getLimit,
  isPlainObject,
  type FilterQueryOptions,
  type FilteredQuery,
} from './filter-query.js';
export { checkRegexPattern, MAX_REGEX_LENGTH } from './regex-guard.js';
