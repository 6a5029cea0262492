import type { Collection, Document } from 'mongodb';
import type { DocDbServiceOptions } from './declarations.js';

/**
 * Throws a `TypeError` when `options.Model` is missing. A `Model` promise gets a rejection handler, so
 * that its rejection is reported by the first call that needs the collection, never as an
 * unhandled rejection.
 */
export function checkModelOption(options: { Model?: unknown } | null | undefined): void {
  if (
    typeof options !== 'object' ||
    options === null ||
    options.Model === undefined ||
    options.Model === null
  ) {
    throw new TypeError('DocDbService needs the Model option: a Collection or a Promise of one');
  }
  if (options.Model instanceof Promise) options.Model.catch(() => undefined);
}

/** True for a promise or any object with a `then` method. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/**
 * The `Model` of a call: `params.adapter.Model` when the call sets it, else the service's
 * `serviceModel`. The same as `getOptions(params).Model`, without copying every option on each call.
 */
export function modelOption(
  serviceModel: unknown,
  adapter: Partial<DocDbServiceOptions> | undefined,
): unknown {
  return adapter !== undefined && 'Model' in adapter ? adapter.Model : serviceModel;
}

/**
 * The collection a service's `Model` promise resolved to. A settled promise never changes, so the
 * service keeps the last one and later calls need not wait for the promise again (a rejection is
 * not kept: it is reported again).
 */
export class ResolvedModel {
  private from: PromiseLike<unknown> | undefined;
  private collection: Collection<Document> | undefined;

  /** Keeps `collection` as what `Model` resolved to. */
  remember(Model: PromiseLike<unknown>, collection: Collection<Document>): void {
    this.from = Model;
    this.collection = collection;
  }

  /** The collection `Model` resolved to, when it is the promise remembered; else `undefined`. */
  of(Model: PromiseLike<unknown>): Collection<Document> | undefined {
    return this.from === Model ? this.collection : undefined;
  }

  /**
   * The collection `Model` stands for when it is known without waiting: `Model` itself when it is
   * no promise, the collection of the remembered promise; else `undefined`.
   */
  known(Model: unknown): Collection<Document> | undefined {
    return isThenable(Model) ? this.of(Model) : (Model as Collection<Document> | undefined);
  }
}
