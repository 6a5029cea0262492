import { GeneralError, errorsByCode } from './classes.js';
import { PlumeError } from './plume-error.js';

/**
 * Turns anything thrown into a `PlumeError`: plume errors pass through; any other value becomes a
 * `GeneralError` (500) whose message is generic, so internals never reach a client. The original is
 * kept as `cause` for logging. Spec: "Errors".
 */
export function toPlumeError(error: unknown): PlumeError {
  if (error instanceof PlumeError) return error;
  return new GeneralError('Internal server error', { cause: error });
}

/**
 * Rebuilds a plume error from its JSON form (e.g. a body received from a plume server).
 * Unknown codes become `GeneralError`.
 */
export function fromJSON(json: {
  message?: unknown;
  code?: unknown;
  data?: unknown;
  errors?: unknown;
}): PlumeError {
  const ErrorClass = (typeof json.code === 'number' && errorsByCode[json.code]) || GeneralError;
  const message = typeof json.message === 'string' ? json.message : undefined;
  return new ErrorClass(message, { data: json.data, errors: json.errors });
}

/**
 * True for a client error thrown by Express or its body parsers (`http-errors`: a 4xx `status` and
 * `expose: true`, e.g. invalid JSON, a request aborted mid-body): an answer for the client, not a
 * server failure. Not a plume error, so `toPlumeError` alone would count it as a 500. Used by both
 * transports' error logging (spec: "Errors"); never throws.
 */
export function isExposedClientError(error: unknown): error is Error & { status: number } {
  if (!(error instanceof Error)) return false;
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true;
}
