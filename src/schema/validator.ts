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

function createAjv(coerceTypes: Options['coerceTypes'], options: Options): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, ...options });
  addFormats(ajv);
  ajv.addKeyword(keywordObjectId);
  return ajv;
}

/**
 * Creates the AJV instance for **query** schemas (spec: SEED.md "Object ids", "Adapter query syntax"):
 * `coerceTypes: true`, since a query string holds only text (`?age[$gt]=20` becomes a number where the
 * schema says number; `getValidator` refuses strings not in decimal digits, such as `'0x10'`, and
 * integers too large to be exact, such as `'9007199254740993'`), `useDefaults: true`, the `ajv-formats`
 * formats and the `objectid` keyword (`keywordObjectId`). `options` are passed to AJV and override
 * these defaults (e.g. `{ coerceTypes: 'array' }` so a single `?$select=name` becomes `['name']`).
 * Data is validated with `createDataValidator()`'s AJV instead: `validateData` refuses validators
 * compiled with this one.
 */
export function createQueryValidator(options: Options = {}): Ajv {
  return createAjv(true, options);
}

/**
 * The AJV instance of `createQueryValidator()`, under its first name: it coerces types, so use it for
 * query schemas only (`validateData` refuses validators compiled with it; data is validated with
 * `createDataValidator()`).
 */
export function createValidator(options: Options = {}): Ajv {
  return createQueryValidator(options);
}

/** The AJV instances `createDataValidator` made: their coercion, if any, was asked for. */
const dataAjvs = new WeakSet<Ajv>();

/**
 * Creates the AJV instance for **data** schemas (request bodies: `create`, `update`, `patch`, custom
 * methods): like `createQueryValidator()` but without type coercion, so a JSON `12345` sent where the
 * schema says string is a 400 (`Invalid data: /text must be string`) rather than stored as `'12345'`,
 * and `null` or `true` never become `0` or `1`. Form bodies (urlencoded, multipart) arrive as strings
 * and are validated as they are: describe their fields as strings, or, for a service that only takes
 * forms, ask for coercion with `createDataValidator({ coerceTypes: true })` (the one coercing AJV
 * `validateData` accepts). `options` are passed to AJV and override these defaults.
 */
export function createDataValidator(options: Options = {}): Ajv {
  const ajv = createAjv(false, options);
  dataAjvs.add(ajv);
  return ajv;
}

/** Marks a validator whose AJV coerces types though it was not made by `createDataValidator`. */
const COERCES_UNASKED = Symbol('plume/schema/coerces-unasked');

/**
 * True when `validator` was compiled by `getValidator` with an AJV that coerces types and was not made
 * by `createDataValidator` (which `validateData` refuses: it would change client data silently).
 */
export function coercesUnasked(validator: Validator): boolean {
  return (validator as { [COERCES_UNASKED]?: boolean })[COERCES_UNASKED] === true;
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
 * Compiles `schema` (JSON schema or TypeBox) with `ajv` (default: a new `createQueryValidator()`) into
 * a `Validator`: it validates in place (coercion if `ajv` coerces, defaults, `objectid` conversion) and
 * returns the data, or throws `BadRequest` (400, see `toValidationError`) with AJV's errors in
 * `errors`. With a coercing AJV, a string is coerced to a number only when written in decimal digits
 * (`'20'`, `'-1.5'`) and, for an integer, only when the number is exactly that integer; one AJV alone
 * would read (`'0x10'`, `'1e1'`, `' 5 '`) or round (`'9007199254740993'`) is a 400 naming its path
 * (see decimal-coercion.ts). Schemas with `$async: true` give a validator that returns a promise. A
 * schema with an `$id` already known to `ajv` reuses the compiled version. Compiling throws AJV's own
 * error for an invalid schema (a programming error).
 */
export function getValidator<T = unknown>(schema: object, ajv: Ajv = createQueryValidator()): Validator<T> {
  const id = (schema as { $id?: unknown }).$id;
  const compiled = (typeof id === 'string' ? ajv.getSchema(id) : undefined) ?? ajv.compile(schema);
  const coerces = Boolean(ajv.opts.coerceTypes);
  // Without coercion no string becomes a number: nothing to look for before validating.
  const findStrings = coerces ? findNonDecimalStrings : () => undefined;
  let validator: Validator<T>;
  if ((compiled as { $async?: unknown }).$async === true) {
    validator = async (data, label = 'data') => {
      const nonDecimal = findStrings(data);
      try {
        await (compiled(data) as unknown as Promise<unknown>);
      } catch (error: unknown) {
        if (isAjvValidationError(error)) throw toValidationError(error.errors, label);
        throw error;
      }
      refuseNonDecimalNumbers(nonDecimal, label);
      return data as T;
    };
  } else {
    validator = (data, label = 'data') => {
      const nonDecimal = findStrings(data);
      if (!compiled(data)) throw toValidationError(compiled.errors, label);
      refuseNonDecimalNumbers(nonDecimal, label);
      return data as T;
    };
  }
  if (coerces && !dataAjvs.has(ajv)) {
    Object.defineProperty(validator, COERCES_UNASKED, { value: true });
  }
  return validator;
}
