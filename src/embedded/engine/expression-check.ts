/**
 * Aggregation expressions checked as MongoDB parses them, before any document is read: an unknown
 * operator fails with 168 `InvalidPipelineOperator` even on an empty collection (mingo would only find out
 * when a document reached it, and with code 2).
 */
import { OpType } from 'mingo/core';
import { bsonText } from './bson-text.js';
import { CONTEXT } from './context.js';
import { checkDateFromString } from './date-from-string-fold.js';
import { FIXED_ARITY, LEAST_ARITY, RANGED_ARITY } from './expression-arity.js';
import { checkPathExpression } from './expression-paths.js';
import { checkFoldedErrors } from './folded-errors.js';
import { checkOperatorArguments } from './operator-arguments.js';
import { isPlainObject } from './values.js';
import { scopedParts } from './variable-scope.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * Whether `name` is an expression operator. The accumulators MongoDB also evaluates as expressions
 * (`$sum`, `$avg`, `$first`, `$minN`, `$median` …) are registered as expressions too; the others
 * (`$push`, `$addToSet`, `$top`, `$count` …) are not expressions in MongoDB 7.0 (168).
 */
export function isExpressionOperator(name: string): boolean {
  return (
    name === '$meta' || // rewritten by aggregate.ts before mingo sees it
    CONTEXT.getOperator(OpType.EXPRESSION, name) !== null
  );
}

/** Whether `name` is an accumulator a `$group` field may use. */
export function isAccumulatorOperator(name: string): boolean {
  return CONTEXT.getOperator(OpType.ACCUMULATOR, name) !== null;
}

/**
 * Checks an expression and everything inside it (not inside `$literal`). Errors, after `prefix`: 168 for
 * an unknown operator, 15983 for an operator object with more than one field, 28667 for a ranged-arity
 * operator given too few or too many arguments, 16020 for a fixed-arity
 * operator given another number of arguments, 1257300/17045 for `$ifNull`/`$setEquals` given fewer than two, 16410 for an object literal with a `$`-prefixed field,
 * the field path and variable errors of `checkPathExpression` (17276 for a variable `scope` does not
 * define, when a scope is given; `$let`, `$map`, `$filter` and `$reduce` widen it for the arguments that
 * see their names), the argument errors of `checkOperatorArguments`; then the errors MongoDB finds when
 * it folds constants (`checkFoldedErrors`, and `checkDateFromString` for `$dateFromString`).
 */
export function checkExpression(expr: unknown, prefix = '', scope?: VariableScope): void {
  if (typeof expr === 'string') {
    if (expr.startsWith('$')) checkPathExpression(expr, prefix, scope);
    return;
  }
  if (Array.isArray(expr)) {
    for (const item of expr) checkExpression(item, prefix, scope);
    return;
  }
  if (!isPlainObject(expr)) return;
  const keys = Object.keys(expr);
  const first = keys[0];
  if (first?.startsWith('$')) {
    if (keys.length > 1) {
      throw new CommandError(
        15983,
        `${prefix}An object representing an expression must have exactly one field: ${bsonText(expr)}`,
      );
    }
    if (!isExpressionOperator(first)) {
      throw new CommandError(
        ErrorCodes.InvalidPipelineOperator,
        `${prefix}Unrecognized expression '${first}'`,
      );
    }
    const arity = FIXED_ARITY.get(first);
    const argument = expr[first];
    const count = Array.isArray(argument) ? argument.length : 1;
    if (arity !== undefined && count !== arity) {
      throw new CommandError(
        16020,
        `${prefix}Expression ${first} takes exactly ${arity} arguments. ${count} were passed in.`,
      );
    }
    const range = RANGED_ARITY.get(first);
    if (range !== undefined && (count < range[0] || count > range[1])) {
      throw new CommandError(
        28667,
        `${prefix}Expression ${first} takes at least ${range[0]} arguments, and at most ${range[1]}, but ${count} were passed in.`,
      );
    }
    const least = LEAST_ARITY.get(first);
    if (least !== undefined && count < least[0]) {
      throw new CommandError(least[1], `${prefix}${least[2]}${count}`);
    }
    if (first === '$literal') return;
    checkOperatorArguments(first, argument, prefix, scope);
    const parts = scope && scopedParts(first, argument, scope);
    if (parts) for (const [part, inner] of parts) checkExpression(part, prefix, inner);
    else checkExpression(argument, prefix, scope);
    checkFoldedErrors(first, argument);
    if (first === '$dateFromString') checkDateFromString(argument, prefix);
    return;
  }
  for (const key of keys) {
    if (key.startsWith('$')) {
      throw new CommandError(
        16410,
        `${prefix}FieldPath field names may not start with '$'. Consider using $getField or $setField.`,
      );
    }
    checkExpression(expr[key], prefix, scope);
  }
}
