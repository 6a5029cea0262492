import { ObjectId, type AggregationCursor, type Collection, type Document, type FindCursor } from 'mongodb';
import { AdapterBase, type FilteredQuery, type QueryFilters } from '../adapter/index.js';
import type { Paginated, Query } from '../core/index.js';
import { BadRequest } from '../errors/index.js';
import { callDriverOptions, internalParams, selectOnly } from './call-params.js';
import { newRecord } from './create-data.js';
import type {
  AdapterId,
  DocDbDriverOptions,
  DocDbParams,
  DocDbServiceOptions,
  NullableAdapterId,
} from './declarations.js';
import {
  countRecords,
  openAggregateCursor,
  openFindCursor,
  readFirst,
  type ReadContext,
} from './driver-reads.js';
import { foundOrNotFound, handleDriverError, mapDriverErrors } from './error-handler.js';
import { checkModelOption, isThenable, modelOption, ResolvedModel } from './model-source.js';
import { getProjection, queryStages } from './pipeline.js';
import { restrictToId, splitTrustedQuery, storedId } from './service-query.js';
import { DEFAULT_DISABLED_OPERATORS, makePatchUpdate, makeUpdate } from './update-data.js';
import * as writes from './write-methods.js';

/**
 * The document-database adapter (spec: "What the service does", "Service options (adapter)",
 * "Adapter methods and utilities", "Custom params (adapter)", "Adapter query syntax", "Object ids"),
 * built on the official `mongodb` driver.
 *
 * Register it with `app.use('messages', new DocDbService({ Model }))`. The public methods validate
 * client queries (see `filterQuery`; extra operators through the `operators` allow-list) and call
 * the hook-less `_find/_get/_create/_update/_patch/_remove`. Every driver call gets `params.docdb`
 * and the collation; driver errors become plume errors (see `handleDriverError`).
 *
 * Errors: `BadRequest` (400) for invalid queries, ids or data; `NotFound` (404) "No record found for
 * id '<id>'"; `MethodNotAllowed` (405) for multi operations not allowed; `Conflict` (409) for
 * duplicate keys; `Unavailable` (503) when the database cannot be reached.
 */
export class DocDbService<
  Result extends Document = Document,
  Data = Partial<Result>,
  P extends DocDbParams = DocDbParams,
  PatchData = Partial<Data>,
> extends AdapterBase<Result, Data, P, DocDbServiceOptions, AdapterId, PatchData> {
  /**
   * Throws a `TypeError` when `options.Model` is missing. A rejected `Model` promise is reported by
   * the first call that needs the collection (503 for connection failures), never as an unhandled rejection.
   * `options.Model` may be typed by the service's `Result` (`db.collection<Message>('messages')`).
   */
  constructor(options: DocDbServiceOptions<Result> | DocDbServiceOptions) {
    checkModelOption(options);
    // The service builds its filters and updates as plain documents; `Result` types what it returns.
    super({
      id: '_id',
      disabledOperators: [...DEFAULT_DISABLED_OPERATORS],
      ...(options as unknown as DocDbServiceOptions),
    });
  }

  /** The collection for this call: `params.adapter.Model` when set, else the `Model` option. */
  async getModel(params?: P): Promise<Collection<Document>> {
    const Model = modelOption(this.options.Model, params?.adapter);
    if (!isThenable(Model)) return Model as Collection<Document>;
    const resolved = this.resolvedModel.of(Model);
    if (resolved !== undefined) return resolved;
    const collection = await this.run(async () => (await Model) as Collection<Document>);
    this.resolvedModel.remember(Model, collection);
    return collection;
  }

  /** The last `Model` promise `getModel` resolved, and its collection. */
  private readonly resolvedModel = new ResolvedModel();

  /**
   * The collection `getModel(params)` would resolve to, when it is known without waiting; else
   * `undefined`. The methods use it to skip a promise and a turn of the microtask queue per call.
   * A subclass's own `getModel` is always asked.
   */
  private knownModel(params: P): Collection<Document> | undefined {
    if (this.getModel !== DocDbService.prototype.getModel) return undefined;
    return this.resolvedModel.known(modelOption(this.options.Model, params.adapter));
  }

  /**
   * An id as stored: `ObjectId` for `_id` (unless `disableObjectify`), else the id as given.
   * Throws `BadRequest` (400) naming an invalid id.
   */
  getObjectId(id: AdapterId, params?: P): AdapterId {
    return storedId(id, this.id, this.readOptions(params));
  }

  /**
   * Splits `params.query` into filters and the database query (trusted: any operator except
   * `$where`/`$function`/`$accumulator`/`$expr`), applies pagination to `$limit`, converts ids
   * and, when `id` is given, restricts the query to it (the id field next to the query's fields, or
   * `$and` when the query has its own condition on the id field).
   */
  prepareQuery(id: NullableAdapterId, params: P): FilteredQuery {
    const prepared = splitTrustedQuery(params.query, this.id, this.readOptions(params));
    if (id !== null) prepared.query = restrictToId(prepared.query, this.id, this.getObjectId(id, params));
    return prepared;
  }

  /** Options for every driver call: `params.docdb` plus `params.collation` (which wins). */
  driverOptions(params: P): DocDbDriverOptions {
    return callDriverOptions(params);
  }

  /** The driver's find cursor for `params` (spec: "findRaw"); `$limit: 0` means no limit, as in the driver. */
  async findRaw(params: P = {} as P): Promise<FindCursor<Document>> {
    const { filters, query } = this.prepareQuery(null, params);
    return openFindCursor(await this.getModel(params), query, filters, this.readContext(params));
  }

  /**
   * The driver's aggregate cursor for `params` (spec: "aggregateRaw"): the query stages injected into
   * `params.pipeline` at its `{ $framework: {} }` stage, or before all its stages.
   */
  async aggregateRaw(params: P = {} as P): Promise<AggregationCursor<Document>> {
    const { filters, query } = this.prepareQuery(null, params);
    return openAggregateCursor(await this.getModel(params), query, filters, this.readContext(params));
  }

  /**
   * The query of `params` as aggregation stages (spec: "makeFeathersPipeline"):
   * `[{ $match }, { $sort }?, { $skip }?, { $limit }?, { $project }?]`. Ignores `params.pipeline`.
   */
  makeFeathersPipeline(params: P = {} as P): Document[] {
    const { filters, query } = this.prepareQuery(null, params);
    return queryStages(query, filters, this.id);
  }

  /** Counts what `find` would return without `$skip`/`$limit`, through `params.pipeline` when set. */
  async countDocuments(params: P = {} as P): Promise<number> {
    const { query } = this.prepareQuery(null, params);
    return this.count(await this.getModel(params), query, params);
  }

  async _find(params: P = {} as P): Promise<Paginated<Result> | Result[]> {
    const { paginate } = this.readOptions(params);
    const { filters, query } = this.prepareQuery(null, params);
    const model = this.knownModel(params) ?? (await this.getModel(params));
    const readData = async (): Promise<Result[]> => {
      if (filters.$limit === 0) return [];
      const cursor = params.pipeline
        ? openAggregateCursor(model, query, filters, this.readContext(params))
        : openFindCursor(model, query, filters, this.readContext(params));
      return (await this.run(() => cursor.toArray())) as Result[];
    };
    // `paginate` may be `undefined` when an override spells it out; treat that like `false`.
    const paginated = !!paginate && (paginate.default !== undefined || paginate.max !== undefined);
    if (!paginated) return readData();
    // A session runs one operation at a time, so data and count are read in turn then.
    const [data, total] = params.docdb?.session
      ? [await readData(), await this.count(model, query, params)]
      : await Promise.all([readData(), this.count(model, query, params)]);
    return { total, limit: filters.$limit ?? 0, skip: filters.$skip ?? 0, data };
  }

  async _get(id: AdapterId, params: P = {} as P): Promise<Result> {
    if ((id as unknown) === null || id === undefined) throw new BadRequest('get needs an id');
    const { filters, query } = this.prepareQuery(id, params);
    const model = this.knownModel(params) ?? (await this.getModel(params));
    const options = this.driverOptions(params);
    let found: Document | null | undefined;
    if (params.pipeline) found = await this.getThroughPipeline(model, query, filters, params);
    else {
      options.projection = getProjection(filters.$select, this.id);
      // Awaited here rather than through `run`: a request waiting for the database then holds one
      // suspended function less (its frame, promise and closure), which the collector would copy.
      try {
        found = await model.findOne(query, options);
      } catch (error: unknown) {
        handleDriverError(error);
      }
    }
    return foundOrNotFound(found as Result | null | undefined, id);
  }

  /**
   * `_get` with `params.pipeline`: the first document out of the pipeline. A method of its own because
   * a closure anywhere in `_get` would make every call allocate its variables' context.
   */
  private async getThroughPipeline(
    model: Collection<Document>,
    query: Query,
    filters: QueryFilters,
    params: P,
  ): Promise<Document | undefined> {
    return this.run(() => readFirst(model, query, filters, this.readContext(params)));
  }

  async _create(data: Data | Data[], params: P = {} as P): Promise<Result | Result[]> {
    this.checkMulti('create', Array.isArray(data), params);
    if (!Array.isArray(data) && !params.pipeline) {
      // One record without a pipeline: insertOne, then read it back with findOne, as get does, not
      // a general find. Only `$select` matters for the read; it is checked before anything is written.
      const doc = this.prepareNewRecord(data, params);
      const select = selectOnly(params);
      const projection =
        select.$select === undefined
          ? undefined
          : getProjection(this.prepareQuery(null, internalParams(params, select)).filters.$select, this.id);
      const model = this.knownModel(params) ?? (await this.getModel(params));
      const options = this.driverOptions(params);
      let found: Document | null = null;
      // Awaited in place rather than through `run`, as in _get.
      try {
        await model.insertOne(doc, options);
        found = await model.findOne({ _id: doc._id as ObjectId }, { ...options, projection });
      } catch (error: unknown) {
        handleDriverError(error);
      }
      return (found ?? doc) as Result;
    }
    return this.createMany(data, params);
  }

  /**
   * `_create` of an array, or of one record with a pipeline (see `createRecords`). Apart from
   * `_create`, whose one-record path then allocates no context for these closures.
   */
  private async createMany(data: Data | Data[], params: P): Promise<Result | Result[]> {
    const items: unknown[] = Array.isArray(data) ? data : [data];
    const docs = items.map((item) => this.prepareNewRecord(item, params));
    if (docs.length === 0) return [];
    const call = this.writeCall(this.knownModel(params) ?? (await this.getModel(params)), params);
    const results = await writes.createRecords(call, docs, !Array.isArray(data));
    return Array.isArray(data) ? results : (results[0] as Result);
  }

  async _update(id: AdapterId, data: Data, params: P = {} as P): Promise<Result> {
    if ((id as unknown) === null || Array.isArray(data)) {
      throw new BadRequest("You can not replace multiple instances. Did you mean 'patch'?");
    }
    const prepared = this.prepareQuery(id, params);
    const change = makeUpdate(data, this.disabledOperators(params), this.id, id);
    const call = this.writeCall(this.knownModel(params) ?? (await this.getModel(params)), params);
    if (params.pipeline) return await writes.updateThroughPipeline(call, id, change);
    return foundOrNotFound((await writes.updateById(call, prepared, change)) as Result | null, id);
  }

  async _patch(id: AdapterId | null, data: PatchData, params: P = {} as P): Promise<Result | Result[]> {
    this.checkMulti('patch', id === null, params);
    const update = makePatchUpdate(data, this.disabledOperators(params));
    const call = this.writeCall(this.knownModel(params) ?? (await this.getModel(params)), params);
    if (id === null) return await writes.patchMatches(call, update);
    if (!update) return this._get(id, params);
    if (params.pipeline) return await writes.patchThroughPipeline(call, id, update);
    return foundOrNotFound((await writes.patchById(call, id, update)) as Result | null, id);
  }

  async _remove(id: AdapterId | null, params: P = {} as P): Promise<Result | Result[]> {
    this.checkMulti('remove', id === null, params);
    const call = this.writeCall(this.knownModel(params) ?? (await this.getModel(params)), params);
    if (id === null) return await writes.removeMatches(call);
    if (params.pipeline) return await writes.removeThroughPipeline(call, id);
    return foundOrNotFound((await writes.removeById(call, id)) as Result | null, id);
  }

  /** Runs a driver call and maps its errors, thrown or rejected (see `mapDriverErrors`). */
  protected run<T>(call: () => Promise<T>): Promise<T> {
    return mapDriverErrors(call);
  }

  private disabledOperators(params: P): readonly string[] {
    return this.readOptions(params).disabledOperators ?? DEFAULT_DISABLED_OPERATORS;
  }

  /** What the write methods of `write-methods` need for one call (see `WriteCall`). */
  private writeCall(model: Collection<Document>, params: P): writes.WriteCall<Result, P> {
    return { service: this, params, model, options: this.driverOptions(params), run: this.runCall };
  }

  /** `run` as a function of its own, for `write-methods`; it calls a subclass's override. */
  private readonly runCall = <T>(call: () => Promise<T>): Promise<T> => this.run(call);

  /** A new record ready to insert: `_id` assigned (converted when given), a custom id generated when absent. */
  private prepareNewRecord(item: unknown, params: P): Document {
    const doc = newRecord(item, this.id);
    if (doc._id === undefined || doc._id === null)
      doc._id = new (this.readOptions(params).ObjectId ?? ObjectId)();
    else if (this.id === '_id') doc._id = this.getObjectId(doc._id as AdapterId, params);
    return doc;
  }

  /** Where reads of this call go: id field, driver options, pipeline. */
  private readContext(params: P): ReadContext {
    return { idField: this.id, options: this.driverOptions(params), pipeline: params.pipeline };
  }

  private async count(model: Collection<Document>, query: Query, params: P): Promise<number> {
    const estimated = this.readOptions(params).useEstimatedDocumentCount === true;
    return this.run(() => countRecords(model, query, this.readContext(params), estimated));
  }
}
