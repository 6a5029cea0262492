/**
 * The boolean expressions `$and`, `$or`, `$not`, `$allElementsTrue` and `$anyElementTrue`, and the `cond`
 * of `$filter`, with MongoDB's truth (isTruthy): mingo's tells `NumberLong(0)` and `NumberDecimal(0)`
 * (objects to JavaScript) true and answered `$not: ['']` true, where MongoDB's `coerceToBool` makes the
 * zeros of every number type false and every string true (expression.cpp, `ExpressionAnd::evaluate` …).
 */
import { evalExpr } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import type { Options } from 'mingo/types';
import { operandList, type ExpressionOp } from './operator-types.js';
import { soleOperand } from './expression-arity.js';
import { isTruthy } from './strict-expressions.js';
import { isIntegral32, isNullish, numberOf, typeName, valueText } from './value-strings.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

const builtin = expressionOperators as unknown as Record<string, ExpressionOp>;

const and: ExpressionOp = (obj, expr, options) =>
  operandList(expr).every((e) => isTruthy(evalExpr(obj, e, options)));

const or: ExpressionOp = (obj, expr, options) =>
  operandList(expr).some((e) => isTruthy(evalExpr(obj, e, options)));

const not: ExpressionOp = (obj, expr, options) => !isTruthy(evalExpr(obj, soleOperand(expr), options));

/**
 * `$allElementsTrue`/`$anyElementTrue`: whether every/some element of the array is true; anything but an
 * array, null and missing included, is error 17040/17041.
 */
function elementsTrue(name: '$allElementsTrue' | '$anyElementTrue'): ExpressionOp {
  const code = name === '$allElementsTrue' ? 17040 : 17041;
  return (obj, expr, options) => {
    const value = evalExpr(obj, soleOperand(expr), options);
    if (!Array.isArray(value)) {
      throw new CommandError(code, `${name}'s argument must be an array, but is ${typeName(value)}`);
    }
    return name === '$allElementsTrue' ? value.every(isTruthy) : value.some(isTruthy);
  };
}

/**
 * The `limit` of a `$filter`: none when absent or null, else an integral number of any type above 0
 * (327391, 327392).
 */
function filterLimit(obj: unknown, spec: Record<string, unknown>, options: Options): number | undefined {
  if (!('limit' in spec)) return undefined;
  const limit = evalExpr(obj, spec['limit'], options);
  if (isNullish(limit)) return undefined;
  if (!isIntegral32(limit)) {
    throw new CommandError(
      327391,
      `$filter: limit must be represented as a 32-bit integral value: ${valueText(limit)}`,
    );
  }
  const n = numberOf(limit);
  if (n <= 0) throw new CommandError(327392, `$filter: limit must be greater than 0: ${valueText(limit)}`);
  return n;
}

/**
 * `$filter`: mingo's, given its `input` evaluated and checked here (null for null or missing, else an
 * array: 28651), its `limit` as a plain number, and its `cond` read by MongoDB's truth through `$cond`.
 */
const filter: ExpressionOp = (obj, expr, options) => {
  if (!isPlainObject(expr)) return builtin['$filter']!(obj, expr, options);
  const input = evalExpr(obj, expr['input'], options);
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) {
    throw new CommandError(28651, `input to $filter must be an array not ${typeName(input)}`);
  }
  const limit = filterLimit(obj, expr, options);
  const spec: Record<string, unknown> = {
    ...expr,
    input: { $literal: input },
    cond: { $cond: [expr['cond'], true, false] },
  };
  if (limit === undefined) delete spec['limit'];
  else spec['limit'] = limit;
  return builtin['$filter']!(obj, spec, options);
};

/** The expressions above, to register over mingo's. */
export const logicalExpressions: Record<string, ExpressionOp> = {
  $and: and,
  $or: or,
  $not: not,
  $allElementsTrue: elementsTrue('$allElementsTrue'),
  $anyElementTrue: elementsTrue('$anyElementTrue'),
  $filter: filter,
};
