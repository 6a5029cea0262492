/**
 * The expressions that can keep a command busy without bound: those that bind variables, through which a
 * value can be reused at each step of a loop or level of nesting. MongoDB 7.0 bounds strings (16493,
 * limits.ts) and `$range` (146), but not the arrays `$concatArrays` builds nor the values that share their
 * parts: a `$reduce` with `{ $concatArrays: ['$$value', '$$value'] }` doubles an array at each step, one
 * with `{ a: '$$value', b: '$$value' }` doubles a document's BSON while its memory grows by one object, and
 * so do nested `$let`s, `$map`s or `$filter`s that reuse their variable.
 *
 * So each value a variable is bound to (`$let`'s vars, `$reduce`'s value at each step, the input arrays
 * whose elements `$map`, `$filter` and `$reduce` bind) is checked by limits.ts `checkValueSize`, which
 * refuses one past 64 MiB of BSON (13548) in the time its memory takes; and `$concatArrays` and each step
 * of `$reduce` stop once the command's `maxTimeMS` has passed with MaxTimeMSExpired (50), as MongoDB's
 * interrupt checks stop it.
 */
import { evalExpr } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import { arrayInput, arrayInputExpressions } from './array-input.js';
import { checkDeadline } from './deadline.js';
import { checkValueSize } from './limits.js';
import { logicalExpressions } from './logical-expressions.js';
import { operandList, type ExpressionOp } from './operator-types.js';
import { isNullish, typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

const builtin = expressionOperators as unknown as Record<string, ExpressionOp>;

/** `value` as an expression that evaluates to it as it is. */
const literal = (value: unknown): { $literal: unknown } => ({ $literal: value });

/**
 * `$concatArrays`: the elements of its arrays in order; null when one is null or missing, 28664 when
 * one is not an array (`ExpressionConcatArrays::evaluate`; mingo answered code 2). It checks the deadline
 * first.
 */
const concatArrays: ExpressionOp = (obj, expr, options) => {
  checkDeadline();
  const out: unknown[] = [];
  for (const operand of operandList(expr)) {
    const value = evalExpr(obj, operand, options);
    if (isNullish(value)) return null;
    if (!Array.isArray(value)) {
      throw new CommandError(28664, `$concatArrays only supports arrays, not ${typeName(value)}`);
    }
    for (const item of value as unknown[]) out.push(item);
  }
  return out;
};

/**
 * `op` (`$map` or `$filter`, which check their input's type) run on its `input` once its size is checked;
 * the parsers (operator-arguments.ts) have checked the argument's shape.
 */
function boundInput(op: ExpressionOp): ExpressionOp {
  return (obj, expr, options) => {
    if (!isPlainObject(expr)) return op(obj, expr, options);
    const input = checkValueSize(evalExpr(obj, expr['input'], options));
    return op(obj, { ...expr, input: literal(input) }, options);
  };
}

/** `$let`, mingo's, run with each variable's value checked. */
const letExpression: ExpressionOp = (obj, expr, options) => {
  if (!isPlainObject(expr) || !isPlainObject(expr['vars'])) return builtin['$let']!(obj, expr, options);
  const vars = Object.fromEntries(
    Object.entries(expr['vars']).map(([name, value]) => [
      name,
      literal(checkValueSize(evalExpr(obj, value, options))),
    ]),
  );
  return builtin['$let']!(obj, { vars, in: expr['in'] }, options);
};

/**
 * `$reduce`: each step is `in` evaluated, as mingo's `$let` evaluates it, with `$$value` the previous step's
 * (checked) value and `$$this` (and `$$CURRENT`, as in mingo) the input element; a null or missing input is
 * null, another non-array 40080 (array-input.ts).
 */
const reduce: ExpressionOp = (obj, expr, options) => {
  checkDeadline();
  if (!isPlainObject(expr)) return builtin['$reduce']!(obj, expr, options);
  const input = arrayInput('$reduce', checkValueSize(evalExpr(obj, expr['input'], options)));
  if (input === null) return null;
  // Each step's value is mostly made of the previous one's parts: measure each part once.
  const known = new WeakMap<object, number>();
  let value = checkValueSize(evalExpr(obj, expr['initialValue'], options), known);
  for (const element of input) {
    checkDeadline();
    const step = { vars: { value: literal(value) }, in: expr['in'] };
    value = checkValueSize(builtin['$let']!(element, step, options), known);
  }
  return value;
};

/** The bounded expressions, to register over mingo's. */
export const interruptibleExpressions: Record<string, ExpressionOp> = {
  $concatArrays: concatArrays,
  $filter: boundInput(logicalExpressions['$filter']!),
  $let: letExpression,
  $map: boundInput(arrayInputExpressions['$map']!),
  $reduce: reduce,
};
