/**
 * The accumulators that collect values into an array, `$push` and `$addToSet`, in `$group` and
 * `$setWindowFields`. mingo's push a null for each document where the expression is missing; MongoDB 7.0
 * leaves those documents out (accumulator_push.cpp and accumulator_add_to_set.cpp add only a value that
 * is not missing; window_function_push.h likewise), so `[1, <missing>]` collects `[1]`.
 */
import * as accumulatorOperators from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';
import type { AccumulatorOp } from './operator-types.js';

const builtin = accumulatorOperators as unknown as Record<string, AccumulatorOp>;

/**
 * The values of `expr` over `collection`, documents where it is missing left out; the collection itself
 * when mingo hands over values it has already evaluated (`expr` null or absent). mingo's `$push` evaluates
 * against each document as its root but turns missing into null, so the engine's `$type` (which answers
 * "missing") tells which of its values to drop.
 */
function presentValues(collection: unknown[], expr: unknown, options: Options): unknown[] {
  if (expr === null || expr === undefined) return collection;
  const values = builtin['$push']!(collection, expr, options) as unknown[];
  const types = builtin['$push']!(collection, { $type: expr }, options) as unknown[];
  return values.filter((_, i) => types[i] !== 'missing');
}

/** `$push` and `$addToSet`, registered over mingo's in the engine's context. */
export const arrayAccumulators: Record<string, AccumulatorOp> = {
  $push: (collection, expr, options) => presentValues(collection, expr, options),
  $addToSet: (collection, expr, options) =>
    builtin['$addToSet']!(presentValues(collection, expr, options), null, options),
};
