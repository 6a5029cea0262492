import type { AggregationCursor, Collection, Document, FindCursor } from 'mongodb';
import type { QueryFilters } from '../adapter/index.js';
import type { Query } from '../core/index.js';
import type { DocDbDriverOptions } from './declarations.js';
import { getProjection, queryStages, splitPipeline } from './pipeline.js';

/** What a read needs besides the query: the id field, the driver options and `params.pipeline`. */
export interface ReadContext {
  idField: string;
  options: DocDbDriverOptions;
  pipeline?: Document[] | undefined;
}

/** A find cursor with the filters applied (`$limit: 0` means no limit, as in the driver). */
export function openFindCursor(
  model: Collection<Document>,
  query: Query,
  filters: QueryFilters,
  { idField, options }: ReadContext,
): FindCursor<Document> {
  let cursor = model.find(query, options);
  if (filters.$sort && Object.keys(filters.$sort).length > 0) cursor = cursor.sort(filters.$sort);
  if (filters.$skip) cursor = cursor.skip(filters.$skip);
  if (filters.$limit) cursor = cursor.limit(filters.$limit);
  const projection = getProjection(filters.$select, idField);
  return projection ? cursor.project(projection) : cursor;
}

/** An aggregate cursor: the query stages injected into the pipeline at `$framework` (or first). */
export function openAggregateCursor(
  model: Collection<Document>,
  query: Query,
  filters: QueryFilters,
  { idField, options, pipeline }: ReadContext,
): AggregationCursor<Document> {
  const { before, after } = splitPipeline(pipeline);
  const stages = queryStages(
    query,
    filters.$limit === 0 ? { ...filters, $limit: undefined } : filters,
    idField,
  );
  return model.aggregate([...before, ...stages, ...after], options);
}

/**
 * The first record the pipeline of `context` yields for `query` (with `$select` of `filters`), or
 * `undefined`. Rejects with the driver's error.
 */
export async function readFirst(
  model: Collection<Document>,
  query: Query,
  filters: QueryFilters,
  context: ReadContext,
): Promise<Document | undefined> {
  const single: QueryFilters = { $limit: 1 };
  if (filters.$select) single.$select = filters.$select;
  const [found] = await openAggregateCursor(model, query, single, context).toArray();
  return found;
}

/**
 * Counts the records `query` matches: through the pipeline when there is one (so the total counts
 * what the pipeline yields), with `estimatedDocumentCount` for an unfiltered count when `estimated`
 * is set (never inside a transaction, where the server refuses it), else with `countDocuments`.
 * Rejects with the driver's error.
 */
export async function countRecords(
  model: Collection<Document>,
  query: Query,
  { options, pipeline }: ReadContext,
  estimated: boolean,
): Promise<number> {
  if (pipeline) {
    const { before, after } = splitPipeline(pipeline);
    const stages = [...before, { $match: query }, ...after, { $count: 'total' }];
    const [row] = await model.aggregate(stages, options).toArray();
    return typeof row?.total === 'number' ? row.total : 0;
  }
  const unfiltered = Object.keys(query).length === 0;
  if (estimated && unfiltered && options.session?.inTransaction() !== true) {
    return model.estimatedDocumentCount(options);
  }
  return model.countDocuments(query, options);
}
