/**
 * The `input` of `$map` and `$reduce` checked as MongoDB checks it — null for null or missing, else an
 * array (16883 "input to $map must be an array not string"; 40080 "$reduce requires that 'input' be an
 * array, found: string"; expression.cpp `ExpressionMap::evaluate`, `ExpressionReduce::evaluate`) — where
 * mingo answered its code 2.
 */
import { evalExpr } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import type { ExpressionOp } from './operator-types.js';
import { isNullish, typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

const builtin = expressionOperators as unknown as Record<string, ExpressionOp>;

const REFUSALS = {
  $map: (type: string) => new CommandError(16883, `input to $map must be an array not ${type}`),
  $reduce: (type: string) =>
    new CommandError(40080, `$reduce requires that 'input' be an array, found: ${type}`),
};

/**
 * The evaluated `input` of `name`: the array, or null for null or missing.
 * @throws CommandError 16883 (`$map`) or 40080 (`$reduce`) for any other value.
 */
export function arrayInput(name: keyof typeof REFUSALS, input: unknown): unknown[] | null {
  if (isNullish(input)) return null;
  if (!Array.isArray(input)) throw REFUSALS[name](typeName(input));
  return input as unknown[];
}

/** `$map`: mingo's, handed its `input` as a literal once it is checked. */
const map: ExpressionOp = (obj, expr, options) => {
  if (!isPlainObject(expr)) return builtin['$map']!(obj, expr, options);
  const input = arrayInput('$map', evalExpr(obj, expr['input'], options));
  if (input === null) return null;
  return builtin['$map']!(obj, { ...expr, input: { $literal: input } }, options);
};

/** `$map`, to register over mingo's (interruptible-expressions.ts's `$reduce` checks its input here too). */
export const arrayInputExpressions: Record<string, ExpressionOp> = { $map: map };
