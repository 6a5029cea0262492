/**
 * The expressions of a `find` projection, checked as MongoDB's projection parser checks them
 * (projection_parser.cpp) before it reads a document: a computed field (`{ r: { $toUpper: '$a' } }`), a
 * literal (`{ r: '$$x' }`, `{ r: ['$a'] }`) or an object whose first field is an unknown `$`-name are
 * parsed as aggregation expressions in the command's variable scope, so an undefined variable is 17276,
 * an unknown operator nested in an expression is 168 and an unknown top-level one is 31325, even on an
 * empty collection. Inclusion and exclusion flags and the find-only `$slice`, `$elemMatch` and `$meta`
 * are checked where they are applied (read.ts, find-slice.ts).
 */
import { numberKind } from './arithmetic.js';
import { checkExpression, isExpressionOperator } from './expression-check.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError } from '../errors.js';

/** The `find`-only projection operators, which are not aggregation expressions there. */
const FIND_OPERATORS = new Set(['$slice', '$elemMatch', '$meta']);

/** `$`-names a field path may hold (DBRef fields): `{ a: { $id: 1 } }` is a sub-projection. */
const DBREF_FIELDS = new Set(['$id', '$ref', '$db']);

/**
 * Checks every expression of a find projection in `scope`.
 * @throws CommandError 31325 `Unknown expression <name>`, or the errors of `checkExpression` (17276 for an
 * undefined variable, 168 for an unknown nested operator, 16020 for a wrong argument count …).
 */
export function checkFindProjection(projection: Doc, scope: VariableScope): void {
  for (const value of Object.values(projection)) {
    // Booleans and numbers of every BSON type are inclusion or exclusion flags (isInclusionOrExclusionType).
    if (typeof value === 'boolean' || numberKind(value) !== undefined) continue;
    if (!isPlainObject(value)) {
      checkExpression(value, '', scope);
      continue;
    }
    const keys = Object.keys(value);
    const first = keys[0];
    if (keys.length === 1 && first!.startsWith('$')) {
      if (FIND_OPERATORS.has(first!)) continue;
      if (isExpressionOperator(first!)) {
        checkExpression(value, '', scope);
        continue;
      }
      // MongoDB reads it as a sub-projection only when the name is a valid field path.
      if (!DBREF_FIELDS.has(first!)) throw new CommandError(31325, `Unknown expression ${first!}`);
    }
    checkFindProjection(value, scope);
  }
}
