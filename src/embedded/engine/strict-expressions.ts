/**
 * Expression operators that MongoDB refuses to evaluate where mingo quietly answers null or nothing:
 * `$size` of a value that is not an array, `$cond` without all three branches, `$switch` when no branch
 * matches and there is no `default`, `$concat` of a number, `$arrayElemAt` or `$first`/`$last` of a
 * string, a malformed `$arrayToObject` input (array-to-object.ts); and the string
 * operators (string-expressions.ts, string-named-expressions.ts, regex-expressions.ts). A pipeline that relied on mingo's answer would give MongoDB's users an error;
 * the embedded database gives the same error, with MongoDB's code.
 */
import { evalExpr } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';
import { operandList, overGroup, type AccumulatorOp, type ExpressionOp } from './operator-types.js';
import { nonZeroNumber, numberKind } from './arithmetic.js';
import { arrayToObject } from './array-to-object.js';
import { regexExpressions } from './regex-expressions.js';
import { stringExpressions } from './string-expressions.js';
import { stringNamedExpressions } from './string-named-expressions.js';
import { checkStringSize } from './limits.js';
import { bsonTypeName, isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/**
 * MongoDB's truth of an expression value: false, null, missing and zero of any number type are
 * false, everything else (empty strings and arrays too) is true (manual, "$cond", "$and").
 */
export function isTruthy(value: unknown): boolean {
  if (value === false || value === null || value === undefined) return false;
  // Exactly, for every type: a decimal such as 1E-6000 is not zero though it is 0 as a double.
  return nonZeroNumber(value) ?? true;
}

/** A value's type as MongoDB's messages name it (`missing` for undefined). */
const typeName = (value: unknown): string => (value === undefined ? 'missing' : bsonTypeName(value));

/** `$size`: the length of an array; anything else is error 17124 (manual, "$size (aggregation)"). */
const size: ExpressionOp = (obj, expr, options) => {
  // `{ $size: [x] }` is the one-argument list form of `{ $size: x }`.
  const value = evalExpr(obj, Array.isArray(expr) && expr.length === 1 ? expr[0] : expr, options);
  if (!Array.isArray(value)) {
    throw new CommandError(
      17124,
      `The argument to $size must be an array. Type of argument: ${typeName(value)}`,
    );
  }
  return value.length;
};

/** The `if`, `then` and `else` expressions of a `$cond`, in either form; MongoDB's errors otherwise. */
function condBranches(expr: unknown): [unknown, unknown, unknown] {
  if (Array.isArray(expr)) {
    if (expr.length !== 3) {
      throw new CommandError(
        16020,
        `Expression $cond takes exactly 3 arguments. ${expr.length} were passed in.`,
      );
    }
    return [expr[0], expr[1], expr[2]];
  }
  if (!isPlainObject(expr)) {
    throw new CommandError(16020, 'Expression $cond takes exactly 3 arguments. 1 were passed in.');
  }
  for (const name of Object.keys(expr)) {
    if (name !== 'if' && name !== 'then' && name !== 'else') {
      throw new CommandError(17083, `Unrecognized parameter to $cond: ${name}`);
    }
  }
  if (!('if' in expr)) throw new CommandError(17080, "Missing 'if' parameter to $cond");
  if (!('then' in expr)) throw new CommandError(17081, "Missing 'then' parameter to $cond");
  if (!('else' in expr)) throw new CommandError(17082, "Missing 'else' parameter to $cond");
  return [expr['if'], expr['then'], expr['else']];
}

/** `$cond`: `then` when `if` is true, else `else` (manual, "$cond (aggregation)"). */
const cond: ExpressionOp = (obj, expr, options) => {
  const [ifExpr, thenExpr, elseExpr] = condBranches(expr);
  return evalExpr(obj, isTruthy(evalExpr(obj, ifExpr, options)) ? thenExpr : elseExpr, options);
};

/** A `$switch` argument checked as MongoDB checks it: branches of `case` and `then`, an optional `default`. */
function switchSpec(expr: unknown): { branches: Record<string, unknown>[]; fallback?: unknown } {
  if (!isPlainObject(expr)) {
    throw new CommandError(40060, `$switch requires an object as an argument, found: ${typeName(expr)}`);
  }
  let branches: Record<string, unknown>[] = [];
  for (const [name, value] of Object.entries(expr)) {
    if (name === 'default') continue;
    if (name !== 'branches') throw new CommandError(40067, `$switch found an unknown argument: ${name}`);
    if (!Array.isArray(value)) {
      throw new CommandError(40061, `$switch expected an array for 'branches', found: ${typeName(value)}`);
    }
    branches = value.map((branch: unknown) => {
      if (!isPlainObject(branch)) {
        throw new CommandError(
          40062,
          `$switch expected each branch to be an object, found: ${typeName(branch)}`,
        );
      }
      for (const key of Object.keys(branch)) {
        if (key !== 'case' && key !== 'then') {
          throw new CommandError(40063, `$switch found an unknown argument to a branch: ${key}`);
        }
      }
      if (!('case' in branch))
        throw new CommandError(40064, "$switch requires each branch have a 'case' expression");
      if (!('then' in branch))
        throw new CommandError(40065, "$switch requires each branch have a 'then' expression");
      return branch;
    });
  }
  if (branches.length === 0) throw new CommandError(40068, '$switch requires at least one branch.');
  return 'default' in expr ? { branches, fallback: expr['default'] } : { branches };
}

/** `$switch`: the `then` of the first branch whose `case` is true, else `default` (manual, "$switch"). */
const switchExpression: ExpressionOp = (obj, expr, options: Options) => {
  const spec = switchSpec(expr);
  for (const branch of spec.branches) {
    if (isTruthy(evalExpr(obj, branch['case'], options))) return evalExpr(obj, branch['then'], options);
  }
  if (!('fallback' in spec)) {
    throw new CommandError(
      40066,
      '$switch could not find a matching branch for an input, and no default was specified.',
    );
  }
  return evalExpr(obj, spec.fallback, options);
};

/**
 * `$concat`: null when an argument is null or missing, else every argument must be a string (16702); the
 * result must stay under 16 MiB (16493, limits.ts).
 */
const concat: ExpressionOp = (obj, expr, options) => {
  let out = '';
  for (const arg of operandList(expr)) {
    const value = evalExpr(obj, arg, options);
    if (value === null || value === undefined) return null;
    if (typeof value !== 'string') {
      throw new CommandError(16702, `$concat only supports strings, not ${typeName(value)}`);
    }
    out += value;
  }
  return checkStringSize(out);
};

/**
 * `$arrayElemAt: [array, index]`: the element at `index` (from the end when negative), missing when out of
 * range, null when either argument is null or missing; MongoDB's errors 16020, 28689, 28690, 28691.
 */
const arrayElemAt: ExpressionOp = (obj, expr, options) => {
  const args = operandList(expr);
  if (args.length !== 2) {
    throw new CommandError(
      16020,
      `Expression $arrayElemAt takes exactly 2 arguments. ${args.length} were passed in.`,
    );
  }
  const array = evalExpr(obj, args[0], options);
  const index = evalExpr(obj, args[1], options);
  if (array === null || array === undefined || index === null || index === undefined) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(
      28689,
      `$arrayElemAt's first argument must be an array, but is ${typeName(array)}`,
    );
  }
  if (numberKind(index) === undefined) {
    throw new CommandError(
      28690,
      `$arrayElemAt's second argument must be a numeric value, but is ${typeName(index)}`,
    );
  }
  // Every BSON number type prints its value.
  const i = Number((index as { toString(): string }).toString());
  if (!Number.isInteger(i) || i < -(2 ** 31) || i >= 2 ** 31) {
    throw new CommandError(
      28691,
      `$arrayElemAt's second argument must be representable as a 32-bit integer: ${i}`,
    );
  }
  return array[i < 0 ? array.length + i : i];
};

const accumulators = accumulatorOperators as unknown as Record<string, AccumulatorOp>;

/**
 * `$first` and `$last` of an array expression (`{ $last: [x] }` is the list form of `{ $last: x }`): the
 * first or last element, missing for an empty array, null for null or missing, else error 28689.
 * In `$group` mingo hands the expression operator the group's documents (expression operators win over
 * accumulators of the same name); there it is the accumulator: the value of the first or last document,
 * null where missing (AccumulatorFirst/AccumulatorLast keep the first document's value even when missing,
 * and DocumentSourceGroup writes a missing result as null).
 */
function endElement(name: '$first' | '$last'): ExpressionOp {
  return overGroup(accumulators[name]!, (obj, expr, options) => {
    const value = evalExpr(obj, Array.isArray(expr) && expr.length === 1 ? expr[0] : expr, options);
    if (value === null || value === undefined) return null;
    if (!Array.isArray(value)) {
      throw new CommandError(28689, `${name}'s argument must be an array, but is ${typeName(value)}`);
    }
    const items = value as unknown[];
    return name === '$first' ? items[0] : items[items.length - 1];
  });
}

/** The operators above, registered over mingo's in the engine's context. */
export const strictExpressions: Record<string, ExpressionOp> = {
  $size: size,
  $cond: cond,
  $switch: switchExpression,
  $concat: concat,
  $arrayElemAt: arrayElemAt,
  $arrayToObject: arrayToObject,
  $first: endElement('$first'),
  $last: endElement('$last'),
  ...stringExpressions,
  ...stringNamedExpressions,
  ...regexExpressions,
};
