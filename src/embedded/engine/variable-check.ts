/**
 * What an expression reads, checked without the rest of expression-check.ts's parse checks: the
 * variables it reads must be defined where it stands (for specs the pipeline check does not otherwise
 * parse, such as window functions or `$redact`, and for command `let` values, whose other errors surface
 * when they are evaluated), and whether it reads the document (a command `let` value may not).
 */
import { checkPathExpression } from './expression-paths.js';
import { isPlainObject } from './values.js';
import { scopedParts, VariableScope } from './variable-scope.js';
import { CommandError } from '../errors.js';

/**
 * Checks every `'$$name'` read in `value` (any expression, or a stage spec holding expressions; not inside
 * `$literal`) against `scope`, widened inside `$let`, `$map`, `$filter` and `$reduce`.
 * @throws CommandError 17276 `Use of undefined variable: <name>` (after `prefix`), or 9 for a badly
 * spelled name, as `checkPathExpression` reports them.
 */
export function checkVariables(value: unknown, scope: VariableScope, prefix = ''): void {
  if (typeof value === 'string') {
    // Only variable reads: a plain string may be a spec value that is not an expression (`unit: 'day'`).
    if (value.startsWith('$$')) checkPathExpression(value, prefix, scope);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) checkVariables(item, scope, prefix);
    return;
  }
  if (!isPlainObject(value)) return;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0]!.startsWith('$')) {
    const operator = keys[0]!;
    if (operator === '$literal') return;
    const parts = scopedParts(operator, value[operator], scope);
    if (parts) {
      for (const [part, inner] of parts) checkVariables(part, inner, prefix);
      return;
    }
  }
  for (const item of Object.values(value)) checkVariables(item, scope, prefix);
}

/**
 * Whether `expr` reads the document it is evaluated on: a field path (`'$a'`, unless `CURRENT` was
 * rebound), `$$ROOT`, `$$CURRENT`, or `$meta` — what MongoDB's dependency analysis counts as a requirement
 * (DepsTracker::hasNoRequirements).
 */
function readsDocument(expr: unknown, scope: VariableScope): boolean {
  if (typeof expr === 'string') {
    if (!expr.startsWith('$')) return false;
    if (!expr.startsWith('$$')) return !scope.rebindsCurrent();
    const name = expr.slice(2).split('.')[0];
    return name === 'ROOT' || (name === 'CURRENT' && !scope.rebindsCurrent());
  }
  if (Array.isArray(expr)) return expr.some((item) => readsDocument(item, scope));
  if (!isPlainObject(expr)) return false;
  const keys = Object.keys(expr);
  if (keys.length === 1 && keys[0]!.startsWith('$')) {
    const operator = keys[0]!;
    if (operator === '$literal') return false;
    if (operator === '$meta') return true;
    const parts = scopedParts(operator, expr[operator], scope);
    if (parts) return parts.some(([part, inner]) => readsDocument(part, inner));
  }
  return Object.values(expr).some((item) => readsDocument(item, scope));
}

/**
 * Whether `expr`, standing where no variable but the system ones is defined, reads the document it is
 * evaluated on (see above): such an expression is not a constant.
 */
export function readsTheDocument(expr: unknown): boolean {
  return readsDocument(expr, VariableScope.root());
}

/**
 * Refuses a command `let` value that reads the document, as MongoDB does: the values are computed before
 * the command reads any document (Variables::seedVariablesWithLetParameters).
 * @throws CommandError 4890500 with MongoDB's message (its missing space included).
 */
export function checkLetValueReadsNoDocument(expr: unknown, scope: VariableScope): void {
  if (readsDocument(expr, scope)) {
    throw new CommandError(
      4890500,
      'Command let Expression tried to access a field, but this is not allowed because' +
        'Command let Expressions run before the query examines any documents.',
    );
  }
}
