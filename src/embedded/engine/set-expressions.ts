/**
 * The set expressions `$setUnion`, `$setIntersection`, `$setDifference`, `$setEquals` and
 * `$setIsSubset` over mingo's, as MongoDB 7.0 evaluates them (src/mongo/db/pipeline/expression.cpp,
 * ExpressionSet*): elements are one when MongoDB's value comparison says they are equal, so `1`, `1.0`
 * and `NumberLong(1)` are one element and two documents are one only with the same fields in the same
 * order (mingo's equality told numeric types apart and ignored field order); strings compare under the
 * operation's collation. `$setUnion` and `$setIntersection` return their elements in ascending BSON
 * order (MongoDB gathers them in an ordered value set), `$setDifference` in the order of its first
 * argument. Operands that are not arrays fail with MongoDB's codes (17042–17044, 17046–17049).
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import { evaluateOperands, operandList, type ExpressionOp } from './operator-types.js';
import { isNullish, typeName } from './value-strings.js';
import { distinctValues, keyOf } from './values.js';
import { CommandError } from '../errors.js';

const collationOf = (options: Options): Collation | undefined =>
  (options as { collation?: Collation }).collation;

/** The elements of `set` in ascending BSON order, as MongoDB's ordered value set holds them. */
const ordered = (set: Map<string, unknown>, collation: Collation | undefined): unknown[] =>
  [...set.values()].sort((a, b) => compareBson(a, b, collation));

function refuse(code: number, message: string, value: unknown): never {
  throw new CommandError(code, `${message}${typeName(value)}`);
}

const setUnion: ExpressionOp = (obj, expr, options) => {
  const collation = collationOf(options);
  const union = new Map<string, unknown>();
  for (const operand of operandList(expr)) {
    const value = evalExpr(obj, operand, options);
    if (isNullish(value)) return null;
    if (!Array.isArray(value))
      refuse(17043, 'All operands of $setUnion must be arrays. One argument is of type: ', value);
    for (const [key, element] of distinctValues(value, collation))
      if (!union.has(key)) union.set(key, element);
  }
  return ordered(union, collation);
};

const setIntersection: ExpressionOp = (obj, expr, options) => {
  const collation = collationOf(options);
  let common: Map<string, unknown> | undefined;
  for (const operand of operandList(expr)) {
    const value = evalExpr(obj, operand, options);
    if (isNullish(value)) return null;
    if (!Array.isArray(value))
      refuse(17047, 'All operands of $setIntersection must be arrays. One argument is of type: ', value);
    const next = distinctValues(value, collation);
    if (common === undefined) common = next;
    else for (const key of common.keys()) if (!next.has(key)) common.delete(key);
    // MongoDB stops reading operands once the intersection is empty.
    if (common.size === 0) break;
  }
  return common === undefined ? [] : ordered(common, collation);
};

const setDifference: ExpressionOp = (obj, expr, options) => {
  const [first, second] = evaluateOperands(obj, expr, options);
  if (isNullish(first) || isNullish(second)) return null;
  const message = 'both operands of $setDifference must be arrays. ';
  if (!Array.isArray(first)) refuse(17048, `${message}First argument is of type: `, first);
  if (!Array.isArray(second)) refuse(17049, `${message}Second argument is of type: `, second);
  const collation = collationOf(options);
  const exclude = distinctValues(second, collation);
  return [...distinctValues(first, collation)].filter(([key]) => !exclude.has(key)).map(([, value]) => value);
};

const setEquals: ExpressionOp = (obj, expr, options) => {
  const collation = collationOf(options);
  let first: Map<string, unknown> | undefined;
  for (const value of evaluateOperands(obj, expr, options)) {
    if (!Array.isArray(value))
      refuse(17044, 'All operands of $setEquals must be arrays. One argument is of type: ', value);
    const set = distinctValues(value, collation);
    if (first === undefined) first = set;
    else if (set.size !== first.size || [...set.keys()].some((key) => !first!.has(key))) return false;
  }
  return true;
};

const setIsSubset: ExpressionOp = (obj, expr, options) => {
  const [first, second] = evaluateOperands(obj, expr, options);
  const message = 'both operands of $setIsSubset must be arrays. ';
  if (!Array.isArray(first)) refuse(17046, `${message}First argument is of type: `, first);
  if (!Array.isArray(second)) refuse(17042, `${message}Second argument is of type: `, second);
  const collation = collationOf(options);
  const superset = distinctValues(second, collation);
  return first.every((element) => superset.has(keyOf(element, collation)));
};

/** The set expressions, registered over mingo's in the engine's context. */
export const setExpressions: Record<string, ExpressionOp> = {
  $setUnion: setUnion,
  $setIntersection: setIntersection,
  $setDifference: setDifference,
  $setEquals: setEquals,
  $setIsSubset: setIsSubset,
};
