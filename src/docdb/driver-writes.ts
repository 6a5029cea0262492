import type {
  AnyBulkWriteOperation,
  Collection,
  Document,
  MongoClient,
  ObjectId,
  ReadConcernLike,
  WriteConcern,
} from 'mongodb';
import type { Query } from '../core/index.js';
import type { DocDbDriverOptions, RecordChange } from './declarations.js';
import { handleDriverError } from './error-handler.js';

/**
 * Changes the one record `query` finds and resolves to it as it is after the change, with the
 * fields of `projection` only, or to `null` when nothing matches. Rejects with the driver's error.
 */
export function changeOneReturning(
  model: Collection<Document>,
  query: Query,
  { operators, replacement }: RecordChange,
  options: DocDbDriverOptions,
  projection: Document | undefined,
): Promise<Document | null> {
  return operators
    ? updateOneReturning(model, query, operators, options, projection)
    : model.findOneAndReplace(query, replacement, afterWrite(options, projection));
}

/** `changeOneReturning` with update operators. */
export function updateOneReturning(
  model: Collection<Document>,
  query: Query,
  update: Document,
  options: DocDbDriverOptions,
  projection: Document | undefined,
): Promise<Document | null> {
  return model.findOneAndUpdate(query, update, afterWrite(options, projection));
}

/** Driver options of a `findOneAnd…` write that answers with the record after it (or `null`). */
function afterWrite(options: DocDbDriverOptions, projection: Document | undefined) {
  return { ...options, projection, returnDocument: 'after' as const, includeResultMetadata: false as const };
}

/**
 * Removes the one record `query` finds and resolves to it as it was, with the fields of
 * `projection` only, or to `null` when nothing matches. Rejects with the driver's error.
 */
export function removeOneReturning(
  model: Collection<Document>,
  query: Query,
  options: DocDbDriverOptions,
  projection: Document | undefined,
): Promise<Document | null> {
  return model.findOneAndDelete(query, { ...options, projection, includeResultMetadata: false });
}

/** Changes the one record `filter` finds. Rejects with the driver's error. */
export function changeOne(
  model: Collection<Document>,
  filter: Document,
  { operators, replacement }: RecordChange,
  options: DocDbDriverOptions,
): Promise<unknown> {
  return operators
    ? model.updateOne(filter, operators, options)
    : model.replaceOne(filter, replacement, options);
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

/** Clients whose deployment answered that it runs no transactions: not asked again. */
const withoutTransactions = new WeakSet<MongoClient>();

/**
 * Runs `write` in a transaction of its own on `model`'s client (in `options.session` when one is
 * given), so that it is all or nothing; `options.writeConcern` and `options.readConcern` become the
 * transaction's, since an operation inside one may not set them. Resolves false, having written
 * nothing, when the deployment runs no transactions (a standalone server answers IllegalOperation,
 * 20; remembered per client) or the collection does not say its client. Rejects with the driver's error.
 */
async function inOwnTransaction(
  model: Collection<Document>,
  options: DocDbDriverOptions,
  write: (options: DocDbDriverOptions) => Promise<unknown>,
): Promise<boolean> {
  const client = (model as { db?: { client?: MongoClient } }).db?.client;
  if (typeof client?.startSession !== 'function' || withoutTransactions.has(client)) return false;
  const { session: given, writeConcern, readConcern, ...rest } = options;
  const session = given ?? client.startSession();
  try {
    await session.withTransaction(() => write({ ...rest, session }), {
      ...(writeConcern === undefined ? {} : { writeConcern: writeConcern as WriteConcern }),
      ...(readConcern === undefined ? {} : { readConcern: readConcern as ReadConcernLike }),
    });
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 20) throw error;
    withoutTransactions.add(client);
    return false;
  } finally {
    if (given === undefined) await session.endSession();
  }
}

/**
 * `updateMany` of the records `ids` (values of `idField`), all or nothing, so a failed multi `patch`
 * leaves nothing half-written: MongoDB applies an update to one document after another and stops at
 * the first it refuses (a unique index, a validator, `$inc` of a string), with the earlier ones
 * changed. It runs in a transaction (the caller's, or one of its own). Only where there are none (a
 * standalone server) are the records read before and put back after a failure, which would also undo
 * what another client wrote to them meanwhile. Throws the mapped driver error.
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
  if (!inTransaction) {
    try {
      const write = (own: DocDbDriverOptions) => model.updateMany(filter, update, own);
      if (await inOwnTransaction(model, options, write)) return;
    } catch (error) {
      handleDriverError(error);
    }
  }
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
