import type { Collection, Document } from 'mongodb';
import type { FilteredQuery } from '../adapter/index.js';
import type { Paginated, Query } from '../core/index.js';
import { internalParams, selectOnly } from './call-params.js';
import type {
  AdapterId,
  DocDbDriverOptions,
  DocDbParams,
  NullableAdapterId,
  RecordChange,
} from './declarations.js';
import {
  changeOne,
  changeOneReturning,
  insertAll,
  removeOneReturning,
  updateAll,
  updateOneReturning,
} from './driver-writes.js';
import { getProjection } from './pipeline.js';

/**
 * `DocDbService`'s write methods once the call's collection and driver options are known: one record
 * by id, through `params.pipeline` (with the service's `_get`), or every match (with its `_find`).
 * The one-record writes are not `async`: the method awaiting them then holds the only frame.
 */

/**
 * The methods of `DocDbService` a write calls back. They are reached through the service, so that a
 * subclass's overrides of them are used.
 */
export interface WritingService<R extends Document, P extends DocDbParams> {
  readonly id: string;
  prepareQuery(id: NullableAdapterId, params: P): FilteredQuery;
  getObjectId(id: AdapterId, params?: P): AdapterId;
  _get(id: AdapterId, params?: P): Promise<R>;
  _find(params?: P): Promise<Paginated<R> | R[]>;
}

/** One write method call: the service, the call's params, collection and driver options. */
export interface WriteCall<R extends Document, P extends DocDbParams> {
  service: WritingService<R, P>;
  params: P;
  model: Collection<Document>;
  options: DocDbDriverOptions;
  /** The service's `run`: a driver call with its errors mapped. */
  run: <T>(call: () => Promise<T>) => Promise<T>;
}

/** Every record `query` finds, through the service's `_find` with the call's params, unpaginated. */
async function findAll<R extends Document, P extends DocDbParams>(
  { service, params }: WriteCall<R, P>,
  query: Query,
): Promise<R[]> {
  const result = await service._find(internalParams(params, query));
  return Array.isArray(result) ? result : result.data;
}

/**
 * A write by id with `params.pipeline`: `_get` first (so the record must come out of the pipeline),
 * then `write` with a filter on the id alone; resolves to the record read again through `_get`
 * (with the call's `$select`), or as it was when `reread` is false.
 */
async function writeThroughPipeline<R extends Document, P extends DocDbParams>(
  { service, params, run }: WriteCall<R, P>,
  id: AdapterId,
  write: (filter: Document) => Promise<unknown>,
  reread = true,
): Promise<R> {
  const before = await service._get(id, params);
  await run(() => write({ [service.id]: service.getObjectId(id, params) }));
  return reread ? service._get(id, { ...params, query: selectOnly(params) }) : before;
}

/** `_update` with `params.pipeline` (see `writeThroughPipeline`). */
export function updateThroughPipeline<R extends Document, P extends DocDbParams>(
  call: WriteCall<R, P>,
  id: AdapterId,
  change: RecordChange,
): Promise<R> {
  return writeThroughPipeline(call, id, (filter) => changeOne(call.model, filter, change, call.options));
}

/** `_patch` with `params.pipeline` (see `writeThroughPipeline`). */
export function patchThroughPipeline<R extends Document, P extends DocDbParams>(
  call: WriteCall<R, P>,
  id: AdapterId,
  update: Document,
): Promise<R> {
  return writeThroughPipeline(call, id, (filter) => call.model.updateOne(filter, update, call.options));
}

/** `_remove` with `params.pipeline`: resolves to the record as it was (see `writeThroughPipeline`). */
export function removeThroughPipeline<R extends Document, P extends DocDbParams>(
  call: WriteCall<R, P>,
  id: AdapterId,
): Promise<R> {
  return writeThroughPipeline(call, id, (filter) => call.model.deleteOne(filter, call.options), false);
}

/**
 * `_create` of an array, or of one record with a pipeline: inserts `docs` (one record with
 * `insertOne` when `asOne`, else with `insertAll`, which writes all or nothing), then reads them back
 * through `_find` with the call's `$select`, in the order given. A record the read does not find is
 * returned as inserted.
 */
export async function createRecords<R extends Document, P extends DocDbParams>(
  call: WriteCall<R, P>,
  docs: Document[],
  asOne: boolean,
): Promise<R[]> {
  const { model, options } = call;
  if (asOne) {
    await call.run(() => model.insertOne(docs[0] as Document, options));
  } else {
    await insertAll(model, docs, options);
  }
  const ids = docs.map((doc) => doc._id as unknown);
  const stored = await findAll(call, { ...selectOnly(call.params), _id: { $in: ids } });
  const byId = new Map(stored.map((doc) => [String(doc._id), doc]));
  return docs.map((doc) => byId.get(String(doc._id)) ?? (doc as R));
}

/**
 * `_patch` with id `null`: applies `update` to every match of the call's query, all or none (see
 * `updateAll`; nothing when `update` is `undefined`), and resolves to those records read again with
 * the query's `$select` and `$sort`.
 */
export async function patchMatches<R extends Document, P extends DocDbParams>(
  call: WriteCall<R, P>,
  update: Document | undefined,
): Promise<R[]> {
  const { service, params, model, options } = call;
  const matches = await findAll(call, { ...params.query, $select: [service.id] });
  const ids = matches.map((doc) => doc[service.id] as unknown);
  if (ids.length === 0) return [];
  if (update) await updateAll(model, service.id, ids, update, options);
  const { $select, $sort } = params.query ?? {};
  const reread: Query = { [service.id]: { $in: ids } };
  if ($select !== undefined) reread.$select = $select;
  if ($sort !== undefined) reread.$sort = $sort;
  return findAll(call, reread);
}

/** `_remove` with id `null`: removes every match of the call's query; resolves to them as they were. */
export async function removeMatches<R extends Document, P extends DocDbParams>(
  call: WriteCall<R, P>,
): Promise<R[]> {
  const { service, params, model, options } = call;
  const found = await findAll(call, { ...params.query });
  const ids = [...new Set(found.map((doc) => doc[service.id] as unknown))];
  if (ids.length > 0) await call.run(() => model.deleteMany({ [service.id]: { $in: ids } }, options));
  return found;
}

/**
 * `_update` of one record by id without a pipeline: one `findOneAndUpdate` (`findOneAndReplace`) of
 * the record `query` finds; resolves to it after the change, or to `null`.
 */
export function updateById<R extends Document, P extends DocDbParams>(
  { service, model, options, run }: WriteCall<R, P>,
  { filters, query }: FilteredQuery,
  change: RecordChange,
): Promise<Document | null> {
  const projection = getProjection(filters.$select, service.id);
  return run(() => changeOneReturning(model, query, change, options, projection));
}

/**
 * `_patch` of one record by id without a pipeline: one `findOneAndUpdate`; resolves to the record
 * after the change, or to `null` when the id does not match the query.
 */
export function patchById<R extends Document, P extends DocDbParams>(
  { service, params, model, options, run }: WriteCall<R, P>,
  id: AdapterId,
  update: Document,
): Promise<Document | null> {
  const { filters, query } = service.prepareQuery(id, params);
  const projection = getProjection(filters.$select, service.id);
  return run(() => updateOneReturning(model, query, update, options, projection));
}

/**
 * `_remove` of one record by id without a pipeline: one `findOneAndDelete`; resolves to the record
 * as it was, or to `null` when the id does not match the query.
 */
export function removeById<R extends Document, P extends DocDbParams>(
  { service, params, model, options, run }: WriteCall<R, P>,
  id: AdapterId,
): Promise<Document | null> {
  const { filters, query } = service.prepareQuery(id, params);
  const projection = getProjection(filters.$select, service.id);
  return run(() => removeOneReturning(model, query, options, projection));
}
