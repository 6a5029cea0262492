import { Ajv, type ErrorObject, type Options } from 'ajv';
import { default as addFormatsModule } from 'ajv-formats';
import { BadRequest } from '../errors/index.js';
import { findNonDecimalStrings, refuseNonDecimalNumbers } from './decimal-coercion.js';
import { keywordObjectId } from './object-id-keyword.js';

// ajv-formats is CommonJS: depending on the loader its default export is the function or a namespace.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/**
 * A validator as the hooks take it: resolves to the (coerced, defaulted) data or throws/rejects with
 * `BadRequest`. `label` (`'query'`, `'data'`; the hooks pass it) names the input in error messages.
 * `getValidator` builds one from a schema; any function of this shape works.
 */
export type Validator<T = unknown> = (data: unknown, label?: string) => T | Promise<T>;

/**
 * Creates the AJV instance plume's schemas expect (spec: SEED.md "Object ids", "Adapter query syntax"):
 * `coerceTypes: true` (query strings such as `'20'` become numbers where the schema says number;
 * `getValidator` refuses strings not in decimal digits, such as `'0x10'`),
 * `useDefaults: true`, the `ajv-formats` formats and the `objectid` keyword (`keywordObjectId`).
 * `options` are passed to AJV and override these defaults (e.g. `{ coerceTypes: 'array' }` so a single
 * `?$select=name` becomes `['name']`).
 */
export function createValidator(options: Options = {}): Ajv {
  const ajv = new Ajv({ coerceTypes: true, useDefaults: true, ...options });
  addFormats(ajv);
  ajv.addKeyword(keywordObjectId);
  return ajv;
}

const keywordRank: Readonly<Record<string, number>> = {
  anyOf: 3,
  oneOf: 3,
  if: 3,
  type: 2,
  // an id that is not an id is a type mismatch, less telling than an unknown operator next to it
  objectid: 2,
  const: 1,
  enum: 1,
};

/** The most specific error: the deepest path, then anything before type and combinator errors. */
function pickError(errors: ErrorObject[]): ErrorObject | undefined {
  let best: ErrorObject | undefined;
  for (const error of errors) {
    if (
      best === undefined ||
      error.instancePath.length > best.instancePath.length ||
      (error.instancePath.length === best.instancePath.length &&
        (keywordRank[error.keyword] ?? 0) < (keywordRank[best.keyword] ?? 0))
    ) {
      best = error;
    }
  }
  return best;
}

function describeError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return `must NOT have additional property '${params.additionalProperty}'`;
  }
  return error.message ?? 'is invalid';
}

/**
 * Turns AJV errors into the 400 plume answers with: `BadRequest` whose message names the most specific
 * failing path (e.g. `Invalid query: /age/$gt must be number`) and whose `errors` are AJV's error objects.
 * `label` names what was validated (`'query'`, `'data'`).
 */
export function toValidationError(
  errors: readonly ErrorObject[] | null | undefined,
  label = 'data',
): BadRequest {
  const list = [...(errors ?? [])];
  const first = pickError(list);
  const where = first === undefined || first.instancePath === '' ? '' : `${first.instancePath} `;
  const message = first === undefined ? 'is invalid' : describeError(first);
  return new BadRequest(`Invalid ${label}: ${where}${message}`, { errors: list });
}

function isAjvValidationError(error: unknown): error is { errors: ErrorObject[] } {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { validation?: unknown }).validation === true &&
    Array.isArray((error as { errors?: unknown }).errors)
  );
}

/**
 * Compiles `schema` (JSON schema or TypeBox) with `ajv` (default: a new `createValidator()`) into a
 * `Validator`: it validates in place (coercion, defaults, `objectid` conversion) and returns the data,
 * or throws `BadRequest` (400, see `toValidationError`) with AJV's errors in `errors`. A string is
 * coerced to a number only when written in decimal digits (`'20'`, `'-1.5'`); one AJV alone would
 * read (`'0x10'`, `'1e1'`, `' 5 '`) is a 400 naming its path (see decimal-coercion.ts). Schemas with
 * `$async: true` give a validator that returns a promise. A schema with an `$id` already known to `ajv`
 * reuses the compiled version. Compiling throws AJV's own error for an invalid schema (a programming error).
 */
export function getValidator<T = unknown>(schema: object, ajv: Ajv = createValidator()): Validator<T> {
  const id = (schema as { $id?: unknown }).$id;
  const compiled = (typeof id === 'string' ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema);
  if ((compiled as { $async?: unknown }).$async === true) {
    return async (data, label = 'data') => {
      const nonDecimal = findNonDecimalStrings(data);
      try {
        await (compiled(data) as unknown as Promise<unknown>);
      } catch (error: unknown) {
        if (isAjvValidationError(error)) throw toValidationError(error.errors, label);
        throw error;
      }
      refuseNonDecimalNumbers(nonDecimal, label);
      return data as T;
    };
  }
  return (data, label = 'data') => {
    const nonDecimal = findNonDecimalStrings(data);
    if (!compiled(data)) throw toValidationError(compiled.errors, label);
    refuseNonDecimalNumbers(nonDecimal, label);
    return data as T;
  };
}
