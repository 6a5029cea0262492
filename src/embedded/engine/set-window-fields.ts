/**
 * One `$setWindowFields` partition, computed as MongoDB 7.0 computes it
 * (DocumentSourceInternalSetWindowFields::doGetNext, document_source_set_window_fields.cpp): the
 * partition sorted by `sortBy` with the engine's `$sort` order (sort.ts), then one output document at a
 * time, each output's value for the current document computed over its window and counted in the
 * partition's memory (window-memory.ts, 5414201) before the document is handed on, so a later `$limit`
 * stops the work and only the document in hand holds its values. An output over the whole partition (no
 * `window`, or both bounds `'unbounded'`) computes its value once and every document shares it, as
 * MongoDB's executor for right-unbounded windows accumulates the partition once and answers the same
 * value for each document (window_function_exec_non_removable.h). mingo's stage recomputed it for each
 * document and built every output before handing on the first: a whole-partition `$push` over n
 * documents held n arrays of n values and exhausted the heap.
 *
 * An output runs the context's accumulator of its name over the window's documents (over a bounded
 * window, moving-window.ts keeps its state as the window moves), or else its window function
 * (window-functions.ts and mingo's), which receives the current document, the window (the whole
 * partition when unbounded) and the call. The values are set as MongoDB sets them
 * (MutableDocument::setNestedField): along a dotted path, a value that is not a document becomes one.
 */
import { evalExpr, OpType } from 'mingo/core';
import type { Context } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { normalizeCollation } from './collation.js';
import { checkDeadline } from './deadline.js';
import { checkOutputSize } from './limits.js';
import { builtinStage } from './operator-types.js';
import type { AccumulatorOp, WindowOp } from './operator-types.js';
import { integralWindow } from './integral-window.js';
import { covarianceState } from './covariance-state.js';
import { movingWindow, slidingWindow } from './moving-window.js';
import type { Frame } from './moving-window.js';
import { checkRangeDirection, rangeFrame } from './range-window.js';
import type { RangeWindow } from './range-window.js';
import { sortByFields, sortFieldsOf } from './sort.js';
import { patternDirection } from './sort-pattern.js';
import { collect } from './number-operators.js';
import { numberOf } from './value-strings.js';
import { getPath, isPlainObject, setOwn } from './values.js';
import type { Doc } from './values.js';
import { unitMs } from './window-functions.js';
import { WindowMemory } from './window-memory.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** One output of the stage: the field it sets, its function and argument, its window as written. */
interface Output {
  field: string;
  op: string;
  args: unknown;
  window: Doc | undefined;
}

/** The outputs of the stage's `output` (checked by window-checks.ts). */
function outputsOf(output: Doc): Output[] {
  return Object.entries(output).map(([field, spec]) => {
    const doc = spec as Doc;
    const op = Object.keys(doc).find((key) => key !== 'window')!;
    return { field, op, args: doc[op], window: isPlainObject(doc['window']) ? doc['window'] : undefined };
  });
}

/** A bound as MongoDB reads it: a constant expression (`{ $literal: -1 }`) evaluated once. */
function boundValue(bound: unknown, options: Options): unknown {
  return isPlainObject(bound) ? evalExpr({}, bound, options) : bound;
}

/** The lower bound of a `documents` or `range` window as evaluated. */
function lowerBound(window: Doc | undefined, options: Options): unknown {
  const bounds = window?.['documents'] ?? window?.['range'];
  return Array.isArray(bounds) ? boundValue(bounds[0], options) : 'unbounded';
}

/**
 * The frame of `window` over a partition of `size` documents, or undefined for the whole partition.
 * `sortValues` gives the sortBy values a range window is measured on.
 */
function frameOf(
  window: Doc | undefined,
  size: number,
  sortValues: () => unknown[],
  options: Options,
): Frame | undefined {
  const bounds = window?.['documents'] ?? window?.['range'];
  if (!Array.isArray(bounds)) return undefined;
  const [lower, upper] = bounds.map((bound: unknown) => boundValue(bound, options));
  if (lower === 'unbounded' && upper === 'unbounded') return undefined;
  if (window?.['range'] !== undefined) {
    const values = sortValues();
    const range: RangeWindow = { range: [lower, upper] };
    if (typeof window['unit'] === 'string') range.unit = window['unit'];
    return rangeFrame(values, range);
  }
  const offset = (bound: unknown, index: number, unbounded: number): number =>
    bound === 'unbounded' ? unbounded : bound === 'current' ? index : index + numberOf(bound);
  return (index) => {
    const first = Math.max(0, offset(lower, index, 0));
    const last = Math.min(size - 1, offset(upper, index, size - 1));
    return first > last ? undefined : [first, last];
  };
}

/** The value of `output` for the document at each index of `partition`. */
function outputValues(
  output: Output,
  partition: Doc[],
  stage: Doc,
  context: Context,
  options: Options,
): (index: number) => unknown {
  const sortField = Object.keys(isPlainObject(stage['sortBy']) ? stage['sortBy'] : {})[0] ?? '';
  const sortValues = (): unknown[] => partition.map((doc) => getPath(doc, sortField));
  const frame = frameOf(output.window, partition.length, sortValues, options);
  // $derivative reads only its window's first and last documents (window_function_exec_derivative.cpp):
  // handing it those two, not a copy of the window, keeps a sliding derivative O(1) per document.
  const ends = output.op === '$derivative';
  const windowAt = (index: number): Doc[] => {
    if (!frame) return partition;
    const bounds = frame(index);
    if (!bounds) return [];
    return ends ? [partition[bounds[0]]!, partition[bounds[1]]!] : partition.slice(bounds[0], bounds[1] + 1);
  };
  if (output.op === '$integral') {
    const args = output.args as Doc;
    const ms = unitMs('$integral', args);
    return integralWindow(partition, frame, sortField, args['input'], ms, options);
  }
  if (output.op === '$covariancePop' || output.op === '$covarianceSamp') {
    // MongoDB keeps the same removable state over every window, the whole partition included.
    const sample = output.op === '$covarianceSamp';
    const whole: Frame = () => (partition.length > 0 ? [0, partition.length - 1] : undefined);
    const pairs: unknown[] = [];
    const pairAt = (i: number): unknown =>
      i in pairs ? pairs[i] : (pairs[i] = collect([partition[i]!], output.args, options)[0]);
    return slidingWindow(
      frame ?? whole,
      pairAt,
      () => covarianceState(sample),
      () => null,
    );
  }
  const accumulator = context.getOperator(OpType.ACCUMULATOR, output.op) as AccumulatorOp | null;
  if (accumulator) {
    if (frame) {
      const removable = lowerBound(output.window, options) !== 'unbounded';
      return movingWindow(output.op, output.args, accumulator, partition, frame, removable, options);
    }
    let whole: { value: unknown } | undefined;
    return () => (whole ??= { value: accumulator(partition, output.args, options) }).value;
  }
  const fn = context.getOperator(OpType.WINDOW, output.op) as unknown as WindowOp | null;
  if (!fn) throw new CommandError(ErrorCodes.FailedToParse, `Unrecognized window function, ${output.op}`);
  const parentExpr = stage as { sortBy?: Record<string, unknown> };
  const inputExpr = output.args as Record<string, unknown>;
  return (index) =>
    fn(
      partition[index]!,
      windowAt(index),
      { parentExpr, inputExpr, documentNumber: index + 1, field: output.field },
      options,
    );
}

/**
 * Sets `value` at the dotted `path` of `doc`, a copy the stage owns, copying each document below it that
 * it enters (MutableDocument::setNestedField); missing leaves the field out.
 */
function setValue(doc: Doc, path: string[], value: unknown): void {
  const [key, ...rest] = path as [string, ...string[]];
  if (rest.length > 0) {
    const child = doc[key];
    const copy = isPlainObject(child) ? { ...child } : {};
    setOwn(doc, key, copy);
    setValue(copy, rest, value);
  } else if (value === undefined) delete doc[key];
  else setOwn(doc, key, value);
}

/**
 * The partition's documents in sortBy order; an empty sortBy sorts nothing, as MongoDB adds no sort for it
 * (a `$meta` key goes to mingo's `$sort`).
 */
function sortPartition(docs: Doc[], stage: Doc, raw: Options): Doc[] {
  const sortBy = stage['sortBy'];
  if (sortBy === undefined || (isPlainObject(sortBy) && Object.keys(sortBy).length === 0)) return docs;
  const fields = sortFieldsOf(sortBy, patternDirection);
  if (!fields) return builtinStage('$sort')(Lazy(docs), sortBy, raw).collect<Doc>();
  if (docs.length > 0 && isPlainObject(stage['output']))
    checkRangeDirection(stage['output'], fields[0]!.descending);
  return sortByFields(docs, fields, normalizeCollation(raw.collation));
}

/**
 * The output documents of one partition of the stage `stage` (checked by window-stage.ts), computed one
 * at a time as they are read (see the file comment).
 * Each document is checked, and its size kept for the result's check, by limits.ts `checkOutputSize`
 * as checked-stages.ts does for other stages, the values documents share measured once.
 * @throws CommandError 5414201 past `internalDocumentSourceSetWindowFieldsMaxMemoryBytes`, 13548 for a
 *   document past 64 MiB, and the errors of the window functions, as the document that meets them is
 *   computed.
 */
export function* windowPartition(docs: Doc[], stage: Doc, options: Options): Generator<Doc> {
  // The stage receives mingo's per-run options object; its plain options are under `options`.
  const raw = (options as unknown as { options?: Options }).options ?? options;
  const memory = new WindowMemory();
  for (const doc of docs) memory.holdDocument(doc);
  const partition = sortPartition(docs, stage, raw);
  const outputs = outputsOf(stage['output'] as Doc);
  const values = outputs.map((output) => outputValues(output, partition, stage, raw.context, options));
  const paths = outputs.map((output) => output.field.split('.'));
  // Documents share the value of a whole-partition output: measured once for all of them.
  const sizes = new WeakMap<object, number>();
  for (let index = 0; index < partition.length; index++) {
    const doc = { ...partition[index]! };
    for (let k = 0; k < outputs.length; k++) {
      const value = values[k]!(index);
      memory.setState(k, value);
      setValue(doc, paths[k]!, value);
    }
    // One output at a time, each after a check of maxTimeMS, as checked-stages.ts does for the others.
    checkDeadline();
    yield checkOutputSize(doc, sizes);
  }
}
