/**
 * The comparison expressions `$cmp`, `$eq`, `$ne`, `$gt`, `$gte`, `$lt` and `$lte` as MongoDB evaluates
 * them: values of different types compare by BSON type order (manual, "Comparison Expression Operators":
 * "compares both value and type, using the specified BSON comparison order for values of different
 * types"), so `{ $gt: [<date>, null] }` is true and `{ $lt: [1, 'a'] }` is true where mingo answers
 * false; strings compare under the operation's collation. A missing value sorts before null (MongoDB
 * ranks missing and undefined below null), so `{ $eq: ['$missing', null] }` is false.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import type { Collation } from './collation.js';
import { compareBson, MIN_KEY_RANK, typeRank } from './compare.js';
import { operandList, type ExpressionOp } from './operator-types.js';

/**
 * -1, 0 or 1: `a` against `b` in MongoDB's expression comparison order (missing below null), strings
 * under `options.collation`.
 */
export function compareValues(a: unknown, b: unknown, options: Options): number {
  if (a === undefined || b === undefined) {
    if (a === b) return 0;
    const other = a === undefined ? b : a;
    const missingFirst = typeRank(other) === MIN_KEY_RANK ? 1 : -1;
    return a === undefined ? missingFirst : -missingFirst;
  }
  return Math.sign(compareBson(a, b, (options as { collation?: Collation }).collation));
}

function comparison(test: (order: number) => unknown): ExpressionOp {
  return (obj, expr, options) => {
    const args = operandList(expr);
    return test(compareValues(evalExpr(obj, args[0], options), evalExpr(obj, args[1], options), options));
  };
}

/** The comparison expressions, registered over mingo's in the engine's context. */
export const comparisonExpressions: Record<string, ExpressionOp> = {
  $cmp: comparison((order) => order),
  $eq: comparison((order) => order === 0),
  $ne: comparison((order) => order !== 0),
  $gt: comparison((order) => order > 0),
  $gte: comparison((order) => order >= 0),
  $lt: comparison((order) => order < 0),
  $lte: comparison((order) => order <= 0),
};
