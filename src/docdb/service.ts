import { ObjectId, type AggregationCursor, type Collection, type Document, type FindCursor } from 'mongodb';
import {
  AdapterBase,
  describeValue,
  filterQuery,
  isPlainObject,
  type FilteredQuery,
  type QueryFilters,
} from '../adapter/index.js';
import type { Paginated, Query } from '../core/index.js';
import { BadRequest, NotFound } from '../errors/index.js';
import type {
  AdapterId,
  DocDbDriverOptions,
  DocDbParams,
  DocDbServiceOptions,
  NullableAdapterId,
} from './declarations.js';
import { handleDriverError } from './error-handler.js';
import { checkPlainId, objectifyQuery, toObjectId } from './object-id.js';
import { getProjection, queryStages } from './pipeline.js';
import {
  countRecords,
  insertAll,
  openAggregateCursor,
  openFindCursor,
  updateAll,
  type ReadContext,
} from './driver-calls.js';
import { DEFAULT_DISABLED_OPERATORS, makePatchUpdate, makeUpdate } from './update-data.js';

/** True for a promise or any object with a `then` method. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/** Raw queries come from server code, so they may nest deeper than client queries. */
const TRUSTED_LIMITS = { maxDepth: 100, maxItems: Number.POSITIVE_INFINITY };

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
    if (
      typeof options !== 'object' ||
      options === null ||
      options.Model === undefined ||
      options.Model === null
    ) {
      throw new TypeError('DocDbService needs the Model option: a Collection or a Promise of one');
    }
    if (options.Model instanceof Promise) options.Model.catch(() => undefined);
    // The service builds its filters and updates as plain documents; `Result` types what it returns.
    super({
      id: '_id',
      disabledOperators: [...DEFAULT_DISABLED_OPERATORS],
      ...(options as unknown as DocDbServiceOptions),
    });
  }

  /** The collection for this call: `params.adapter.Model` when set, else the `Model` option. */
  async getModel(params?: P): Promise<Collection<Document>> {
    const Model = this.modelOption(params);
    if (!isThenable(Model)) return Model as Collection<Document>;
    const resolved = this.resolvedCollection(Model);
    if (resolved !== undefined) return resolved;
    const collection = await this.run(async () => (await Model) as Collection<Document>);
    // A settled promise never changes, so its collection is kept (a rejection is not: it is reported again).
    this.resolvedModel = { from: Model, collection };
    return collection;
  }

  /** The last `Model` promise `getModel` resolved, and its collection. */
  private resolvedModel: { from: unknown; collection: Collection<Document> } | undefined;

  /** `this.getOptions(params).Model`, without copying every option on each call. */
  private modelOption(params?: P): unknown {
    const adapter = params?.adapter;
    return adapter !== undefined && 'Model' in adapter ? adapter.Model : this.options.Model;
  }

  /** The collection a `Model` promise resolved to, when `getModel` has already waited for it. */
  private resolvedCollection(Model: PromiseLike<unknown>): Collection<Document> | undefined {
    const resolved = this.resolvedModel;
    return resolved !== undefined && resolved.from === Model ? resolved.collection : undefined;
  }

  /**
   * The collection `getModel(params)` would resolve to, when it is known without waiting; else
   * `undefined`. The methods use it to skip a promise and a turn of the microtask queue per call.
   * A subclass's own `getModel` is always asked.
   */
  private knownModel(params: P): Collection<Document> | undefined {
    if (this.getModel !== DocDbService.prototype.getModel) return undefined;
    const Model = this.modelOption(params);
    return isThenable(Model) ? this.resolvedCollection(Model) : (Model as Collection<Document> | undefined);
  }

  /**
   * An id as stored: `ObjectId` for `_id` (unless `disableObjectify`), else the id as given.
   * Throws `BadRequest` (400) naming an invalid id.
   */
  getObjectId(id: AdapterId, params?: P): AdapterId {
    const options = this.readOptions(params);
    return this.id === '_id' && !options.disableObjectify
      ? toObjectId(id, options.ObjectId)
      : checkPlainId(id);
  }

  /**
   * Splits `params.query` into filters and the database query (trusted: any operator except
   * `$where`/`$function`/`$accumulator`/`$expr`), applies pagination to `$limit`, converts ids
   * and, when `id` is given, restricts the query to it (the id field next to the query's fields, or
   * `$and` when the query has its own condition on the id field).
   */
  prepareQuery(id: NullableAdapterId, params: P): FilteredQuery {
    const options = this.readOptions(params);
    const { filters, query } = filterQuery(params.query, {
      operators: 'all',
      filters: options.filters,
      paginate: options.paginate,
      ...TRUSTED_LIMITS,
    });
    let prepared =
      this.id === '_id' && !options.disableObjectify ? objectifyQuery(query, '_id', options.ObjectId) : query;
    if (id !== null) {
      const idValue = this.getObjectId(id, params);
      // Fields of one filter must all match, so the id goes next to the query's fields: the plainest
      // filter, which any planner serves from the id index (the embedded database scanned for `$and`
      // until it learnt to look inside it). A query with its own condition on the id field keeps both
      // conditions in `$and`.
      // `prepared` is a new object of this call (filterQuery's, or objectifyQuery's copy of it).
      if (Object.hasOwn(prepared, this.id)) prepared = { $and: [prepared, { [this.id]: idValue }] };
      else prepared[this.id] = idValue;
    }
    return { filters, query: prepared };
  }

  /** Options for every driver call: `params.docdb` plus `params.collation` (which wins). */
  driverOptions(params: P): DocDbDriverOptions {
    const docdb = params.docdb;
    const options: DocDbDriverOptions = { ...docdb };
    const collation = params.collation ?? docdb?.collation;
    if (collation !== undefined) options.collation = collation;
    return options;
  }

  /** The driver's find cursor for `params` (spec: "findRaw"); `$limit: 0` means no limit, as in the driver. */
  async findRaw(params: P = {} as P): Promise<FindCursor<Document>> {
    const { filters, query } = this.prepareQuery(null, params);
    return this.findCursor(await this.getModel(params), query, filters, params);
  }

  /**
   * The driver's aggregate cursor for `params` (spec: "aggregateRaw"): the query stages injected into
   * `params.pipeline` at its `{ $framework: {} }` stage, or before all its stages.
   */
  async aggregateRaw(params: P = {} as P): Promise<AggregationCursor<Document>> {
    const { filters, query } = this.prepareQuery(null, params);
    return this.aggregateCursor(await this.getModel(params), query, filters, params);
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
        ? this.aggregateCursor(model, query, filters, params)
        : this.findCursor(model, query, filters, params);
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
    if (!found) throw this.notFound(id);
    return found as Result;
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
    const single: QueryFilters = { $limit: 1 };
    if (filters.$select) single.$select = filters.$select;
    const [found] = await this.run(() => this.aggregateCursor(model, query, single, params).toArray());
    return found;
  }

  async _create(data: Data | Data[], params: P = {} as P): Promise<Result | Result[]> {
    this.checkMulti('create', Array.isArray(data), params);
    if (!Array.isArray(data) && !params.pipeline) {
      // One record without a pipeline: insertOne, then read it back with findOne, as get does, not
      // a general find. Only `$select` matters for the read; it is checked before anything is written.
      const doc = this.prepareNewRecord(data, params);
      const select = this.selectOnly(params);
      const projection =
        select.$select === undefined
          ? undefined
          : getProjection(
              this.prepareQuery(null, this.internalParams(params, select)).filters.$select,
              this.id,
            );
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
   * `_create` of an array, or of one record with a pipeline: insert, then read back through `find`.
   * Apart from `_create`, whose one-record path then allocates no context for these closures.
   */
  private async createMany(data: Data | Data[], params: P): Promise<Result | Result[]> {
    const items: unknown[] = Array.isArray(data) ? data : [data];
    const docs = items.map((item) => this.prepareNewRecord(item, params));
    if (docs.length === 0) return [];
    const model = this.knownModel(params) ?? (await this.getModel(params));
    const options = this.driverOptions(params);
    if (docs.length === 1 && !Array.isArray(data)) {
      await this.run(() => model.insertOne(docs[0] as Document, options));
    } else {
      await insertAll(model, docs, options);
    }
    const ids = docs.map((doc) => doc._id as unknown);
    const select = this.selectOnly(params);
    const stored = await this.findAll(this.internalParams(params, { ...select, _id: { $in: ids } }));
    const byId = new Map(stored.map((doc) => [String(doc._id), doc]));
    const results = docs.map((doc) => byId.get(String(doc._id)) ?? (doc as Result));
    return Array.isArray(data) ? results : (results[0] as Result);
  }

  async _update(id: AdapterId, data: Data, params: P = {} as P): Promise<Result> {
    if ((id as unknown) === null || Array.isArray(data)) {
      throw new BadRequest("You can not replace multiple instances. Did you mean 'patch'?");
    }
    const { filters, query } = this.prepareQuery(id, params);
    const { operators, replacement } = makeUpdate(data, this.disabledOperators(params), this.id, id);
    const model = this.knownModel(params) ?? (await this.getModel(params));
    const options = this.driverOptions(params);
    if (params.pipeline) {
      await this._get(id, params);
      const idQuery = { [this.id]: this.getObjectId(id, params) };
      await this.run(() =>
        operators
          ? model.updateOne(idQuery, operators, options)
          : model.replaceOne(idQuery, replacement ?? {}, options),
      );
      return this._get(id, { ...params, query: this.selectOnly(params) });
    }
    const write = {
      ...options,
      projection: getProjection(filters.$select, this.id),
      returnDocument: 'after' as const,
    };
    const result = await this.run(() =>
      operators
        ? model.findOneAndUpdate(query, operators, { ...write, includeResultMetadata: false })
        : model.findOneAndReplace(query, replacement ?? {}, { ...write, includeResultMetadata: false }),
    );
    if (!result) throw this.notFound(id);
    return result as unknown as Result;
  }

  async _patch(id: AdapterId | null, data: PatchData, params: P = {} as P): Promise<Result | Result[]> {
    this.checkMulti('patch', id === null, params);
    const update = makePatchUpdate(data, this.disabledOperators(params));
    const model = this.knownModel(params) ?? (await this.getModel(params));
    const options = this.driverOptions(params);
    if (id === null) {
      const matches = await this.findAll(
        this.internalParams(params, { ...params.query, $select: [this.id] }),
      );
      const ids = matches.map((doc) => doc[this.id] as unknown);
      if (ids.length === 0) return [];
      if (update) await updateAll(model, this.id, ids, update, options);
      const { $select, $sort } = params.query ?? {};
      const reread: Query = { [this.id]: { $in: ids } };
      if ($select !== undefined) reread.$select = $select;
      if ($sort !== undefined) reread.$sort = $sort;
      return this.findAll(this.internalParams(params, reread));
    }
    if (!update) return this._get(id, params);
    if (params.pipeline) {
      await this._get(id, params);
      await this.run(() => model.updateOne({ [this.id]: this.getObjectId(id, params) }, update, options));
      return this._get(id, { ...params, query: this.selectOnly(params) });
    }
    const { filters, query } = this.prepareQuery(id, params);
    const projection = getProjection(filters.$select, this.id);
    const result = await this.run(() =>
      model.findOneAndUpdate(query, update, {
        ...options,
        projection,
        returnDocument: 'after',
        includeResultMetadata: false,
      }),
    );
    if (!result) throw this.notFound(id);
    return result as unknown as Result;
  }

  async _remove(id: AdapterId | null, params: P = {} as P): Promise<Result | Result[]> {
    this.checkMulti('remove', id === null, params);
    const model = this.knownModel(params) ?? (await this.getModel(params));
    const options = this.driverOptions(params);
    if (id === null) {
      const found = await this.findAll(this.internalParams(params, { ...params.query }));
      const ids = [...new Set(found.map((doc) => doc[this.id] as unknown))];
      if (ids.length > 0) await this.run(() => model.deleteMany({ [this.id]: { $in: ids } }, options));
      return found;
    }
    if (params.pipeline) {
      const found = await this._get(id, params);
      await this.run(() => model.deleteOne({ [this.id]: this.getObjectId(id, params) }, options));
      return found;
    }
    const { filters, query } = this.prepareQuery(id, params);
    const projection = getProjection(filters.$select, this.id);
    const result = await this.run(() =>
      model.findOneAndDelete(query, { ...options, projection, includeResultMetadata: false }),
    );
    if (!result) throw this.notFound(id);
    return result as unknown as Result;
  }

  /**
   * Runs a driver call and maps its errors (see `handleDriverError`), thrown or rejected. Not an
   * `async` function: a call waiting for the database then holds no suspended frame of it.
   */
  protected run<T>(call: () => Promise<T>): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = call();
    } catch (error: unknown) {
      return Promise.reject(error as Error).then(undefined, handleDriverError);
    }
    return pending.then(undefined, handleDriverError);
  }

  private notFound(id: AdapterId): NotFound {
    return new NotFound(`No record found for id '${describeValue(String(id))}'`);
  }

  private disabledOperators(params: P): readonly string[] {
    return this.readOptions(params).disabledOperators ?? DEFAULT_DISABLED_OPERATORS;
  }

  /** `{ $select }` of the call's query, the only part `create` and re-reads use. */
  private selectOnly(params: P): Query {
    const select = params.query?.$select;
    return select === undefined ? {} : { $select: select };
  }

  /** Params for an internal read: same collection, session, collation and pipeline; no pagination. */
  private internalParams(params: P, query: Query): P {
    return { ...params, query, paginate: false, adapter: { ...params.adapter, paginate: false } };
  }

  private async findAll(params: P): Promise<Result[]> {
    const result = await this._find(params);
    return Array.isArray(result) ? result : result.data;
  }

  /** A new record ready to insert: `_id` assigned (converted when given), a custom id generated when absent. */
  private prepareNewRecord(item: unknown, params: P): Document {
    if (!isPlainObject(item)) throw new BadRequest('The data of create must be an object');
    const doc: Document = { ...item };
    if (this.id !== '_id' && (doc[this.id] === undefined || doc[this.id] === null)) {
      doc[this.id] = new ObjectId().toHexString();
    }
    if (doc._id === undefined || doc._id === null)
      doc._id = new (this.readOptions(params).ObjectId ?? ObjectId)();
    else if (this.id === '_id') doc._id = this.getObjectId(doc._id as AdapterId, params);
    return doc;
  }

  /** Where reads of this call go: id field, driver options, pipeline. */
  private readContext(params: P): ReadContext {
    return { idField: this.id, options: this.driverOptions(params), pipeline: params.pipeline };
  }

  private findCursor(model: Collection<Document>, query: Query, filters: QueryFilters, params: P) {
    return openFindCursor(model, query, filters, this.readContext(params));
  }

  private aggregateCursor(model: Collection<Document>, query: Query, filters: QueryFilters, params: P) {
    return openAggregateCursor(model, query, filters, this.readContext(params));
  }

  private async count(model: Collection<Document>, query: Query, params: P): Promise<number> {
    const estimated = this.readOptions(params).useEstimatedDocumentCount === true;
    return this.run(() => countRecords(model, query, this.readContext(params), estimated));
  }
}
