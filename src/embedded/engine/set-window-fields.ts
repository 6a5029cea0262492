/**
 * The `$setWindowFields` stage: mingo's, under MongoDB 7.0's memory rules. mingo gathers each partition
 * with a `$push` of `$$CURRENT`, which must not count against the `$push` accumulator's limit
 * (array-accumulators.ts); it counts instead, with the state of every output's function, against
 * `internalDocumentSourceSetWindowFieldsMaxMemoryBytes` (window-memory.ts, 5414201). So the stage runs in
 * a context where `$push` is that partition gathering, the user's `$push` / `$addToSet` outputs are
 * renamed to the engine's limited accumulators, and every output's function is wrapped to report the
 * state it holds. Each partition is sorted by `sortBy` with the engine's `$sort` order (sort.ts), not
 * mingo's, which put NaN after other numbers and int64 values after dates.
 */
import { Context, OpType } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import type { Options } from 'mingo/types';
import { builtinStage } from './operator-types.js';
import type { AccumulatorOp, PipelineOp, WindowOp } from './operator-types.js';
import { WindowMemory } from './window-memory.js';
import { normalizeCollation } from './collation.js';
import { sortByFields, sortFieldsOf } from './sort.js';
import { checkRangeDirection, RANGE_WINDOW, rangeWindow, rangeWindowOutput } from './range-window.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

const builtinSetWindowFields = builtinStage('$setWindowFields');
const builtinPush = (accumulatorOperators as unknown as Record<string, AccumulatorOp>)['$push']!;

/** The names the user's array accumulators run under inside the stage. */
const RENAMED: Record<string, string> = {
  $push: '$__plumeWindowPush',
  $addToSet: '$__plumeWindowAddToSet',
};

/** Gathers one partition, counting its documents in `memory`. */
const gatherPartition =
  (memory: WindowMemory): AccumulatorOp =>
  (collection, expr, options) => {
    for (const doc of collection) memory.holdDocument(doc);
    return builtinPush(collection, expr, options);
  };

/**
 * The operators the outputs of `output` call, each wrapped to count the state of the output it computes
 * in `memory`: an accumulator where `context` has one by that name, as mingo's stage prefers them.
 */
function trackedOperators(
  output: Doc,
  context: Context,
  memory: WindowMemory,
): { accumulator: Record<string, AccumulatorOp>; window: Record<string, WindowOp> } {
  const accumulator: Record<string, AccumulatorOp> = {};
  const window: Record<string, WindowOp> = {};
  for (const op of new Set(Object.values(output).map(operatorOf))) {
    const asAccumulator = context.getOperator(OpType.ACCUMULATOR, op) as AccumulatorOp | null;
    const asWindow = context.getOperator(OpType.WINDOW, op) as unknown as WindowOp | null;
    if (asAccumulator) {
      accumulator[op] = (collection, args, options) => {
        const value = asAccumulator(collection, args, options);
        if (memory.isOutput(op, args)) memory.setState(op, args, value);
        return value;
      };
    } else if (asWindow) {
      window[op] = (obj, partition, call, options) => {
        const value = asWindow(obj, partition, call, options);
        if (memory.isOutput(op, call.inputExpr)) memory.setState(op, call.inputExpr, value);
        return value;
      };
    }
  }
  return { accumulator, window };
}

/** The window function or accumulator an output specification calls (its one key besides `window`). */
function operatorOf(spec: unknown): string {
  return isPlainObject(spec) ? (Object.keys(spec).find((key) => key !== 'window') ?? '') : '';
}

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
  const output = renameOutputs(expr['output']);
  const outputs = isPlainObject(output) ? output : {};
  const memory = new WindowMemory(
    Object.values(outputs).map((spec) => [operatorOf(spec), (spec as Doc)[operatorOf(spec)]]),
  );
  const accumulators: Record<string, AccumulatorOp> = { $push: gatherPartition(memory) };
  for (const [name, alias] of Object.entries(RENAMED))
    accumulators[alias] = raw.context.getOperator(OpType.ACCUMULATOR, name) as AccumulatorOp;
  // Context.from keeps the first context's operators where both have one.
  const base = Context.from(
    Context.init({ accumulator: accumulators, window: { [RANGE_WINDOW]: rangeWindow as never } }),
    raw.context,
  );
  const tracked = trackedOperators(outputs, base, memory);
  const context = Context.from(
    Context.init({ accumulator: tracked.accumulator, window: tracked.window as never }),
    base,
  );
  const fields = sortFieldsOf(expr['sortBy']);
  if (!fields) return builtinSetWindowFields(collection, { ...expr, output }, { ...raw, context });
  const collation = normalizeCollation(raw.collation);
  const sorted = collection.transform((items: unknown[]) => {
    if (items.length > 0 && isPlainObject(expr['output']))
      checkRangeDirection(expr['output'], fields[0]!.descending);
    return Lazy(sortByFields(items, fields, collation));
  });
  // mingo sorts the input again, in its own order, when the spec has a sortBy as the stage is built; its
  // window functions read the sortBy only as they run. So the spec gets it back once the stage is built.
  const spec: Doc = { ...expr, output, sortBy: undefined };
  const result = builtinSetWindowFields(sorted, spec, { ...raw, context });
  spec['sortBy'] = expr['sortBy'];
  return result;
};
