/**
 * `$in` and `$indexOfArray` as MongoDB 7.0 evaluates them (src/mongo/db/pipeline/expression.cpp,
 * `ExpressionIn::evaluate`, `ExpressionIndexOfArray::evaluate`): an element is the value searched for
 * when the expression context's value comparator says they are equal, so numbers of any type are equal
 * by value, two documents only with the same fields in the same order, and strings under the
 * operation's collation. mingo's equality ignored field order and told `NumberLong(2)` from `2`.
 */
import { compareValues } from './comparison-expressions.js';
import { evaluateOperands, type ExpressionOp } from './operator-types.js';
import { indexArgument } from './string-expressions.js';
import { isNullish, typeName } from './value-strings.js';
import { CommandError } from '../errors.js';

/**
 * `$in`: whether the first argument equals an element of the second.
 * @throws CommandError 40081 when the second argument is not an array.
 */
const inExpression: ExpressionOp = (obj, expr, options) => {
  const [value, array] = evaluateOperands(obj, expr, options);
  if (!Array.isArray(array)) {
    throw new CommandError(40081, `$in requires an array as a second argument, found: ${typeName(array)}`);
  }
  return array.some((element) => compareValues(element, value, options) === 0);
};

/**
 * `$indexOfArray`: the first index in [start, end) whose element equals the value, or -1; null when the
 * array is null or missing.
 * @throws CommandError 40090 when the array is another type, 40096/40097 for a bad start or end index.
 */
const indexOfArray: ExpressionOp = (obj, expr, options) => {
  const [array, value, start, end] = evaluateOperands(obj, expr, options);
  if (isNullish(array)) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(
      40090,
      `$indexOfArray requires an array as a first argument, found: ${typeName(array)}`,
    );
  }
  const args = Array.isArray(expr) ? expr.length : 1;
  const from = args > 2 ? indexArgument('$indexOfArray', start, 'starting index') : 0;
  const to =
    args > 3 ? Math.min(indexArgument('$indexOfArray', end, 'ending index'), array.length) : array.length;
  for (let i = from; i < to; i++) if (compareValues(array[i], value, options) === 0) return i;
  return -1;
};

/** The operators above, to register over mingo's (and over number-operators.ts's). */
export const arraySearchExpressions: Record<string, ExpressionOp> = {
  $in: inExpression,
  $indexOfArray: indexOfArray,
};
