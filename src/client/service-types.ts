/* eslint-disable @typescript-eslint/no-explicit-any -- `(...args: any) => infer R` is how TypeScript infers from any function signature. */
import type { ClientParams, EventStream, Id, Query } from './declarations.js';

/** The paginated answer of `find` when the service paginates: `{ total, limit, skip, data }`. */
export interface Paginated<T> {
  /** Number of records the query matches (before `$skip`/`$limit`). */
  total: number;
  /** The page size used. */
  limit: number;
  /** Number of records skipped. */
  skip: number;
  data: T[];
}

/**
 * What a value of type `T` becomes after the trip through JSON: values with `toJSON()` become its
 * result (`Date` and `ObjectId` → `string`), arrays and objects are mapped field by field, and an
 * async iterable (a Server-Sent Events answer) becomes an `EventStream` of its items.
 */
export type Json<T> = T extends { toJSON(): infer J }
  ? J
  : T extends AsyncIterable<infer Item>
    ? EventStream<Json<Item>>
    : T extends readonly (infer Item)[]
      ? Json<Item>[]
      : T extends (...args: any) => any
        ? never
        : T extends object
          ? { [K in keyof T]: Json<T[K]> }
          : T;

/**
 * `S` with `find` narrowed to one answer shape, for service maps: `Paginate<MessageService>` answers
 * `Paginated<Result>` (the service has `paginate` set), `Paginate<MessageService, false>` answers
 * `Result[]`. Pagination is a runtime option, so a service type alone says "either".
 */
export type Paginate<S, On extends boolean = true> = Omit<S, 'find'> & {
  find(params?: any): Promise<On extends true ? Paginated<ResultOf<S, 'get'>> : ResultOf<S, 'get'>[]>;
};

type MethodOf<S, M extends PropertyKey> = M extends keyof S ? NonNullable<S[M]> : never;
type Returned<F> = F extends (...args: any) => infer R ? Awaited<R> : unknown;
type NotArray<T> = Exclude<T, readonly unknown[]>;
/** One record of `M`'s answer (without the array form of multi calls); `find`'s items for services without `get`. */
type ResultOf<S, M extends PropertyKey> = [MethodOf<S, M>] extends [never]
  ? unknown
  : NotArray<Returned<MethodOf<S, M>>>;
type QueryOf<S> =
  MethodOf<S, 'find'> extends (params?: { query?: infer Q }, ...rest: any) => any
    ? unknown extends Q
      ? Query
      : Q
    : Query;
type DataOf<S, M extends PropertyKey, Position extends 0 | 1> =
  MethodOf<S, M> extends (...args: infer A) => any ? NotArray<A[Position]> : unknown;

/** The standard methods of a client service, typed from the server's service `S`. */
interface StandardMethods<S> {
  /** `GET /<path>?<query>`: the records (`Paginated<T>` when the service paginates), or an `EventStream` for an SSE answer. */
  find(params?: ClientParams<QueryOf<S>>): Promise<Json<Returned<MethodOf<S, 'find'>>>>;
  /** `GET /<path>/<id>`: one record. */
  get(id: Id, params?: ClientParams<QueryOf<S>>): Promise<Json<ResultOf<S, 'get'>>>;
  /** `POST /<path>`: the created record, or records when `data` is an array (the service's `multi` must allow it). */
  create(
    data: DataOf<S, 'create', 0>,
    params?: ClientParams<QueryOf<S>>,
  ): Promise<Json<ResultOf<S, 'create'>>>;
  create(
    data: DataOf<S, 'create', 0>[],
    params?: ClientParams<QueryOf<S>>,
  ): Promise<Json<ResultOf<S, 'create'>>[]>;
  /** `PUT /<path>/<id>`: replaces a record; with `id` `null`, every record the query matches (`multi`). */
  update(
    id: Id,
    data: DataOf<S, 'update', 1>,
    params?: ClientParams<QueryOf<S>>,
  ): Promise<Json<ResultOf<S, 'update'>>>;
  update(
    id: null,
    data: DataOf<S, 'update', 1>,
    params?: ClientParams<QueryOf<S>>,
  ): Promise<Json<ResultOf<S, 'update'>>[]>;
  /** `PATCH /<path>/<id>`: merges `data` into a record; with `id` `null`, into every record the query matches (`multi`). */
  patch(
    id: Id,
    data: DataOf<S, 'patch', 1>,
    params?: ClientParams<QueryOf<S>>,
  ): Promise<Json<ResultOf<S, 'patch'>>>;
  patch(
    id: null,
    data: DataOf<S, 'patch', 1>,
    params?: ClientParams<QueryOf<S>>,
  ): Promise<Json<ResultOf<S, 'patch'>>[]>;
  /** `DELETE /<path>/<id>`: the removed record; with `id` `null`, every record the query matches (`multi`). */
  remove(id: Id, params?: ClientParams<QueryOf<S>>): Promise<Json<ResultOf<S, 'remove'>>>;
  remove(id: null, params?: ClientParams<QueryOf<S>>): Promise<Json<ResultOf<S, 'remove'>>[]>;
}

/** Names of server-side members that are never custom methods: lifecycle, hooks, events and adapter internals. */
type NotCustom =
  | keyof StandardMethods<unknown>
  | 'setup'
  | 'teardown'
  | 'hooks'
  | 'on'
  | 'once'
  | 'off'
  | 'emit'
  | 'getOptions'
  | 'allowsMulti'
  | 'sanitizeQuery'
  | 'getModel'
  | 'getObjectId'
  | 'prepareQuery'
  | 'driverOptions'
  | 'findRaw'
  | 'aggregateRaw'
  | 'makeFeathersPipeline'
  | 'countDocuments'
  | `_${string}`;

type CustomNames<S> = {
  [K in keyof S & string]: K extends NotCustom
    ? never
    : NonNullable<S[K]> extends (...args: any) => Promise<any>
      ? K
      : never;
}[keyof S & string];

/** A custom method from the client: `POST /<path>` with `X-Service-Method: <name>` and `data` as the JSON body. */
export type CustomMethod<Data = unknown, Result = unknown> = (
  data: Data,
  params?: ClientParams,
) => Promise<Result>;

/**
 * The client side of a server service `S`: the standard methods `S` has, plus its custom methods
 * (`(data, params) => Promise<result>`, results as they come out of JSON). An untyped service
 * (`S` = `unknown`) has every standard method and `call(name, data)` style access through any name.
 */
export type ServiceClient<S> = unknown extends S
  ? StandardMethods<unknown> & { readonly path: string } & Record<string, CustomMethod>
  : Pick<StandardMethods<S>, keyof StandardMethods<S> & keyof S> & {
      readonly path: string;
    } & {
      [K in CustomNames<S>]: CustomMethod<DataOf<S, K, 0>, Json<Returned<MethodOf<S, K>>>>;
    };

/**
 * The service map of an app type: `typeof app` (an `Application<Services>`) gives `Services`; a map
 * `{ messages: MessageService }` is used as it is.
 */
export type ServicesOf<App> = string extends keyof App
  ? App
  : App extends { '~services'?: { types(services: infer Services): void } }
    ? Services
    : App;
