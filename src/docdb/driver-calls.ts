import type {
  AggregationCursor,
  AnyBulkWriteOperation,
  Collection,
  Document,
  FindCursor,
  ObjectId,
} from 'mongodb';
import type { QueryFilters } from '../adapter/index.js';
import type { Query } from '../core/index.js';
import type { DocDbDriverOptions } from './declarations.js';
import { handleDriverError } from './error-handler.js';
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

/**
 * `insertMany` (ordered) that removes the records it inserted before a failure, so a failed multi
 * `create` writes nothing (inside a transaction the abort does that). Throws the mapped driver error.
 */
export async function insertAll(
  model: Collection<Document>,
  docs: Document[],
  options: DocDbDriverOptions,
): Promise<void> {
  try {
    await model.insertMany(docs, { ...options, ordered: true });
  } catch (error) {
    const inserted = (error as { insertedCount?: unknown }).insertedCount;
    const inTransaction = options.session?.inTransaction() === true;
    if (typeof inserted === 'number' && inserted > 0 && !inTransaction) {
      const ids: Document = { $in: docs.slice(0, inserted).map((doc) => doc._id as unknown) };
      await model.deleteMany({ _id: ids }, options).catch(() => undefined);
    }
    handleDriverError(error);
  }
}

/**
 * `updateMany` of the records `ids` (values of `idField`) that puts back the records as they were
 * when it fails part-way, so a failed multi `patch` leaves nothing half-written: MongoDB applies an
 * update to one document after another and stops at the first it refuses (a unique index, a
 * validator, `$inc` of a string), with the earlier ones changed. The records are read before the
 * update for that; inside a transaction the abort undoes it instead. Throws the mapped driver error.
 */
export async function updateAll(
  model: Collection<Document>,
  idField: string,
  ids: unknown[],
  update: Document,
  options: DocDbDriverOptions,
): Promise<void> {
  const filter = { [idField]: { $in: ids } };
  const inTransaction = options.session?.inTransaction() === true;
  let originals: Document[] = [];
  try {
    if (!inTransaction) originals = await model.find(filter, { ...options, projection: undefined }).toArray();
    await model.updateMany(filter, update, options);
  } catch (error) {
    if (originals.length > 0) {
      const restore = originals.map((doc): AnyBulkWriteOperation<Document> => ({
        replaceOne: { filter: { _id: doc._id as ObjectId }, replacement: doc },
      }));
      await model.bulkWrite(restore, { ...options, ordered: false }).catch(() => undefined);
    }
    handleDriverError(error);
  }
}
