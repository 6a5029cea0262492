import { BadRequest } from '../errors/index.js';
import type { Query } from '../core/index.js';
import type { FilterConverter, PaginationParams, QueryFilters } from './declarations.js';
import { checkRegexPattern } from './regex-guard.js';

/** Operators every adapter query may use (spec: "Adapter query syntax"). */
export const STANDARD_OPERATORS: readonly string[] = [
  '$in',
  '$nin',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$ne',
  '$or',
  '$and',
];

/** The filters taken out of every query before it reaches the database. */
export const STANDARD_FILTERS: readonly string[] = ['$limit', '$skip', '$sort', '$select'];

/**
 * Operators that run code on the database server. They are refused in every query, even when a
 * service lists them in `operators`, because a query is client input.
 */
export const FORBIDDEN_OPERATORS: readonly string[] = ['$where', '$function', '$accumulator', '$expr'];

/** Default guards against hostile queries: nesting depth and number of keys plus array items. */
export const QUERY_LIMITS = { maxDepth: 10, maxItems: 5000 } as const;

/** The allowed operators when a service adds none (most calls): built once. */
const STANDARD_OPERATOR_SET: ReadonlySet<string> = new Set(STANDARD_OPERATORS);

/** Options of `filterQuery`. */
export interface FilterQueryOptions {
  /**
   * Extra allowed operators (the service's allow-list), or `'all'` for trusted server code: then any
   * operator except the forbidden ones passes, top level included.
   */
  operators?: readonly string[] | 'all';
  /** Extra top-level filters: `true` keeps the value, a function converts it. */
  filters?: Record<string, true | FilterConverter>;
  /** Pagination rules for `$limit`: `default` when absent, capped at `max`. */
  paginate?: PaginationParams;
  /** Deepest allowed nesting of objects and arrays. Default 10. */
  maxDepth?: number;
  /** Most keys plus array items in the whole query. Default 5000. */
  maxItems?: number;
}

/** Result of `filterQuery`: the validated filters and the rest of the query. */
export interface FilteredQuery {
  filters: QueryFilters;
  query: Query;
}

/** True for `{}`-style objects (not ObjectId, Date, RegExp, arrays…). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Short printable form of client input for error messages (never echoes a huge value). */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = '[unprintable value]';
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Parses a non-negative integer given as a number or a string of at most 15 decimal digits (no sign,
 * spaces, `0x` or exponent, as core's `isDecimalNumber` and the schema validators read numbers);
 * `undefined` when it is not one.
 */
function parseCount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

/**
 * The page size for `$limit` under `paginate` (spec: "Limits"): the given limit or `default`,
 * lowered to `max`. Without pagination the limit is used as given (`undefined` = no limit).
 */
export function getLimit(
  limit: number | undefined,
  paginate: PaginationParams | undefined,
): number | undefined {
  if (!paginate) return limit;
  const chosen = limit ?? paginate.default;
  if (paginate.max === undefined) return chosen;
  return chosen === undefined ? paginate.max : Math.min(chosen, paginate.max);
}

const SORT_DIRECTIONS: ReadonlyMap<string, 1 | -1> = new Map([
  ['1', 1],
  ['-1', -1],
  ['asc', 1],
  ['desc', -1],
  ['ascending', 1],
  ['descending', -1],
]);

/** MongoDB sorts on at most 32 keys; more would be a database error. */
const MAX_SORT_FIELDS = 32;

function parseSort(value: unknown, allowMeta: boolean): Record<string, 1 | -1 | { $meta: string }> {
  if (!isPlainObject(value))
    throw new BadRequest(`Invalid $sort '${describeValue(value)}': expected an object`);
  if (Object.keys(value).length > MAX_SORT_FIELDS) {
    throw new BadRequest(`Invalid $sort: at most ${MAX_SORT_FIELDS} fields`);
  }
  const sort: Record<string, 1 | -1 | { $meta: string }> = {};
  for (const [field, direction] of Object.entries(value)) {
    checkFieldName(field, '$sort');
    const normalised =
      typeof direction === 'number' || typeof direction === 'string'
        ? SORT_DIRECTIONS.get(String(direction).toLowerCase())
        : undefined;
    if (normalised !== undefined) {
      sort[field] = normalised;
    } else if (
      allowMeta &&
      isPlainObject(direction) &&
      Object.keys(direction).length === 1 &&
      typeof direction.$meta === 'string'
    ) {
      sort[field] = { $meta: direction.$meta };
    } else {
      throw new BadRequest(
        `Invalid $sort direction '${describeValue(direction)}' for '${field}': use 1, -1, 'asc' or 'desc'`,
      );
    }
  }
  return sort;
}

/**
 * A `$sort` or `$select` field: a dotted path of non-empty parts none of which starts with `$` (the
 * database refuses `a..b`, `a.` and `a.$b` in projections and sorts, which would otherwise be a 500).
 */
function checkFieldName(field: string, filter: string): void {
  if (field.length > 200 || field.split('.').some((part) => part === '' || part.startsWith('$'))) {
    throw new BadRequest(`Invalid field name '${describeValue(field)}' in ${filter}`);
  }
}

/** A generous bound on `$select` so one query cannot build a huge projection. */
const MAX_SELECT_FIELDS = 200;

function parseSelect(value: unknown): string[] {
  const fields =
    typeof value === 'string'
      ? value.split(',').map((field) => field.trim())
      : Array.isArray(value)
        ? value
        : null;
  if (fields === null || fields.some((field) => typeof field !== 'string')) {
    throw new BadRequest(
      `Invalid $select '${describeValue(value)}': expected an array or a comma-separated list`,
    );
  }
  const names = fields as string[];
  if (names.length > MAX_SELECT_FIELDS) {
    throw new BadRequest(`Invalid $select: at most ${MAX_SELECT_FIELDS} fields`);
  }
  names.forEach((field) => checkFieldName(field, '$select'));
  return names;
}

/** Walks a query and enforces the operator rules and size guards. */
class QueryChecker {
  private items = 0;

  constructor(
    private readonly allowed: ReadonlySet<string> | 'all',
    private readonly maxDepth: number,
    private readonly maxItems: number,
  ) {}

  private count(): void {
    this.items += 1;
    if (this.items > this.maxItems) {
      throw new BadRequest(`Query is too large (more than ${this.maxItems} keys and array items)`);
    }
  }

  checkOperator(key: string): void {
    if (FORBIDDEN_OPERATORS.includes(key)) throw new BadRequest(`Query operator '${key}' is not allowed`);
    if (this.allowed !== 'all' && !this.allowed.has(key)) {
      throw new BadRequest(`Invalid query parameter '${describeValue(key)}'`);
    }
  }

  /** Checks any value at `depth`; plain objects and arrays are walked, everything else is a leaf. */
  check(value: unknown, depth: number, path: string): void {
    if (depth > this.maxDepth) {
      throw new BadRequest(`Query is nested too deeply (more than ${this.maxDepth} levels)`);
    }
    if (Array.isArray(value)) {
      for (const item of value) {
        this.count();
        this.check(item, depth + 1, path);
      }
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        this.count();
        if (key.startsWith('$')) this.checkOperatorValue(key, item, path);
        this.check(item, depth + 1, key.startsWith('$') ? path : key);
      }
    }
  }

  private checkOperatorValue(key: string, value: unknown, path: string): void {
    this.checkOperator(key);
    if ((key === '$in' || key === '$nin') && !Array.isArray(value)) {
      throw new BadRequest(`${key} of '${path}' must be an array`);
    }
    if ((key === '$or' || key === '$and') && (!Array.isArray(value) || value.length === 0)) {
      throw new BadRequest(`${key} must be a non-empty array of queries`);
    }
    if ((key === '$or' || key === '$and') && Array.isArray(value) && !value.every(isPlainObject)) {
      throw new BadRequest(`${key} must be a non-empty array of queries`);
    }
    if (key === '$regex' && typeof value === 'string') checkRegexPattern(value);
  }
}

/** True when `object` has an own enumerable property (without making a list of them). */
function hasOwnKeys(object: object): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}

/** What `filterQuery` returns for a query without keys: no filters but the page size, no conditions. */
function emptyFilteredQuery(paginate: PaginationParams | undefined): FilteredQuery {
  const filters: QueryFilters = {};
  const pageLimit = getLimit(undefined, paginate);
  if (pageLimit !== undefined) filters.$limit = pageLimit;
  return { filters, query: {} };
}

/**
 * Splits a service query into filters and the database query, and validates both
 * (spec: "Adapter query syntax"; REFERENCE-feathers §2.4).
 *
 * - Filters: `$limit` and `$skip` (non-negative integers, numbers or digit strings), `$sort`
 *   (`1`, `-1`, `'1'`, `'-1'`, `'asc'`, `'desc'` per field), `$select` (array or comma-separated
 *   field names), plus the `filters` option. `$limit` then follows `paginate` (see `getLimit`).
 * - Operators: `$in $nin $lt $lte $gt $gte $ne $or $and` and the `operators` allow-list, anywhere in
 *   the query (property objects, `$or`/`$and` entries, arrays). `$where`, `$function`,
 *   `$accumulator` and `$expr` are never accepted. A string `$regex` may not hold backreferences or
 *   a repeated group containing a quantifier or alternation, e.g. `(a+)+` (see regex-guard.ts).
 *
 * Throws `BadRequest` (400) naming the offending key or value: an unknown operator, a forbidden
 * one, a `$regex` refused as above, a malformed filter (garbage `$limit`/`$skip` is an error, not silently the default), a
 * non-object query, `$in`/`$nin` that is not an array, `$or`/`$and` that is not a non-empty array of
 * objects, nesting deeper than `maxDepth` or more than `maxItems` keys and items.
 */
export function filterQuery(query: unknown, options: FilterQueryOptions = {}): FilteredQuery {
  if (query === undefined || query === null) query = {};
  if (!isPlainObject(query)) throw new BadRequest('The query must be an object');
  // Most `get`, `create`, `patch` and `remove` calls have no query: nothing to check or split.
  if (!hasOwnKeys(query)) return emptyFilteredQuery(options.paginate);
  const operators = options.operators ?? [];
  const allowed =
    operators === 'all'
      ? 'all'
      : operators.length === 0
        ? STANDARD_OPERATOR_SET
        : new Set([...STANDARD_OPERATORS, ...operators]);
  const checker = new QueryChecker(
    allowed,
    options.maxDepth ?? QUERY_LIMITS.maxDepth,
    options.maxItems ?? QUERY_LIMITS.maxItems,
  );
  const extraFilters = options.filters ?? {};
  const filters: QueryFilters = {};
  const rest: Query = {};
  let limit: number | undefined;

  for (const [key, value] of Object.entries(query)) {
    if (key === '$limit' || key === '$skip') {
      const parsed = parseCount(value);
      if (parsed === undefined) {
        throw new BadRequest(`Invalid ${key} '${describeValue(value)}': expected a non-negative integer`);
      }
      if (key === '$limit') limit = parsed;
      else filters.$skip = parsed;
    } else if (key === '$sort') {
      filters.$sort = parseSort(value, allowed === 'all' || allowed.has('$meta'));
    } else if (key === '$select') {
      filters.$select = parseSelect(value);
    } else if (Object.hasOwn(extraFilters, key)) {
      const converter = extraFilters[key];
      filters[key] = typeof converter === 'function' ? converter(value) : value;
    } else {
      if (key.startsWith('$')) {
        checker.checkOperator(key);
        checker.check({ [key]: value }, 0, key);
      } else {
        checker.check(value, 1, key);
      }
      rest[key] = value;
    }
  }
  // Set only when there is one: `delete` would turn `filters` into a slower dictionary object.
  const pageLimit = getLimit(limit, options.paginate);
  if (pageLimit !== undefined) filters.$limit = pageLimit;
  return { filters, query: rest };
}
