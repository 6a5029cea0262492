import { BadRequest, MethodNotAllowed } from '../errors/index.js';
import type { Id, Paginated, Query } from '../core/index.js';
import type { AdapterParams, AdapterServiceOptions } from './declarations.js';
import { filterQuery } from './filter-query.js';

/**
 * Marker a schema validator sets on a query it has checked (`query[VALIDATED] = true`):
 * `sanitizeQuery` then returns it unchanged. Equal to `Symbol.for('plume/adapter/validated')`.
 */
export const VALIDATED: unique symbol = Symbol.for('plume/adapter/validated');

/** The multi-record methods and the error each one throws when `multi` does not allow it. */
const multiMessages: Readonly<Record<string, string>> = {
  create: 'Can not create multiple entries',
  patch: 'Can not patch multiple entries',
  remove: 'Can not remove multiple entries',
};

/** Options after defaults: every key present except the optional hooks. */
export type ResolvedAdapterOptions<O extends AdapterServiceOptions> = O &
  Required<Pick<AdapterServiceOptions, 'id' | 'paginate' | 'multi' | 'events' | 'operators' | 'filters'>>;

/**
 * The common adapter base (spec: "Adapter methods and utilities"; REFERENCE-feathers §2.4).
 *
 * Subclasses implement the hook-less `_find/_get/_create/_update/_patch/_remove`, which never call
 * the public methods. The public methods validate the client query (`sanitizeQuery`), check
 * `multi`, and call the matching raw method. Register an instance with `app.use(path, service)`
 * so the public methods run inside hooks and emit events.
 *
 * `I` is the id type (e.g. `Id | ObjectId`), `Result` a stored record, `Data` what `create` takes.
 */
export abstract class AdapterBase<
  Result = Record<string, unknown>,
  Data = Partial<Result>,
  P extends AdapterParams = AdapterParams,
  O extends AdapterServiceOptions = AdapterServiceOptions,
  I = Id,
  PatchData = Partial<Data>,
> {
  /** The options with defaults filled in. */
  readonly options: ResolvedAdapterOptions<O>;

  constructor(options: O) {
    this.options = {
      id: 'id',
      paginate: false,
      multi: false,
      events: [],
      operators: [],
      filters: {},
      ...options,
    };
  }

  /** Name of the id property. */
  get id(): string {
    return this.options.id;
  }

  /** Custom events the service emits itself. */
  get events(): string[] {
    return this.options.events;
  }

  /**
   * The options for one call: the service options, then `params.paginate`, then `params.adapter`
   * (which may override `paginate`, `multi`, `Model`, …). Never reads client input.
   */
  getOptions(params: P | undefined): ResolvedAdapterOptions<O> {
    const paginate = params?.paginate ?? this.options.paginate;
    return { ...this.options, paginate, ...(params?.adapter ?? {}) };
  }

  /**
   * `getOptions(params)` for reading only: the service options themselves (no copy) when the call
   * overrides nothing, which is most calls. Callers must not change the object.
   */
  protected readOptions(params: P | undefined): Readonly<ResolvedAdapterOptions<O>> {
    return params?.adapter === undefined && params?.paginate === undefined
      ? this.options
      : this.getOptions(params);
  }

  /**
   * Whether `method` may touch several records for this call: `find` always, `get` and `update`
   * never, `create`/`patch`/`remove` (and custom methods) when `multi` is `true` or lists the method.
   */
  allowsMulti(method: string, params?: P): boolean {
    if (method === 'find') return true;
    if (method === 'get' || method === 'update') return false;
    const { multi } = this.readOptions(params);
    return multi === true || (Array.isArray(multi) && multi.includes(method));
  }

  /**
   * Throws `MethodNotAllowed` (405, e.g. 'Can not patch multiple entries') when a call would touch
   * several records and `multi` does not allow `method`.
   */
  protected checkMulti(method: 'create' | 'patch' | 'remove', many: boolean, params?: P): void {
    if (many && !this.allowsMulti(method, params)) {
      throw new MethodNotAllowed(multiMessages[method] ?? `Can not ${method} multiple entries`);
    }
  }

  /**
   * Validates `params.query` from a client with `filterQuery` (the service's `operators`, `filters`
   * and pagination) and applies the `converter` option; resolves to the filters and query merged
   * into one object. A query that carries the `VALIDATED` marker is returned as it is.
   * Throws `BadRequest` (400) for invalid queries (see `filterQuery`).
   */
  async sanitizeQuery(params: P = {} as P): Promise<Query> {
    return this.validateQuery(params);
  }

  /** What this class's `sanitizeQuery` resolves to, computed at once; throws `BadRequest` (400). */
  private validateQuery(params: P | undefined): Query {
    const query: Query | undefined = params?.query;
    if (query !== undefined && (query as { [VALIDATED]?: unknown })[VALIDATED]) return query;
    const options = this.readOptions(params);
    const { filters, query: rest } = filterQuery(query, {
      operators: options.operators,
      filters: options.filters,
    });
    // `rest` is filterQuery's own new object; a converter's result may be anything, so it is copied.
    const merged: Query = options.converter ? { ...options.converter(rest) } : rest;
    for (const key in filters) {
      const value = filters[key];
      if (value !== undefined) merged[key] = value;
    }
    return merged;
  }

  /**
   * The sanitised query for a public method, without a promise when `sanitizeQuery` is this class's
   * own; `undefined` when a subclass overrides it (the method then awaits the override).
   */
  private sanitizedNow(params: P | undefined): Query | undefined {
    return this.sanitizeQuery === AdapterBase.prototype.sanitizeQuery
      ? this.validateQuery(params)
      : undefined;
  }

  /**
   * Params with the sanitised query, for the raw methods. With `sanitizedNow`, and the public
   * methods `return await`-ing the raw ones rather than returning their promise, a call makes two
   * promises and two microtask turns fewer: on a busy server each of them is garbage to collect.
   */
  private withQuery(params: P | undefined, sanitized: Query, dropLimit = false): P {
    let query = sanitized;
    if (dropLimit && query.$limit !== undefined) {
      // A copy: the query may be the caller's own object (one marked `VALIDATED` is returned as it is).
      query = { ...query };
      delete query.$limit;
    }
    return { ...(params ?? {}), query } as P;
  }

  /** Finds records (spec: "REST mapping"): a plain array, or `{ total, limit, skip, data }` when paginated. */
  async find(params: P & { paginate: false }): Promise<Result[]>;
  async find(params?: P): Promise<Paginated<Result> | Result[]>;
  async find(params?: P): Promise<Paginated<Result> | Result[]> {
    const query = this.sanitizedNow(params) ?? (await this.sanitizeQuery(params));
    return await this._find(this.withQuery(params, query));
  }

  /** Gets one record by id. Throws `NotFound` (404) when it is missing or does not match `params.query`. */
  async get(id: I, params?: P): Promise<Result> {
    const query = this.sanitizedNow(params) ?? (await this.sanitizeQuery(params));
    return await this._get(id, this.withQuery(params, query));
  }

  /** Creates one record, or several from an array when `multi` allows `create` (else 405). */
  async create(data: Data, params?: P): Promise<Result>;
  async create(data: Data[], params?: P): Promise<Result[]>;
  async create(data: Data | Data[], params?: P): Promise<Result | Result[]>;
  async create(data: Data | Data[], params?: P): Promise<Result | Result[]> {
    this.checkMulti('create', Array.isArray(data), params);
    const query = this.sanitizedNow(params) ?? (await this.sanitizeQuery(params));
    return await this._create(data, this.withQuery(params, query));
  }

  /** Replaces one record. Id `null` or an array of data is a `BadRequest` (400). */
  async update(id: I | null, data: Data, params?: P): Promise<Result> {
    if (id === null || Array.isArray(data)) {
      throw new BadRequest("You can not replace multiple instances. Did you mean 'patch'?");
    }
    const query = this.sanitizedNow(params) ?? (await this.sanitizeQuery(params));
    return await this._update(id, data, this.withQuery(params, query));
  }

  /** Patches one record, or with id `null` every match of the query when `multi` allows `patch` (else 405). */
  async patch(id: I, data: PatchData, params?: P): Promise<Result>;
  async patch(id: null, data: PatchData, params?: P): Promise<Result[]>;
  async patch(id: I | null, data: PatchData, params?: P): Promise<Result | Result[]>;
  async patch(id: I | null, data: PatchData, params?: P): Promise<Result | Result[]> {
    this.checkMulti('patch', id === null, params);
    const query = this.sanitizedNow(params) ?? (await this.sanitizeQuery(params));
    return await this._patch(id, data, this.withQuery(params, query, true));
  }

  /** Removes one record, or with id `null` every match of the query when `multi` allows `remove` (else 405). */
  async remove(id: I, params?: P): Promise<Result>;
  async remove(id: null, params?: P): Promise<Result[]>;
  async remove(id: I | null, params?: P): Promise<Result | Result[]>;
  async remove(id: I | null, params?: P): Promise<Result | Result[]> {
    this.checkMulti('remove', id === null, params);
    const query = this.sanitizedNow(params) ?? (await this.sanitizeQuery(params));
    return await this._remove(id, this.withQuery(params, query, true));
  }

  /** Hook-less find; `params.query` holds filters and query together. */
  abstract _find(params?: P): Promise<Paginated<Result> | Result[]>;
  /** Hook-less get. */
  abstract _get(id: I, params?: P): Promise<Result>;
  /** Hook-less create. */
  abstract _create(data: Data | Data[], params?: P): Promise<Result | Result[]>;
  /** Hook-less update. */
  abstract _update(id: I, data: Data, params?: P): Promise<Result>;
  /** Hook-less patch. */
  abstract _patch(id: I | null, data: PatchData, params?: P): Promise<Result | Result[]>;
  /** Hook-less remove. */
  abstract _remove(id: I | null, params?: P): Promise<Result | Result[]>;
}
