import type { ClientSession, CollationOptions, Collection, Document, ObjectId } from 'mongodb';
import type { AdapterParams, AdapterServiceOptions } from '../adapter/index.js';
import type { Id, Query } from '../core/index.js';
import type { ObjectIdClass } from './object-id.js';

/** A record id for `DocDbService`: a string or number, or a driver `ObjectId`. */
export type AdapterId = Id | ObjectId;
/** An id, or `null` for every match of the query (multi `patch`/`remove`). */
export type NullableAdapterId = AdapterId | null;

/**
 * Options of `DocDbService` (spec: "Service options (adapter)"). `T` is the collection's document
 * type, as in the driver's `db.collection<T>(name)`.
 */
export interface DocDbServiceOptions<T extends Document = Document> extends AdapterServiceOptions {
  /**
   * The collection, or a Promise of it (e.g. an async function's return value used without
   * `await`, which can also create indexes). Required.
   */
  Model: Collection<T> | Promise<Collection<T>>;
  /** When true, ids stay as given instead of becoming `ObjectId`s. Default false. */
  disableObjectify?: boolean;
  /** When true, unfiltered totals use `estimatedDocumentCount()`. Default false. */
  useEstimatedDocumentCount?: boolean;
  /**
   * The `ObjectId` class of the driver `Model` comes from. Default: `ObjectId` of plume's `mongodb`
   * (v7). Set it when the collection comes from another major version, e.g. your own `mongodb@6`,
   * whose serializer refuses ObjectIds of another `bson` major version.
   */
  ObjectId?: ObjectIdClass;
  /** Update operators refused in `patch`/`update` data with a 400. Default `['$rename']`. */
  disabledOperators?: string[];
}

/**
 * Driver options passed to every database call of a service method (spec: "Custom params
 * (adapter)"), e.g. `session`, `collation`, `hint`, `upsert`. Never from clients.
 */
export interface DocDbDriverOptions {
  session?: ClientSession;
  collation?: CollationOptions;
  [option: string]: unknown;
}

/**
 * Params of `DocDbService` methods (spec: "Custom params (adapter)"). `pipeline`, `docdb` and
 * `adapter` are server-side only: transports put client input in `params.query` alone.
 */
export interface DocDbParams<Q = Query> extends AdapterParams<Q, DocDbServiceOptions> {
  /** Aggregation stages; `find`, `get`, `update`, `patch` and `remove` then read through them. */
  pipeline?: Document[];
  /** Driver options for every database call of this method call. */
  docdb?: DocDbDriverOptions;
  /** Collation for `find`, `remove` and `patch` (and their counts), e.g. `{ locale: 'en', strength: 1 }`. */
  collation?: CollationOptions;
}

/** A record change of `update`, as `makeUpdate` returns it: update operators, or a whole replacement. */
export type RecordChange =
  { operators: Document; replacement?: undefined } | { replacement: Document; operators?: undefined };
