import { filterQuery, type FilteredQuery, type ResolvedAdapterOptions } from '../adapter/index.js';
import type { Query } from '../core/index.js';
import type { AdapterId, DocDbServiceOptions } from './declarations.js';
import { checkPlainId, objectifyQuery, toObjectId } from './object-id.js';

/** The options that decide how a call's query and ids are read. */
type QueryOptions = Pick<
  ResolvedAdapterOptions<DocDbServiceOptions>,
  'filters' | 'paginate' | 'disableObjectify' | 'ObjectId'
>;

/** Raw queries come from server code, so they may nest deeper than client queries. */
const TRUSTED_LIMITS = { maxDepth: 100, maxItems: Number.POSITIVE_INFINITY };

/** Whether values of `idField` are stored as `ObjectId`s: `_id`, unless `disableObjectify`. */
function objectifies(idField: string, options: Readonly<QueryOptions>): boolean {
  return idField === '_id' && !options.disableObjectify;
}

/**
 * An id as stored: an `ObjectId` when `idField` holds them (see `objectifies`), else the id as
 * given. Throws `BadRequest` (400) naming an invalid id.
 */
export function storedId(id: AdapterId, idField: string, options: Readonly<QueryOptions>): AdapterId {
  return objectifies(idField, options) ? toObjectId(id, options.ObjectId) : checkPlainId(id);
}

/**
 * Splits a query from server code into filters and the database query: any operator except
 * `$where`/`$function`/`$accumulator`/`$expr`, pagination applied to `$limit`, ids of `idField`
 * converted. The query returned is a new object (filterQuery's, or objectifyQuery's copy of it).
 * Throws `BadRequest` (400) for an invalid query or id.
 */
export function splitTrustedQuery(
  query: Query | undefined,
  idField: string,
  options: Readonly<QueryOptions>,
): FilteredQuery {
  const split = filterQuery(query, {
    operators: 'all',
    filters: options.filters,
    paginate: options.paginate,
    ...TRUSTED_LIMITS,
  });
  if (objectifies(idField, options)) split.query = objectifyQuery(split.query, '_id', options.ObjectId);
  return split;
}

/**
 * `query` restricted to the record whose `idField` is `idValue`. Changes `query`, which must be an
 * object of this call, unless it has its own condition on the id field.
 */
export function restrictToId(query: Query, idField: string, idValue: AdapterId): Query {
  // Fields of one filter must all match, so the id goes next to the query's fields: the plainest
  // filter, which any planner serves from the id index (the embedded database scanned for `$and`
  // until it learnt to look inside it). A query with its own condition on the id field keeps both
  // conditions in `$and`.
  if (Object.hasOwn(query, idField)) return { $and: [query, { [idField]: idValue }] };
  query[idField] = idValue;
  return query;
}
