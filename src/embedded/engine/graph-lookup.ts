/**
 * The `$graphLookup` stage: a breadth-first search over another collection, matching `connectToField`
 * with MongoDB's equality (values.ts `keyOf`, under the aggregation's collation), so that `Long(5)`, `5`
 * and `Decimal128('5')` connect, as they do in `$lookup` (lookup.ts). mingo's stage hashes JS values and
 * reports depths as doubles; MongoDB's `depthField` is an int64. A dotted `as` or `depthField` is a path
 * (nested-field.ts), where mingo's stage adds a field named `a.b`. As in `$lookup`, `connectFromField`
 * is read by join-values.ts and a document connects when `{ <connectToField>: { $in: <frontier> } }`
 * would match it, never when its `connectToField` is missing (makeMatchStageFromFrontier adds
 * `$exists: true`), where mingo's `resolve` enters arrays nested in arrays on both sides. The documents
 * one search finds and the values it continues from may take at most
 * `internalDocumentSourceGraphLookupMaxMemoryBytes`: MongoDB 7.0 cannot spill this stage, so that holds
 * whatever `allowDiskUse` says (40099, document_source_graph_lookup.cpp `checkMemoryUsage`).
 */
import { Long } from 'bson';
import { evalExpr } from 'mingo/core';
import { Query } from 'mingo/query';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import { integralValue } from './arithmetic.js';
import { joinValues } from './join-values.js';
import { indexByValue } from './lookup.js';
import { withNestedField } from './nested-field.js';
import { approximateSize, MemoryTracker } from './memory-limits.js';
import { isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

const builtinGraphLookup = builtinStage('$graphLookup');

/** `maxDepth` as a number of extra hops (Infinity when absent). @throws CommandError 40101. */
function depthLimit(value: unknown): number {
  if (value === undefined || value === null) return Infinity;
  const n = integralValue(value);
  if (n === undefined || n < 0) {
    throw new CommandError(
      40101,
      `$graphLookup.maxDepth must be a non-negative integer, found: ${Number(value)}`,
    );
  }
  return n;
}

/** The values a search starts from: `startWith`'s value, an array's elements one by one. */
function startValues(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** MongoDB 7.0's error past the limit. */
function graphExceeded(): CommandError {
  return new CommandError(40099, '$graphLookup reached maximum memory consumption');
}

/** The `$graphLookup` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const graphLookupStage: PipelineOp = (collection, expr, options) => {
  if (!isPlainObject(expr)) return builtinGraphLookup(collection, expr, options);
  const { from, connectFromField, connectToField, as, depthField } = expr;
  const valid =
    typeof from === 'string' &&
    typeof connectFromField === 'string' &&
    typeof connectToField === 'string' &&
    typeof as === 'string' &&
    (depthField === undefined || typeof depthField === 'string') &&
    options.collectionResolver !== undefined;
  if (!valid) return builtinGraphLookup(collection, expr, options);
  const maxDepth = depthLimit(expr['maxDepth']);
  const collation = normalizeCollation(options.collation);
  let foreign = options.collectionResolver(from) as Doc[];
  const restrict = expr['restrictSearchWithMatch'];
  if (restrict !== undefined) {
    const query = new Query(restrict as Doc, options);
    foreign = foreign.filter((doc) => query.test(doc));
  }
  const byKey = indexByValue(foreign, connectToField, collation, true);
  return collection.map((item) => {
    const depths = new Map<number, number>();
    const memory = new MemoryTracker('internalDocumentSourceGraphLookupMaxMemoryBytes', graphExceeded);
    let frontier = startValues(evalExpr(item, expr['startWith'], options));
    for (let depth = 0; depth <= maxDepth && frontier.length > 0; depth++) {
      const next: unknown[] = [];
      for (const value of frontier) {
        for (const index of byKey.get(keyOf(value, collation)) ?? []) {
          if (depths.has(index)) continue;
          depths.set(index, depth);
          memory.add(approximateSize(foreign[index]));
          const values = joinValues(foreign[index], connectFromField);
          for (const from of values) memory.add(approximateSize(from));
          next.push(...values);
        }
      }
      frontier = next;
    }
    const found = [...depths].map(([index, depth]) =>
      depthField === undefined
        ? foreign[index]!
        : withNestedField(foreign[index]!, depthField, Long.fromNumber(depth)),
    );
    return withNestedField(item as Doc, as, found);
  });
};
