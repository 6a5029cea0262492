/**
 * A projection checked as MongoDB's projection parser checks it (projection_parser.cpp), for `$project`
 * and for find: at least one field (`$project`), field paths without `$` parts, no empty sub-projection,
 * known operators, and either inclusion or exclusion (computed fields and literals count as inclusion;
 * `_id` may be excluded from an inclusion), and no two fields at the same path or at a path and one under
 * it. Find adds its own operators (`$slice`, `$elemMatch`, `$meta`) and positional paths (`a.$`).
 */
import { bsonText, elementText } from './bson-text.js';
import { checkExpression, isExpressionOperator } from './expression-check.js';
import { DBREF_FIELDS } from './dbref-fields.js';
import { checkFieldPath, MIDDLE_POSITIONAL } from './field-path.js';
import { fieldRole, findSliceFailure, operatorKind } from './projection-field.js';
import type { ProjectionKind } from './projection-field.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** How a projection is read: by `$project` (its messages after a prefix) or by find (find-only operators). */
interface Policy {
  find: boolean;
  prefix: string;
  scope?: VariableScope;
}

type Kind = ProjectionKind;

/** What the parse has learnt so far: the kind the first field other than a top-level `_id` decided. */
interface State {
  kind?: Kind;
  /** A find projection's positional field, once one is parsed (31276 for a second one). */
  positional?: string;
  /** Whether a find projection's `$elemMatch` has been parsed (31256 for a positional field after it). */
  elemMatch?: boolean;
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
function addNode(root: Inner, path: string, child: Inner | 'leaf', policy: Policy): void {
  const parts = path.split('.');
  let node = root;
  for (const [i, part] of parts.entries()) {
    const existing = node.get(part);
    if (i === parts.length - 1) {
      if (existing !== undefined) fail(policy, 31250, `Path collision at ${path}`);
      node.set(part, child);
      return;
    }
    if (existing === 'leaf') {
      fail(policy, 31249, `Path collision at ${path} remaining portion ${parts.slice(1).join('.')}`);
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

function fail(policy: Policy, code: number, message: string): never {
  throw new CommandError(code, policy.prefix + message);
}

/**
 * The kind an inclusion or exclusion flag asks for (parseInclusion / parseExclusion). Their messages
 * name the field as its sub-projection spells it (`{ a: 0, o: { p: 1 } }` names `p`), not its full path.
 */
function recordFlag(state: State, field: string, isRoot: boolean, kind: Kind, policy: Policy): void {
  if (field === '_id' && isRoot) return;
  if (state.kind !== undefined && state.kind !== kind) {
    if (kind === 'exclusion')
      fail(policy, 31254, `Cannot do exclusion on field ${field} in inclusion projection`);
    fail(policy, 31253, `Cannot do inclusion on field ${field} in exclusion projection`);
  }
  state.kind = kind;
}

/** A literal (parseLiteral): an inclusion, 31310 in an exclusion, naming the element as MongoDB prints it. */
function recordLiteral(state: State, field: string, value: unknown, policy: Policy): void {
  if (state.kind === 'exclusion') {
    fail(policy, 31310, `Cannot use an expression ${elementText(field, value)} in an exclusion projection`);
  }
  state.kind = 'inclusion';
}

/** An operator expression other than `$meta` (attemptToParseGenericExpression): refused in an exclusion. */
function recordExpression(state: State, policy: Policy, context = ''): void {
  if (state.kind === 'exclusion') {
    fail(policy, 31252, `${context}Cannot use expression other than $meta in exclusion projection`);
  }
  state.kind = 'inclusion';
}

/**
 * A find `$slice`: the find syntax is a leaf that decides no kind; anything else is read as the
 * expression `$slice`, refused in an exclusion with the context MongoDB adds when both syntaxes fail.
 */
function findSlice(value: Doc, state: State, policy: Policy): void {
  const failure = findSliceFailure(value['$slice']);
  if (failure === undefined) return;
  const context =
    `Invalid $slice syntax. The given syntax ${bsonText(value)} did not match the find() syntax because :: ` +
    `${failure} :: The given syntax did not match the expression $slice syntax. :: caused by :: `;
  recordExpression(state, policy, context);
}

/**
 * The inner node a sub-projection `{ path: { … } }` adds its fields to: the one already at `path`
 * (findLastInnerNodeOnPath, so `{ 'a.b': 1, a: { c: 1 } }` shares `a`), else a new one (which collides
 * with a leaf at or on `path`).
 */
function subProjectionNode(parent: Inner, path: string, policy: Policy): Inner {
  let node: Inner | 'leaf' | undefined = parent;
  for (const part of path.split('.')) node = node instanceof Map ? node.get(part) : undefined;
  if (node instanceof Map) return node;
  const inner: Inner = new Map();
  addNode(parent, path, inner, policy);
  return inner;
}

/** A field that is one operator (`{ $add: … }`), parsed as MongoDB parses it. */
function operatorField(
  field: string,
  operator: string,
  value: Doc,
  node: Inner,
  isRoot: boolean,
  state: State,
  policy: Policy,
): void {
  if (policy.find && operator === '$elemMatch') checkFindElemMatch(field, value, isRoot, state, policy);
  const kind = operatorKind(operator, value, policy.find);
  if (policy.find && (operator === '$slice' || operator === '$elemMatch')) {
    if (kind !== undefined) findSlice(value, state, policy);
    addNode(node, field, 'leaf', policy);
    return;
  }
  if (!policy.find && operator === '$elemMatch') {
    fail(policy, ErrorCodes.InvalidPipelineOperator, 'Cannot use $elemMatch in this context');
  }
  if (!isExpressionOperator(operator)) fail(policy, 31325, `Unknown expression ${operator}`);
  // An expression other than $meta is refused in an exclusion before it is parsed, and placed after.
  if (kind !== undefined) {
    recordExpression(state, policy);
    checkExpression(value, policy.prefix, policy.scope);
  }
  addNode(node, field, 'leaf', policy);
}

/**
 * A find projection's `$elemMatch` as parseSubObjectAsExpression (projection_parser.cpp) checks it: a
 * document argument (31274), no positional field before it (31255), a top-level field (31275).
 */
function checkFindElemMatch(field: string, value: Doc, isRoot: boolean, state: State, policy: Policy): void {
  const arg = value['$elemMatch'];
  if (!isPlainObject(arg)) {
    fail(policy, 31274, `elemMatch: Invalid argument, object required, but got ${bsonTypeName(arg)}`);
  }
  if (state.positional !== undefined)
    fail(policy, 31255, 'Cannot specify positional operator and $elemMatch.');
  if (!isRoot || field.includes('.'))
    fail(policy, 31275, 'Cannot use $elemMatch projection on a nested field.');
  state.elemMatch = true;
}

/**
 * A find projection's positional field `field: value` as projection_parser.cpp's parseElement and
 * parseInclusion check it: no part after the `$` (31394); a value that is an inclusion flag, not a
 * document (31271), another literal (31308) or an exclusion flag (31395); one positional field per
 * projection (31276) and no `$elemMatch` before it (31256).
 */
function checkFindPositional(field: string, value: unknown, state: State, policy: Policy): void {
  if (field.includes('.$.')) fail(policy, 31394, MIDDLE_POSITIONAL);
  if (!field.endsWith('.$')) return;
  if (isPlainObject(value)) {
    fail(policy, 31271, 'positional projection cannot be used with an expression or sub object');
  }
  const role = fieldRole(value);
  if (role.role !== 'flag') fail(policy, 31308, 'positional projection cannot be used with a literal');
  if (role.kind === 'exclusion') fail(policy, 31395, 'positional projection cannot be used with exclusion');
  if (state.positional !== undefined)
    fail(policy, 31276, 'Cannot specify more than one positional projection per query.');
  if (state.elemMatch) fail(policy, 31256, 'Cannot specify positional operator and $elemMatch.');
  state.positional = field;
}

function walk(spec: Doc, isRoot: boolean, state: State, node: Inner, policy: Policy): void {
  for (const [field, value] of Object.entries(spec)) {
    // A find's positional `a.$` stands at `a` (its own checks are where it is applied).
    const positional = policy.find && field.endsWith('.$');
    const nodePath = positional ? field.slice(0, -2) : field;
    if (!policy.find) checkFieldPath(field, policy.prefix, true, true);
    else checkFindPositional(field, value, state, policy);
    const role = fieldRole(value);
    if (role.role === 'flag') {
      addNode(node, nodePath, 'leaf', policy);
      recordFlag(state, field, isRoot, role.kind, policy);
    } else if (role.role === 'literal') {
      checkExpression(value, policy.prefix, policy.scope);
      addNode(node, nodePath, 'leaf', policy);
      recordLiteral(state, field, value, policy);
    } else if (role.role === 'empty') {
      fail(policy, 51270, 'An empty sub-projection is not a valid value. Found empty object at path');
    } else if (role.role === 'operator') {
      operatorField(field, role.operator, value as Doc, node, isRoot, state, policy);
    } else {
      // A sub-projection, whose node is placed before its fields are parsed.
      const inner = subProjectionNode(node, field, policy);
      const first = Object.keys(value as Doc)[0]!;
      if (!policy.find && first.startsWith('$') && !DBREF_FIELDS.has(first)) {
        fail(
          policy,
          16410,
          "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
        );
      }
      walk(value as Doc, false, state, inner, policy);
    }
  }
}

/**
 * Checks a `$project` spec. Errors (message after `Invalid $project :: caused by :: `): 51272 (no field),
 * 51270 (an empty sub-projection), 31253/31254 (inclusion and exclusion mixed), 31252 (an operator
 * expression in an exclusion), 31310 (a literal in an exclusion: `{ a: 0, b: 'x' }`), 31325 (an unknown
 * operator), 168 (`$elemMatch`), 31324/31394 (positional paths), 31249/31250 (two fields at colliding
 * paths: `{ a: 1, 'a.b': 1 }`), the field path errors of `checkFieldPath` and the expression errors of
 * `checkExpression` (17276 for a variable `scope` does not define, when given). `stage` names the stage
 * in the prefix, for the stages MongoDB desugars into a `$project` (`$documents`).
 */
export function checkProject(spec: unknown, scope?: VariableScope, stage = '$project'): void {
  if (!isPlainObject(spec)) throw new CommandError(15969, '$project specification must be an object');
  const policy: Policy = { find: false, prefix: `Invalid ${stage} :: caused by :: `, scope };
  if (Object.keys(spec).length === 0)
    fail(policy, 51272, 'projection specification must have at least one field');
  walk(spec, true, {}, new Map(), policy);
}

/**
 * Checks a find projection in `scope` (the command's `let` names), before any document is read: the
 * errors of `checkProject` without its prefix, with `$slice`, `$elemMatch` and `$meta` as find reads
 * them (a `$slice` that is not `n` or `[skip, limit]` is the expression, 31252 in an exclusion, with
 * MongoDB's "Invalid $slice syntax" context) and positional paths allowed. Field names are not checked.
 */
export function checkFindProjectionShape(projection: Doc, scope: VariableScope): void {
  walk(projection, true, {}, new Map(), { find: true, prefix: '', scope });
}
