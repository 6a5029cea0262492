/**
 * `$setWindowFields` with its partitions in MongoDB's order: MongoDB sorts by the `partitionBy` value and
 * then by `sortBy`, so partitions come out in ascending BSON order of their key; mingo's stage emits them
 * in the order their first document appears once sorted by `sortBy`. Here each partition, keyed and
 * ordered by the engine's BSON comparison, runs through mingo's stage on its own (under the memory rules
 * of set-window-fields.ts). MongoDB 7.0 runs that sort as a `$sort` stage before the stage proper
 * (document_source_set_window_fields.cpp `create`), so the input counts as a blocking sort against
 * `internalQueryMaxBlockingSortMemoryUsageBytes` (sort.ts).
 */
import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import { compareBson } from './compare.js';
import { limitedSetWindowFields } from './set-window-fields.js';
import { checkWindowOutput } from './window-checks.js';
import { checkSortMemory } from './sort.js';
import type { PipelineOp } from './operator-types.js';
import { isPlainObject, partitionByValue } from './values.js';
import type { Doc } from './values.js';
import { typeName } from './value-strings.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * The stage's document as MongoDB's IDL parser checks it: FailedToParse (9) when not a document, 40415
 * for an unknown field, 40414 without `output`, 14 for an `output` that is not a document; then each
 * output's window function (window-checks.ts).
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
  for (const output of Object.values(doc['output'] as Doc)) checkWindowOutput(output, doc['sortBy']);
}

/** True for a partitionBy that names no field or variable and computes nothing (`'x'`, `1`, `null`). */
function isConstant(partitionBy: unknown): boolean {
  if (typeof partitionBy === 'string') return !partitionBy.startsWith('$');
  return !isPlainObject(partitionBy) && !Array.isArray(partitionBy);
}

/** The `$setWindowFields` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const setWindowFieldsStage: PipelineOp = (collection, expr, options) => {
  checkSetWindowFields(expr);
  if (expr['partitionBy'] === undefined) {
    if (expr['sortBy'] === undefined) return limitedSetWindowFields(collection, expr, options);
    const counted = collection.transform((items: unknown[]) => {
      checkSortMemory(items);
      return Lazy(items);
    });
    return limitedSetWindowFields(counted, expr, options);
  }
  const { partitionBy, ...unpartitioned } = expr;
  // A constant partitionBy is one partition, which MongoDB sorts only by sortBy.
  const sorts = expr['sortBy'] !== undefined || !isConstant(partitionBy);
  return collection.transform((items: unknown[]) => {
    if (sorts) checkSortMemory(items);
    const partitions = partitionByValue(items, (item) => evalExpr(item, partitionBy, options));
    partitions.sort((a, b) => compareBson(a.value, b.value));
    return Lazy(
      partitions.flatMap(({ items: docs }) =>
        limitedSetWindowFields(Lazy(docs), unpartitioned, options).collect<Doc>(),
      ),
    );
  });
};
