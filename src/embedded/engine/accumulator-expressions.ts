/**
 * `$sum`, `$avg`, `$min`, `$max`, `$stdDevPop`, `$stdDevSamp` and `$mergeObjects` used as expressions,
 * read as MongoDB's `ExpressionFromAccumulator` reads them (src/mongo/db/pipeline/expression.h): one
 * operand that evaluates to an array accumulates its elements, one operand that is anything else
 * accumulates itself, several operands accumulate their values. mingo only took an operand that evaluates
 * to an array, refused `{ $sum: 5 }` and `{ $avg: '$missing' }`, and took `{ $max: [[1, 5]] }` as the
 * maximum of one array. Also `$mergeObjects` as an accumulator: mingo's skipped what is not a document,
 * which MongoDB refuses (40400).
 */
import { evalExpr } from 'mingo/core';
import { operandList, overGroup, type AccumulatorOp, type ExpressionOp } from './operator-types.js';
import { collect, numberAccumulators } from './number-operators.js';
import { orderedAccumulators } from './ordered-accumulators.js';
import { isNullish, typeName, valueText } from './value-strings.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/**
 * `$mergeObjects`: the fields of the documents in order, a later value replacing an earlier one; null
 * and missing are skipped, and a missing field value does not replace (AccumulatorMergeObjects).
 * @throws CommandError 40400 for a value that is not a document.
 */
const mergeObjects: AccumulatorOp = (collection, expr, options) => {
  const out: Record<string, unknown> = {};
  for (const value of collect(collection, expr, options)) {
    if (isNullish(value)) continue;
    if (!isPlainObject(value)) {
      throw new CommandError(
        40400,
        `$mergeObjects requires object inputs, but input ${valueText(value)} is of type ${typeName(value)}`,
      );
    }
    for (const [name, field] of Object.entries(value)) if (field !== undefined) out[name] = field;
  }
  return out;
};

/** The accumulators MongoDB also evaluates as expressions. */
const ACCUMULATORS: Record<string, AccumulatorOp> = {
  $sum: numberAccumulators['$sum']!,
  $avg: numberAccumulators['$avg']!,
  $stdDevPop: numberAccumulators['$stdDevPop']!,
  $stdDevSamp: numberAccumulators['$stdDevSamp']!,
  $min: orderedAccumulators['$min']!,
  $max: orderedAccumulators['$max']!,
  $mergeObjects: mergeObjects,
};

/** The accumulator `name` as an expression (and, in `$group`, as itself: operator-types.ts `overGroup`). */
function fromAccumulator(accumulator: AccumulatorOp): ExpressionOp {
  return overGroup(accumulator, (obj, expr, options) => {
    const operands = operandList(expr);
    let values: unknown[];
    if (operands.length === 1) {
      const value = evalExpr(obj, operands[0], options);
      values = Array.isArray(value) ? value : [value];
    } else {
      values = operands.map((operand) => evalExpr(obj, operand, options));
    }
    // With no expression an accumulator takes the values it is given as they are.
    return accumulator(values, null, options);
  });
}

/** The expressions above, to register over mingo's. */
export const accumulatorExpressions: Record<string, ExpressionOp> = Object.fromEntries(
  Object.entries(ACCUMULATORS).map(([name, accumulator]) => [name, fromAccumulator(accumulator)]),
);

/** `$mergeObjects` as an accumulator, to register over mingo's. */
export const mergeObjectsAccumulator: Record<string, AccumulatorOp> = { $mergeObjects: mergeObjects };
