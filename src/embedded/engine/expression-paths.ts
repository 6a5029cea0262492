/**
 * Field paths (`'$a.b'`) and variable references (`'$$name.a'`) inside aggregation expressions, and the
 * names expressions bind (`$let` vars, `$map`/`$filter`/`$reduce` `as`), checked as MongoDB checks them
 * when it parses the pipeline: `'$'` alone is 16872, a bad variable name is FailedToParse (9), a bad path
 * part has FieldPath's codes. mingo would read such a path as a missing field or an undefined variable,
 * and only once a document reached it; MongoDB refuses the pipeline even on an empty collection.
 *
 * Whether a variable is defined is checked only when the caller knows the scope (variable-scope.ts): a
 * caller without one (e.g. a check outside a pipeline) gets the spelling checks alone.
 */
import { DBREF_FIELDS } from './dbref-fields.js';
import { checkDefined } from './variable-scope.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** A letter, digit or `_` after the first character; any non-ASCII character is allowed too. */
const isNameChar = (c: string): boolean => /[A-Za-z0-9_]/.test(c) || c > '\u007f';

/**
 * Checks a variable name; `write` is the stricter rule for names an expression binds (the first
 * character a lower-case letter), else the rule for names read with `$$` (any letter first).
 */
function checkName(name: string, write: boolean, prefix: string): void {
  if (write && name === 'CURRENT') return; // the one system variable users may rebind
  const fail = (message: string): never => {
    throw new CommandError(ErrorCodes.FailedToParse, prefix + message);
  };
  if (name === '') fail('empty variable names are not allowed');
  const first = name[0]!;
  if (!(write ? /[a-z]/ : /[A-Za-z]/).test(first) && first <= '\u007f') {
    fail(`'${name}' starts with an invalid character for a user variable name`);
  }
  for (const c of name.slice(1)) {
    if (!isNameChar(c)) fail(`'${name}' contains an invalid character for a variable name: '${c}'`);
  }
}

/** Checks the name a `$let`, `$map`, `$filter` or `$reduce` binds (MongoDB's rule for user writes). */
export function checkBoundName(name: string, prefix = ''): void {
  checkName(name, true, prefix);
}

/** The dotted part of a path, checked as MongoDB's FieldPath constructor checks it. */
function checkDotted(path: string, prefix: string): void {
  const fail = (code: number, message: string): never => {
    throw new CommandError(code, prefix + message);
  };
  if (path.endsWith('.')) fail(40353, "FieldPath must not end with a '.'.");
  for (const part of path.split('.')) {
    if (part === '') fail(15998, 'FieldPath field names may not be empty strings.');
    if (part.startsWith('$') && !DBREF_FIELDS.has(part)) {
      fail(16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField.");
    }
  }
}

/**
 * Checks a string in expression position that starts with `$`: a field path, or with `$$` a variable
 * and an optional path below it, in MongoDB's order (ExpressionFieldPath::parse: the name, whether it is
 * defined, then the path). Errors, after `prefix`: 16872 for `'$'`, 9 for a bad variable name, 17276 for
 * a variable `scope` does not define (only when `scope` is given), 40353 / 15998 / 16410 for a bad path.
 */
export function checkPathExpression(raw: string, prefix = '', scope?: VariableScope): void {
  if (raw === '$') throw new CommandError(16872, `${prefix}'$' by itself is not a valid FieldPath`);
  if (!raw.startsWith('$$')) {
    checkDotted(raw.slice(1), prefix);
    return;
  }
  const rest = raw.slice(2);
  const dot = rest.indexOf('.');
  const name = dot === -1 ? rest : rest.slice(0, dot);
  checkName(name, false, prefix);
  if (scope) checkDefined(name, scope, prefix);
  checkDotted(rest, prefix);
}
