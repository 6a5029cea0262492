/**
 * The external form (`context.dispatch`) of a result, remembered on the result object itself, so that
 * a record another service returned internally (e.g. the user a virtual `user` resolver fetched with
 * `context.app.service('users').get(id)`) is sent to clients in its own service's external form,
 * without its password hash, as in FeathersJS 5.
 */
const DISPATCH = Symbol.for('plume/schema/dispatch');

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * Remembers `dispatch` as the external form of `result` (a non-enumerable symbol property, so never
 * in JSON or BSON). Primitives and frozen objects cannot carry it and are left alone.
 */
export function setDispatch(result: unknown, dispatch: unknown): void {
  if (!isObject(result) || !Object.isExtensible(result)) return;
  Object.defineProperty(result, DISPATCH, { value: dispatch, enumerable: false, configurable: true });
}

/** The external form of `value`: its remembered dispatch, each item's for an array, else the value. */
function externalValue(value: unknown): unknown {
  if (!isObject(value)) return value;
  if (Object.hasOwn(value, DISPATCH)) return (value as { [DISPATCH]: unknown })[DISPATCH];
  return Array.isArray(value) ? value.map(externalValue) : value;
}

/** A copy of a resolved record whose property values are replaced by their external forms. */
export function withExternalValues(record: unknown): unknown {
  if (!isObject(record) || Array.isArray(record)) return record;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, externalValue(value)]));
}
