import type { Params, Query } from '../core/index.js';

/** Page sizes of the `paginate` option (spec: "Service options (adapter)"). */
export interface PaginationOptions {
  /** Page size used when the query has no `$limit`. */
  default?: number;
  /** Largest page size a query may ask for; a bigger `$limit` is lowered to it. */
  max?: number;
}

/** `paginate` as an option or a param: page sizes, or `false` for plain arrays. */
export type PaginationParams = PaginationOptions | false;

/**
 * A function that rewrites a validated query before the database sees it, e.g. turning the strings
 * of a URL query into numbers (`?age[$gt]=20`). See `coerceQuery`.
 */
export type QueryConverter = (query: Query) => Query;

/** Converter of an extra top-level filter (`filters` option): gets the raw value, returns the value to keep. */
export type FilterConverter = (value: unknown) => unknown;

/**
 * Options common to every adapter (spec: "Service options (adapter)"; REFERENCE-feathers §2.4).
 */
export interface AdapterServiceOptions {
  /** Name of the id property. Default `'id'` in the base class; `DocDbService` uses `'_id'`. */
  id?: string;
  /** Page sizes, or `false` (default) for plain arrays from `find`. */
  paginate?: PaginationParams;
  /** Allows `create` with arrays and `patch`/`remove` with id `null`: `true`, or the method names. Default `false`. */
  multi?: boolean | string[];
  /** Custom events the service emits itself (pass the same list to `app.use`). */
  events?: string[];
  /** Methods exposed to clients (pass the same list to `app.use`). */
  methods?: string[];
  /**
   * Extra query operators clients may use, e.g. `['$regex', '$options']`. `$where`, `$function`,
   * `$accumulator` and `$expr` are refused even when listed.
   */
  operators?: string[];
  /** Extra top-level filters (like `$limit`) kept out of the query: `true` keeps the value as is. */
  filters?: Record<string, true | FilterConverter>;
  /** Rewrites every client query after validation (e.g. `coerceQuery({ age: 'number' })`). */
  converter?: QueryConverter;
}

/** Params every adapter understands (spec: "Custom params (adapter)"). */
export interface AdapterParams<
  Q = Query,
  O extends AdapterServiceOptions = AdapterServiceOptions,
> extends Params<Q> {
  /** Option overrides for this call only (e.g. `paginate`, `multi`, `Model`). Never from clients. */
  adapter?: Partial<O>;
  /** `false` returns a plain array from `find`; page sizes override the service's. */
  paginate?: PaginationParams;
}

/** The `$`-filters taken out of a query by `filterQuery`, validated and normalised. */
export interface QueryFilters {
  /** Page size after the `paginate` rules; `undefined` means no limit. */
  $limit?: number;
  /** Number of records to skip. */
  $skip?: number;
  /** Sort directions by field: `1` ascending, `-1` descending (or `{ $meta }` when allowed). */
  $sort?: Record<string, 1 | -1 | { $meta: string }>;
  /** Field names to return (the adapter adds the id field). */
  $select?: string[];
  /** Extra filters from the `filters` option. */
  [filter: string]: unknown;
}
