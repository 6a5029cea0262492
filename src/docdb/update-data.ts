import type { Document } from 'mongodb';
import { checkRegexPattern, describeValue, FORBIDDEN_OPERATORS, isPlainObject } from '../adapter/index.js';
import { BadRequest } from '../errors/index.js';

/** Update operators refused by default: `$rename` can move any field, including protected ones. */
export const DEFAULT_DISABLED_OPERATORS: readonly string[] = ['$rename'];

function checkData(data: unknown, method: string): Record<string, unknown> {
  if (!isPlainObject(data)) throw new BadRequest(`The data of ${method} must be an object`);
  return data;
}

/**
 * Checks the conditions of a `$pull`, which the database reads as a query on the array's elements:
 * the query operators no client query may use (`$where`, `$function`, `$accumulator`, `$expr`) are
 * refused there too, and `$regex` patterns pass the same guard against catastrophic backtracking as
 * in queries. Throws `BadRequest` (400).
 */
function checkPullConditions(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) checkPullConditions(item);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (FORBIDDEN_OPERATORS.includes(key)) throw new BadRequest(`Query operator '${key}' is not allowed`);
    if (key === '$regex' && typeof inner === 'string') checkRegexPattern(inner);
    checkPullConditions(inner);
  }
}

function checkOperator(key: string, value: unknown, disabled: readonly string[]): void {
  if (disabled.includes(key) || FORBIDDEN_OPERATORS.includes(key)) {
    throw new BadRequest(`Update operator '${key}' is not allowed`);
  }
  if (!isPlainObject(value)) {
    throw new BadRequest(
      `The value of update operator '${key}' must be an object, got '${describeValue(value)}'`,
    );
  }
  if (key === '$pull') checkPullConditions(value);
}

/**
 * Builds the update document of `patch` (spec: "Adapter query syntax"): plain fields go into `$set`
 * (merged with a `$set` the data carries), other update operators (`$push`, `$inc`, `$unset`, …)
 * pass through. `_id` is never set. Returns `undefined` when nothing would change.
 *
 * Throws `BadRequest` (400) for non-object data, an operator in `disabled` (default `$rename`) or
 * with a non-object value, and a `$pull` condition with a refused query operator or `$regex`.
 */
export function makePatchUpdate(data: unknown, disabled: readonly string[]): Document | undefined {
  const fields = checkData(data, 'patch');
  const update: Document = {};
  const set: Document = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === '_id') continue;
    if (key.startsWith('$')) {
      checkOperator(key, value, disabled);
      if (key === '$set') Object.assign(set, value);
      else update[key] = value;
    } else {
      set[key] = value;
    }
  }
  delete set._id;
  if (Object.keys(set).length > 0) update.$set = set;
  return Object.keys(update).length > 0 ? update : undefined;
}

/**
 * Splits `update` data (spec: "The update method also accepts native update operators"): data made
 * only of update operators is returned as `{ operators }`; plain data as `{ replacement }` without
 * `_id` (and with `idField` set to `id` for a custom id field).
 *
 * Throws `BadRequest` (400) for non-object data, data mixing operators and fields, or a refused operator.
 */
export function makeUpdate(
  data: unknown,
  disabled: readonly string[],
  idField: string,
  id: unknown,
): { operators: Document; replacement?: undefined } | { replacement: Document; operators?: undefined } {
  const fields = checkData(data, 'update');
  const keys = Object.keys(fields);
  const operatorKeys = keys.filter((key) => key.startsWith('$'));
  if (operatorKeys.length > 0) {
    if (operatorKeys.length !== keys.length) {
      throw new BadRequest('The data of update must be either a whole record or only update operators');
    }
    for (const key of operatorKeys) checkOperator(key, fields[key], disabled);
    return { operators: fields };
  }
  const replacement: Document = { ...fields };
  delete replacement._id;
  if (idField !== '_id') replacement[idField] = id;
  return { replacement };
}
