/**
 * Writing events to the sync collection: one ordered insertMany per batch, retried when the
 * connection failed under it (a database that restarted leaves closed connections in the driver's
 * pool, and the driver does not retry a write that failed on one of those).
 */
import type { Collection, Document } from 'mongodb';
import { GeneralError } from '../errors/index.js';
import type { SyncRecord } from './declarations.js';

/** Attempts at writing a batch whose connection failed. */
const ATTEMPTS = 3;
/** Wait before the second attempt, in milliseconds (doubled before each further one). */
const RETRY_MS = 200;
/** MongoDB's DuplicateKey. */
const DUPLICATE_KEY = 11000;

/** The driver errors of a connection that failed (the write may or may not have committed). */
const CONNECTION_FAILURES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
]);

function isConnectionFailure(error: unknown): boolean {
  const { name, errorResponse } = (error ?? {}) as { name?: unknown; errorResponse?: { name?: unknown } };
  return CONNECTION_FAILURES.has(String(name)) || CONNECTION_FAILURES.has(String(errorResponse?.name));
}

/** The first document the database refused in an ordered insertMany (those before it are written). */
function firstRefused(error: unknown): { index: number; code?: number } | undefined {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const first = (Array.isArray(writeErrors) ? writeErrors[0] : writeErrors) as
    { index?: unknown; code?: unknown } | undefined;
  return typeof first?.index === 'number'
    ? { index: first.index, code: typeof first.code === 'number' ? first.code : undefined }
    : undefined;
}

/** The error reported for events that were not written: other instances will never receive them. */
export function notWritten(count: number, cause: unknown): GeneralError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new GeneralError(
    `plume/sync: ${count} event(s) not written to the sync collection, so other instances will not receive them: ${reason}`,
    { cause },
  );
}

/**
 * Writes `batch` in order. After a connection failure it writes the batch again (the driver gave each
 * record its `_id` on the first attempt, so a record that had committed is refused as a duplicate and
 * skipped, not written twice), up to {@link ATTEMPTS} times unless `giveUp()` says to stop. A record
 * the database refuses is reported and the ones after it are still written.
 * @param report receives each failure given up on; the records it concerns are not written.
 * @returns false when it gave up on the database (unreachable, or failing every attempt).
 */
export async function writeBatch(
  collection: Collection<Document>,
  batch: SyncRecord[],
  report: (error: unknown) => void,
  giveUp: () => boolean,
): Promise<boolean> {
  let rest = batch;
  let attempt = 1;
  while (rest.length > 0) {
    try {
      await collection.insertMany(rest, { ignoreUndefined: true });
      return true;
    } catch (error) {
      const refused = firstRefused(error);
      if (refused) {
        if (refused.code !== DUPLICATE_KEY || attempt === 1) report(error);
        rest = rest.slice(refused.index + 1);
      } else if (isConnectionFailure(error) && attempt < ATTEMPTS && !giveUp()) {
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 2 ** (attempt - 1)));
        attempt++;
      } else {
        report(notWritten(rest.length, error));
        return false;
      }
    }
  }
  return true;
}
