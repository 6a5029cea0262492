/**
 * The expressions that can keep a command busy without bound, checked against its `maxTimeMS`
 * (deadline.ts). MongoDB 7.0 bounds strings (16493, limits.ts) and `$range` (146), but not the arrays
 * `$concatArrays` builds: `$reduce` with `{ $concatArrays: ['$$value', '$$value'] }` doubles an array at
 * each step. Such work stops, once the command's `maxTimeMS` has passed, at the next `$concatArrays` or
 * `$reduce` with MaxTimeMSExpired (50), as MongoDB's interrupt checks stop it.
 */
import * as expressionOperators from 'mingo/operators/expression';
import { checkDeadline } from './deadline.js';
import type { ExpressionOp } from './operator-types.js';

const builtin = expressionOperators as unknown as Record<string, ExpressionOp>;

/** `name`, mingo's, that first checks the deadline. */
function interruptible(name: string): ExpressionOp {
  const op = builtin[name]!;
  return (obj, expr, options) => {
    checkDeadline();
    return op(obj, expr, options);
  };
}

/** `$concatArrays` and `$reduce`, stopped by `maxTimeMS`, to register over mingo's. */
export const interruptibleExpressions: Record<string, ExpressionOp> = {
  $concatArrays: interruptible('$concatArrays'),
  $reduce: interruptible('$reduce'),
};
