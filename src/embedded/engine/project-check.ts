/**
 * A `$project` stage checked as MongoDB's projection parser checks it: at least one field, field paths
 * without `$` parts or positional `.$`, no empty sub-projection, known operators, and either inclusion or
 * exclusion (computed fields count as inclusion; `_id` may be excluded from an inclusion).
 */
import { checkExpression, isExpressionOperator } from './expression-check.js';
import { checkFieldPath } from './field-path.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError } from '../errors.js';

const PREFIX = 'Invalid $project :: caused by :: ';

function fail(code: number, message: string): never {
  throw new CommandError(code, PREFIX + message);
}

type Kind = 'inclusion' | 'exclusion';

/** Records the kind a field asks for; the first field that is not `_id` decides for the projection. */
function record(state: { kind?: Kind }, path: string, kind: Kind, computed: boolean): void {
  if (path === '_id' && !computed) return;
  state.kind ??= kind;
  if (state.kind === kind) return;
  if (computed) fail(31252, 'Cannot use expression other than $meta in exclusion projection');
  if (kind === 'exclusion') fail(31254, `Cannot do exclusion on field ${path} in inclusion projection`);
  fail(31253, `Cannot do inclusion on field ${path} in exclusion projection`);
}

function walk(spec: Doc, parent: string, state: { kind?: Kind }, scope?: VariableScope): void {
  for (const [field, value] of Object.entries(spec)) {
    checkFieldPath(field, PREFIX, true);
    const path = parent ? `${parent}.${field}` : field;
    if (typeof value === 'number' || typeof value === 'boolean') {
      record(state, path, value === 0 || value === false ? 'exclusion' : 'inclusion', false);
      continue;
    }
    if (!isPlainObject(value)) {
      checkExpression(value, PREFIX, scope);
      record(state, path, 'inclusion', true);
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length === 0)
      fail(51270, 'An empty sub-projection is not a valid value. Found empty object at path');
    const operator = keys[0]!;
    if (!operator.startsWith('$')) {
      walk(value, path, state, scope);
      continue;
    }
    if (keys.length > 1) {
      fail(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.");
    }
    if (!isExpressionOperator(operator)) fail(31325, `Unknown expression ${operator}`);
    if (operator === '$meta') continue;
    checkExpression(value, PREFIX, scope);
    record(state, path, 'inclusion', true);
  }
}

/**
 * Checks a `$project` spec. Errors (message after `Invalid $project :: caused by :: `): 51272 (no field),
 * 51270 (an empty sub-projection), 31253/31254 (inclusion and exclusion mixed), 31252 (a computed field
 * in an exclusion), 31325 (an unknown operator), 31324/31394 (positional paths), the field path errors of
 * `checkFieldPath` and the expression errors of `checkExpression` (17276 for a variable `scope` does not
 * define, when given).
 */
export function checkProject(spec: unknown, scope?: VariableScope): void {
  if (!isPlainObject(spec)) throw new CommandError(15969, '$project specification must be an object');
  if (Object.keys(spec).length === 0) fail(51272, 'projection specification must have at least one field');
  walk(spec, '', {}, scope);
}
