/**
 * The `$setWindowFields` stage: mingo's, under MongoDB 7.0's memory rules. mingo gathers each partition
 * with a `$push` of `$$CURRENT`, which must not count against the `$push` accumulator's limit
 * (array-accumulators.ts); it counts instead, with `allowDiskUse: false`, against
 * `internalDocumentSourceSetWindowFieldsMaxMemoryBytes`, partition by partition, as MongoDB's memory
 * tracker does before it spills (document_source_set_window_fields.cpp, 5414201). So the stage runs in a
 * context where `$push` is that partition gathering, and the user's `$push` / `$addToSet` outputs are
 * renamed to the engine's limited accumulators. Each partition is sorted by `sortBy` with the engine's
 * `$sort` order (sort.ts), not mingo's, which put NaN after other numbers and int64 values after dates.
 */
import { Context, OpType } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';
import { builtinStage } from './operator-types.js';
import type { AccumulatorOp, PipelineOp } from './operator-types.js';
import { approximateSize, blockingTracker } from './memory-limits.js';
import { normalizeCollation } from './collation.js';
import { sortByFields, sortFieldsOf } from './sort.js';
import { RANGE_WINDOW, rangeWindow, rangeWindowOutput } from './range-window.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

const builtinSetWindowFields = builtinStage('$setWindowFields');
const builtinPush = (accumulatorOperators as unknown as Record<string, AccumulatorOp>)['$push']!;

/** The names the user's array accumulators run under inside the stage. */
const RENAMED: Record<string, string> = {
  $push: '$__plumeWindowPush',
  $addToSet: '$__plumeWindowAddToSet',
};

/** MongoDB 7.0's error past the limit without disk use. */
function windowExceeded(used: number, limit: number): CommandError {
  return new CommandError(
    5414201,
    `Exceeded memory limit in DocumentSourceSetWindowFields, used ${used} bytes but max allowed is ${limit}`,
  );
}

/** Gathers one partition, counting its documents when disk use is refused. */
const gatherPartition: AccumulatorOp = (collection, expr, options) => {
  const tracker = blockingTracker('internalDocumentSourceSetWindowFieldsMaxMemoryBytes', windowExceeded);
  if (tracker) for (const doc of collection) tracker.add(approximateSize(doc));
  return builtinPush(collection, expr, options);
};

/**
 * `output` with the array accumulators renamed and range windows run by range-window.ts (anything
 * malformed is left for mingo to report).
 */
function renameOutputs(output: unknown): unknown {
  if (!isPlainObject(output)) return output;
  const renamed: Doc = {};
  for (const [field, spec] of Object.entries(output)) {
    if (!isPlainObject(spec)) {
      renamed[field] = spec;
      continue;
    }
    const entry: Doc = {};
    for (const [key, value] of Object.entries(spec)) entry[RENAMED[key] ?? key] = value;
    renamed[field] = rangeWindowOutput(entry);
  }
  return renamed;
}

/**
 * mingo's `$setWindowFields` under the memory rules above (same arguments); window-stage.ts runs it
 * partition by partition.
 */
export const limitedSetWindowFields: PipelineOp = (collection, expr, options) => {
  if (!isPlainObject(expr)) return builtinSetWindowFields(collection, expr, options);
  // The stage receives mingo's per-run options object; its plain options are under `options`.
  const raw = (options as unknown as { options?: Options }).options ?? options;
  const accumulators: Record<string, AccumulatorOp> = { $push: gatherPartition };
  for (const [name, alias] of Object.entries(RENAMED))
    accumulators[alias] = raw.context.getOperator(OpType.ACCUMULATOR, name) as AccumulatorOp;
  // Context.from keeps the first context's operators where both have one.
  const context = Context.from(
    Context.init({ accumulator: accumulators, window: { [RANGE_WINDOW]: rangeWindow as never } }),
    raw.context,
  );
  const output = renameOutputs(expr['output']);
  const fields = sortFieldsOf(expr['sortBy']);
  if (!fields) return builtinSetWindowFields(collection, { ...expr, output }, { ...raw, context });
  const collation = normalizeCollation(raw.collation);
  const sorted = collection.transform((items: unknown[]) => Lazy(sortByFields(items, fields, collation)));
  // mingo sorts the input again, in its own order, when the spec has a sortBy as the stage is built; its
  // window functions read the sortBy only as they run. So the spec gets it back once the stage is built.
  const spec: Doc = { ...expr, output, sortBy: undefined };
  const result = builtinSetWindowFields(sorted, spec, { ...raw, context });
  spec['sortBy'] = expr['sortBy'];
  return result;
};
