import type { HookContext } from '../core/index.js';
import { coercesUnasked, type Validator } from './validator.js';
import { clonePlain } from './clone-plain.js';
import { hasData, type SchemaHook } from './hook-function.js';

/**
 * The marker the adapter looks for on a query that a schema validated: it then uses the query as it is
 * instead of running its own filtering. Equal to the adapter's `VALIDATED`
 * (`Symbol.for('plume/adapter/validated')`), defined here so `plume/schema` does not depend on the adapter.
 */
export const VALIDATED: unique symbol = Symbol.for('plume/adapter/validated') as never;

/** True when `query` was validated by `validateQuery`. */
export function isValidated(query: unknown): boolean {
  return (
    typeof query === 'object' && query !== null && (query as { [VALIDATED]?: unknown })[VALIDATED] === true
  );
}

/** Marks a query object `VALIDATED` (non-enumerable, so it never reaches JSON or a spread copy). */
export function markValidated(query: unknown): void {
  if (typeof query === 'object' && query !== null && !isValidated(query)) {
    Object.defineProperty(query, VALIDATED, { value: true, enumerable: false, configurable: true });
  }
}

/**
 * A hook that validates `context.params.query` (an absent query counts as `{}`) with `validator`
 * (e.g. `getValidator(querySyntax(...), ajv)`), replaces it with the validated, coerced query
 * (`?age[$gt]=20` gives `{ age: { $gt: 20 } }` with a number schema) and marks it `VALIDATED`
 * (non-enumerable) so the adapter trusts it. The caller's query object is not changed (a copy is validated) (spec: SEED.md "Adapter query syntax").
 * Runs before the method, as an around or before hook.
 * @throws BadRequest (400) from the validator, AJV's errors in `errors`.
 */
export function validateQuery(validator: Validator): SchemaHook {
  return async (context, next) => {
    const query = (await validator(clonePlain(context.params.query ?? {}), 'query')) as Record<
      string,
      unknown
    >;
    markValidated(query);
    context.params = { ...context.params, query };
    if (next) await next();
  };
}

/** One validator for every method with data, or validators per method name (methods left out are not checked). */
export type DataValidators = Validator | Partial<Record<string, Validator>>;

function validatorFor(validators: DataValidators, context: HookContext): Validator | undefined {
  if (typeof validators === 'function') return hasData(context.method) ? validators : undefined;
  return validators[context.method];
}

/**
 * Throws `TypeError` (at start-up) for a validator `validateData` must not use: one `getValidator`
 * compiled with an AJV that coerces types (`createValidator()`, `createQueryValidator()`, or any AJV
 * with `coerceTypes`) that `createDataValidator` did not make.
 */
function refuseCoercingValidators(validators: DataValidators): void {
  const list = typeof validators === 'function' ? [validators] : Object.values(validators);
  for (const validator of list) {
    if (validator !== undefined && coercesUnasked(validator)) {
      throw new TypeError(
        "validateData: the validator was compiled with an AJV that coerces types (createValidator() or createQueryValidator() are for queries), so a JSON 12345 sent for a string would be stored as '12345' and null or true as a number. Compile data schemas with createDataValidator().",
      );
    }
  }
}

/**
 * A hook that validates `context.data` and replaces it with the validated (defaulted) data.
 * Takes one validator (used for `create`, `update`, `patch` and custom methods) or
 * `{ create, update, patch, <custom> }` (e.g. a patch schema without `required`), compiled with
 * `createDataValidator()`'s AJV, which does not coerce types: data keeps the types the client sent.
 * An array (multi `create`) is validated item by item. The caller's data object is not changed (a
 * copy is validated). Runs before the method, as an around or before hook.
 * @throws TypeError at once for a validator `getValidator` compiled with a coercing AJV other than a
 * `createDataValidator` one (`createValidator()`'s, `createQueryValidator()`'s).
 * @throws BadRequest (400) from the validator, AJV's errors in `errors` (for arrays, of the first failing item).
 */
export function validateData(validators: DataValidators): SchemaHook {
  refuseCoercingValidators(validators);
  return async (context, next) => {
    const validator = validatorFor(validators, context);
    if (validator !== undefined) {
      const data = context.data;
      context.data = Array.isArray(data)
        ? await Promise.all(data.map((item) => validator(clonePlain(item), 'data')))
        : await validator(clonePlain(data), 'data');
    }
    if (next) await next();
  };
}
