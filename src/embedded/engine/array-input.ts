/**
 * `$map` and `$reduce`: mingo's, with their `input` evaluated and checked first as MongoDB checks it —
 * null for null or missing, else an array (16883 "input to $map must be an array not string"; 40080
 * "$reduce requires that 'input' be an array, found: string"; expression.cpp `ExpressionMap::evaluate`,
 * `ExpressionReduce::evaluate`) — where mingo answered its code 2.
 */
import { evalExpr } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import type { ExpressionOp } from './operator-types.js';
import { isNullish, typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

const builtin = expressionOperators as unknown as Record<string, ExpressionOp>;

/** mingo's `name`, handed its `input` as a literal once it is checked. */
function checkedInput(name: string, refuse: (type: string) => CommandError): ExpressionOp {
  const op = builtin[name]!;
  return (obj, expr, options) => {
    if (!isPlainObject(expr)) return op(obj, expr, options);
    const input = evalExpr(obj, expr['input'], options);
    if (isNullish(input)) return null;
    if (!Array.isArray(input)) throw refuse(typeName(input));
    return op(obj, { ...expr, input: { $literal: input } }, options);
  };
}

/** `$map` and `$reduce`, to register over mingo's. */
export const arrayInputExpressions: Record<string, ExpressionOp> = {
  $map: checkedInput('$map', (type) => new CommandError(16883, `input to $map must be an array not ${type}`)),
  $reduce: checkedInput(
    '$reduce',
    (type) => new CommandError(40080, `$reduce requires that 'input' be an array, found: ${type}`),
  ),
};
