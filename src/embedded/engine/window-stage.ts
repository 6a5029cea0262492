/**
 * `$setWindowFields` with its partitions in MongoDB's order: MongoDB sorts by the `partitionBy` value and
 * then by `sortBy`, so partitions come out in ascending BSON order of their key; mingo's stage emits them
 * in the order their first document appears once sorted by `sortBy`. Here each partition, keyed and
 * ordered by the engine's BSON comparison, is computed on its own by set-window-fields.ts. MongoDB 7.0
 * runs that sort as a `$sort` stage before the stage proper (document_source_set_window_fields.cpp
 * `create`), so the input counts as a blocking sort against
 * `internalQueryMaxBlockingSortMemoryUsageBytes` (sort.ts).
 */
import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import { compareBson } from './compare.js';
import { windowPartition } from './set-window-fields.js';
import { checkSortKeys } from './sort-pattern.js';
import { checkWindowOutput } from './window-checks.js';
import { checkSortMemory } from './sort.js';
import type { Options } from 'mingo/types';
import type { PipelineOp } from './operator-types.js';
import { isPlainObject, partitionByValue } from './values.js';
import type { Doc } from './values.js';
import { typeName } from './value-strings.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * The stage's document as MongoDB's IDL parser checks it: FailedToParse (9) when not a document, 40415
 * for an unknown field, 40414 without `output`, 14 for an `output` or a `sortBy` that is not a document;
 * then `sortBy` as a sort pattern (sort-pattern.ts: 15974 for `{ t: 'x' }`, 15975 for `{ t: 2 }`, as
 * document_source_set_window_fields.cpp builds a SortPattern of it) and each output's window function
 * (window-checks.ts).
 */
function checkSetWindowFields(spec: unknown): asserts spec is Doc {
  const fail = (code: number, message: string): never => {
    throw new CommandError(code, message);
  };
  if (!isPlainObject(spec))
    fail(ErrorCodes.FailedToParse, 'The $setWindowFields stage specification must be an object');
  const doc = spec as Doc;
  for (const key of Object.keys(doc)) {
    if (!['partitionBy', 'sortBy', 'output'].includes(key))
      fail(40415, `BSON field '$setWindowFields.${key}' is an unknown field.`);
  }
  if (!('output' in doc)) fail(40414, "BSON field '$setWindowFields.output' is missing but a required field");
  if (!isPlainObject(doc['output'])) {
    fail(
      ErrorCodes.TypeMismatch,
      `BSON field '$setWindowFields.output' is the wrong type '${typeName(doc['output'])}', expected type 'object'`,
    );
  }
  const { sortBy } = doc;
  if (sortBy !== undefined) {
    if (!isPlainObject(sortBy)) {
      fail(
        ErrorCodes.TypeMismatch,
        `BSON field '$setWindowFields.sortBy' is the wrong type '${typeName(sortBy)}', expected type 'object'`,
      );
    }
    checkSortKeys(sortBy as Doc);
  }
  for (const [field, output] of Object.entries(doc['output'] as Doc))
    checkWindowOutput(field, output, sortBy);
}

/** True for a partitionBy that names no field or variable and computes nothing (`'x'`, `1`, `null`). */
function isConstant(partitionBy: unknown): boolean {
  if (typeof partitionBy === 'string') return !partitionBy.startsWith('$');
  return !isPlainObject(partitionBy) && !Array.isArray(partitionBy);
}

/** The output documents of every partition in turn, each computed as it is read. */
function* windowedDocuments(partitions: Doc[][], stage: Doc, options: Options): Generator<Doc> {
  for (const partition of partitions) yield* windowPartition(partition, stage, options);
}

/**
 * The `$setWindowFields` pipeline operator registered in the engine's context (same arguments as
 * mingo's). It reads its whole input, as MongoDB's sort before it does, and hands on its outputs one
 * at a time.
 */
export const setWindowFieldsStage: PipelineOp = (collection, expr, options) => {
  checkSetWindowFields(expr);
  const { partitionBy } = expr;
  // A constant partitionBy is one partition, which MongoDB sorts only by sortBy.
  const sorts = expr['sortBy'] !== undefined || (partitionBy !== undefined && !isConstant(partitionBy));
  return collection.transform((items: unknown[]) => {
    if (sorts) checkSortMemory(items);
    if (partitionBy === undefined) return Lazy(windowPartition(items as Doc[], expr, options));
    const partitions = partitionByValue(items as Doc[], (item) => evalExpr(item, partitionBy, options));
    partitions.sort((a, b) => compareBson(a.value, b.value));
    return Lazy(
      windowedDocuments(
        partitions.map((p) => p.items),
        expr,
        options,
      ),
    );
  });
};
