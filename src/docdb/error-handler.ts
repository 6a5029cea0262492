import { describeValue } from '../adapter/index.js';
import { BadRequest, Conflict, GeneralError, isPlumeError, NotFound, Unavailable } from '../errors/index.js';
import type { AdapterId } from './declarations.js';

/** Driver error classes that mean the database cannot be reached right now. */
const UNAVAILABLE_ERRORS = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoPoolClosedError',
  'MongoWaitQueueTimeoutError',
  'MongoOperationTimeoutError',
  'MongoServerClosedError',
]);

/** Server error codes caused by the query or data a caller sent, not by the database. */
const BAD_INPUT_CODES = new Set([
  2, // BadValue
  9, // FailedToParse
  14, // TypeMismatch
  15, // Overflow: a document nested deeper than the database stores, an array index too far out
  28, // PathNotViable
  40, // ConflictingUpdateOperators
  52, // DollarPrefixedFieldName
  56, // DottedFieldName
  57, // DottedFieldName (legacy)
  66, // ImmutableField
  121, // DocumentValidationFailure (collection validator)
  10334, // BSONObjectTooLarge: a document over 16 MiB
  17419, // DocumentTooLarge: an update that would make the document larger than 16 MiB
  15998, // empty field name in a path ('a..b')
  16410, // '$'-prefixed field name in a path
  31249, // projection path collision
  31250, // projection path collision
  31253, // inclusion inside an exclusion projection
  31254, // exclusion inside an inclusion projection
  31324, // positional projection where it is not allowed
  31394, // positional operator in the middle of a path
  40352, // empty field path
  40353, // field path ending in '.'
  51091, // invalid regular expression
  51108, // invalid regular expression flag
]);

/** Server error codes that mean "try again later". */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);

interface DriverErrorShape {
  name?: unknown;
  code?: unknown;
  codeName?: unknown;
  message?: unknown;
  errmsg?: unknown;
  keyValue?: unknown;
  keyPattern?: unknown;
  writeErrors?: unknown;
  errorResponse?: unknown;
  hasErrorLabel?: unknown;
}

function fieldsOf(value: unknown): string[] {
  return typeof value === 'object' && value !== null ? Object.keys(value) : [];
}

/** The fields of a duplicate-key error, from `keyValue`/`keyPattern`, else from "dup key: { a: …, b: … }". */
export function duplicateKeyFields(error: unknown): string[] {
  const candidates: unknown[] = [error];
  const shape = error as DriverErrorShape;
  if (Array.isArray(shape.writeErrors)) {
    for (const writeError of shape.writeErrors as unknown[]) {
      candidates.push(writeError, (writeError as { err?: unknown } | null)?.err);
    }
  }
  if (shape.errorResponse) candidates.push(shape.errorResponse);
  for (const candidate of candidates) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const { keyValue, keyPattern } = candidate as DriverErrorShape;
    const fields = fieldsOf(keyValue).length > 0 ? fieldsOf(keyValue) : fieldsOf(keyPattern);
    if (fields.length > 0) return fields;
  }
  const message = typeof shape.message === 'string' ? shape.message : '';
  const match = /dup key: \{(.*)\}/s.exec(message);
  if (!match?.[1]) return [];
  return [...match[1].matchAll(/(?:^|,)\s*"?([^":,{}\s]+)"?\s*:/g)].map((m) => m[1] ?? '').filter(Boolean);
}

function isDuplicateKey(error: DriverErrorShape): boolean {
  if (error.code === 11000 || error.code === 11001 || error.codeName === 'DuplicateKey') return true;
  return (
    Array.isArray(error.writeErrors) &&
    (error.writeErrors as { code?: unknown }[]).some((w) => w?.code === 11000 || w?.code === 11001)
  );
}

/** True for an error `session.withTransaction` retries; such errors must reach it unchanged. */
export function isRetryableTransactionError(error: unknown): boolean {
  const hasErrorLabel = (error as DriverErrorShape | null)?.hasErrorLabel;
  if (typeof hasErrorLabel !== 'function') return false;
  const check = (label: string): boolean =>
    (hasErrorLabel as (l: string) => boolean).call(error, label) === true;
  return check('TransientTransactionError') || check('UnknownTransactionCommitResult');
}

/**
 * Maps a driver error to a plume error (spec: "Errors"; DESIGN.md status codes) and throws it:
 *
 * - plume errors pass unchanged;
 * - errors labelled `TransientTransactionError`/`UnknownTransactionCommitResult` pass unchanged, so
 *   `session.withTransaction` can retry them;
 * - duplicate key (11000) → `Conflict` (409) naming the field(s), never the index or database;
 * - network, server-selection and time-out errors → `Unavailable` (503);
 * - server errors caused by the query or data (bad value, unknown update operator, immutable field…)
 *   and BSON errors → `BadRequest` (400) with the server's explanation;
 * - anything else → `GeneralError` (500) 'Database error'. The original is always kept as `cause`.
 */
export function handleDriverError(error: unknown): never {
  if (isPlumeError(error)) throw error;
  if (isRetryableTransactionError(error)) throw error;
  const shape = (typeof error === 'object' && error !== null ? error : {}) as DriverErrorShape;
  const name = typeof shape.name === 'string' ? shape.name : '';
  if (isDuplicateKey(shape)) {
    const fields = duplicateKeyFields(error);
    const message =
      fields.length === 0
        ? 'A record with the same unique value already exists'
        : `Duplicate value for ${fields.length > 1 ? 'fields' : 'field'} ${fields.map((f) => `'${f}'`).join(', ')}`;
    throw new Conflict(message, { data: { fields }, cause: error });
  }
  if (UNAVAILABLE_ERRORS.has(name) || (typeof shape.code === 'number' && UNAVAILABLE_CODES.has(shape.code))) {
    throw new Unavailable('The database is unavailable', { cause: error });
  }
  if (name === 'MongoServerError' && typeof shape.code === 'number' && BAD_INPUT_CODES.has(shape.code)) {
    const detail = typeof shape.errmsg === 'string' ? shape.errmsg : String(shape.message);
    throw new BadRequest(`Invalid query or data: ${detail.slice(0, 200)}`, { cause: error });
  }
  if (name === 'BSONError' || name === 'MongoInvalidArgumentError') {
    throw new BadRequest(`Invalid query or data: ${String(shape.message).slice(0, 200)}`, { cause: error });
  }
  throw new GeneralError('Database error', { cause: error });
}

/**
 * Runs a driver call and maps its errors with `handleDriverError`, thrown or rejected. Not an
 * `async` function: a call waiting for the database then holds no suspended frame of it.
 */
export function mapDriverErrors<T>(call: () => Promise<T>): Promise<T> {
  let pending: Promise<T>;
  try {
    pending = call();
  } catch (error: unknown) {
    return Promise.reject(error as Error).then(undefined, handleDriverError);
  }
  return pending.then(undefined, handleDriverError);
}

/** `found`, or throws `NotFound` (404) "No record found for id '<id>'" when it is `null` or `undefined`. */
export function foundOrNotFound<T>(found: T | null | undefined, id: AdapterId): T {
  if (!found) throw new NotFound(`No record found for id '${describeValue(String(id))}'`);
  return found;
}
