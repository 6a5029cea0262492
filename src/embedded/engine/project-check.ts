/**
 * A `$project` stage checked as MongoDB's projection parser checks it: at least one field, field paths
 * without `$` parts or positional `.$`, no empty sub-projection, known operators, and either inclusion or
 * exclusion (computed fields count as inclusion; `_id` may be excluded from an inclusion), and no two
 * fields at the same path or at a path and one under it.
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

/**
 * The tree MongoDB's projection parser builds (projection_ast.h): an inner node maps field names to the
 * nodes under them, a leaf stands for an inclusion, an exclusion or a computed field. It is what makes
 * two fields of one projection collide.
 */
type Inner = Map<string, Inner | 'leaf'>;

/**
 * addNodeAtPath (projection_parser.cpp): puts `child` at `path` (relative to `root`, as the messages
 * print it), creating inner nodes on the way. 31250 when something is already at `path`, 31249 when a
 * leaf stands on the way (its "remaining portion" is the path without its first part, wherever the leaf).
 */
function addNode(root: Inner, path: string, child: Inner | 'leaf'): void {
  const parts = path.split('.');
  let node = root;
  for (const [i, part] of parts.entries()) {
    const existing = node.get(part);
    if (i === parts.length - 1) {
      if (existing !== undefined) fail(31250, `Path collision at ${path}`);
      node.set(part, child);
      return;
    }
    if (existing === 'leaf') {
      fail(31249, `Path collision at ${path} remaining portion ${parts.slice(1).join('.')}`);
    }
    if (existing === undefined) {
      const inner: Inner = new Map();
      node.set(part, inner);
      node = inner;
    } else {
      node = existing;
    }
  }
}

/**
 * The inner node a sub-projection `{ path: { … } }` adds its fields to: the one already at `path`
 * (findLastInnerNodeOnPath, so `{ 'a.b': 1, a: { c: 1 } }` shares `a`), else a new one (which collides
 * with a leaf at or on `path`).
 */
function subProjectionNode(parent: Inner, path: string): Inner {
  let node: Inner | 'leaf' | undefined = parent;
  for (const part of path.split('.')) node = node instanceof Map ? node.get(part) : undefined;
  if (node instanceof Map) return node;
  const inner: Inner = new Map();
  addNode(parent, path, inner);
  return inner;
}

function walk(spec: Doc, parent: string, state: { kind?: Kind }, node: Inner, scope?: VariableScope): void {
  for (const [field, value] of Object.entries(spec)) {
    checkFieldPath(field, PREFIX, true);
    const path = parent ? `${parent}.${field}` : field;
    if (typeof value === 'number' || typeof value === 'boolean') {
      addNode(node, field, 'leaf');
      record(state, path, value === 0 || value === false ? 'exclusion' : 'inclusion', false);
      continue;
    }
    if (!isPlainObject(value)) {
      checkExpression(value, PREFIX, scope);
      addNode(node, field, 'leaf');
      record(state, path, 'inclusion', true);
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length === 0)
      fail(51270, 'An empty sub-projection is not a valid value. Found empty object at path');
    const operator = keys[0]!;
    if (!operator.startsWith('$') || keys.length > 1) {
      // Not an expression: a sub-projection, whose node is placed before its fields are parsed.
      const inner = subProjectionNode(node, field);
      if (operator.startsWith('$')) {
        fail(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.");
      }
      walk(value, path, state, inner, scope);
      continue;
    }
    if (!isExpressionOperator(operator)) fail(31325, `Unknown expression ${operator}`);
    // An expression other than $meta is refused in an exclusion before it is parsed, and placed after.
    if (operator !== '$meta') {
      record(state, path, 'inclusion', true);
      checkExpression(value, PREFIX, scope);
    }
    addNode(node, field, 'leaf');
  }
}

/**
 * Checks a `$project` spec. Errors (message after `Invalid $project :: caused by :: `): 51272 (no field),
 * 51270 (an empty sub-projection), 31253/31254 (inclusion and exclusion mixed), 31252 (a computed field
 * in an exclusion), 31325 (an unknown operator), 31324/31394 (positional paths), 31249/31250 (two fields
 * at colliding paths: `{ a: 1, 'a.b': 1 }`), the field path errors of
 * `checkFieldPath` and the expression errors of `checkExpression` (17276 for a variable `scope` does not
 * define, when given).
 */
export function checkProject(spec: unknown, scope?: VariableScope): void {
  if (!isPlainObject(spec)) throw new CommandError(15969, '$project specification must be an object');
  if (Object.keys(spec).length === 0) fail(51272, 'projection specification must have at least one field');
  walk(spec, '', {}, new Map(), scope);
}
