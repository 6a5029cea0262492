/**
 * The accumulators that collect values into an array, `$push` and `$addToSet`, in `$group`, `$bucket`,
 * `$bucketAuto` and `$setWindowFields`. mingo's push a null for each document where the expression is
 * missing; MongoDB 7.0 leaves those documents out (accumulator_push.cpp and accumulator_add_to_set.cpp add
 * only a value that is not missing; window_function_push.h likewise), so `[1, <missing>]` collects `[1]`.
 * Both refuse to grow past `internalQueryMaxPushBytes` / `internalQueryMaxAddToSetBytes` (100 MiB) with
 * ExceededMemoryLimit (146), whatever `allowDiskUse` says: they cannot spill. Each value is measured once
 * as it is added (memory-limits.ts `approximateSize`); `$addToSet` counts only values it keeps, and
 * keeps one of each value by MongoDB's equality (values.ts `distinctValues`: numbers of any type by value,
 * documents by their fields in order, strings under the collation), where mingo's told `1` and
 * `NumberLong(1)` apart and took `{ a: 1, b: 2 }` and `{ b: 2, a: 1 }` for one.
 */
import * as accumulatorOperators from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';
import type { AccumulatorOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import { approximateSize, MemoryTracker } from './memory-limits.js';
import { distinctValues } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

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

/** `$push`'s error (accumulator_push.cpp). */
function pushExceeded(_used: number, limit: number): CommandError {
  return new CommandError(
    ErrorCodes.ExceededMemoryLimit,
    `$push used too much memory and cannot spill to disk. Memory limit: ${limit} bytes`,
  );
}

/** `$addToSet`'s error (accumulator_add_to_set.cpp). */
function addToSetExceeded(used: number, limit: number): CommandError {
  return new CommandError(
    ErrorCodes.ExceededMemoryLimit,
    `$addToSet used too much memory and cannot spill to disk. Used: ${used} bytes. Memory limit: ${limit} bytes`,
  );
}

const push: AccumulatorOp = (collection, expr, options) => {
  const values = presentValues(collection, expr, options);
  const tracker = new MemoryTracker('internalQueryMaxPushBytes', pushExceeded);
  for (const value of values) tracker.add(approximateSize(value));
  return values;
};

const addToSet: AccumulatorOp = (collection, expr, options) => {
  const set = distinctValues(presentValues(collection, expr, options), normalizeCollation(options.collation));
  const tracker = new MemoryTracker('internalQueryMaxAddToSetBytes', addToSetExceeded);
  for (const value of set.values()) tracker.add(approximateSize(value));
  return [...set.values()];
};

/** `$push` and `$addToSet`, registered over mingo's in the engine's context. */
export const arrayAccumulators: Record<string, AccumulatorOp> = { $push: push, $addToSet: addToSet };
