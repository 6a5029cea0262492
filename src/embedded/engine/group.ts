/**
 * The `$group` stage: mingo's, with MongoDB's notion of which `_id` values are the same group. mingo
 * compares group ids as JS values, so it keeps `Long(5)` apart from `5`, ignores the collation, and
 * takes `{ a: 1, b: 2 }` and `{ b: 2, a: 1 }` for one id (MongoDB compares a document's fields in
 * their order, so they are two groups); here
 * documents are partitioned by their id (values.ts `partitionByValue`) whenever that could
 * differ, and mingo accumulates each partition. With `allowDiskUse: false` its groups may hold at most
 * `internalDocumentSourceGroupMaxMemoryBytes`, each counted as the approximate size of the document it
 * becomes (its `_id` and accumulated values), as MongoDB 7.0 counts group keys and accumulator states.
 */
import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import { globalOptions } from './ordered-accumulators.js';
import { plainNumbers } from './numbers.js';
import { approximateSize, blockingTracker } from './memory-limits.js';
import { isPlainObject, partitionByValue } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const builtinGroup = builtinStage('$group');

/** MongoDB 7.0's error past the limit without disk use (document_source_group.cpp). */
function groupExceeded(): CommandError {
  return new CommandError(
    ErrorCodes.QueryExceededMemoryLimitNoDiskUseAllowed,
    "Exceeded memory limit for $group, but didn't allow external sort. Pass allowDiskUse:true to opt in.",
  );
}

/**
 * The `$group` pipeline operator registered in the engine's context (same arguments as mingo's).
 * @throws CommandError 292 past the group memory limit without disk use.
 */
export const groupStage: PipelineOp = (collection, expr, options) =>
  groupAll(collection, expr, options).transform((groups: unknown[]) => {
    const tracker = blockingTracker('internalDocumentSourceGroupMaxMemoryBytes', groupExceeded);
    if (tracker) for (const group of groups) tracker.add(approximateSize(group));
    return Lazy(groups);
  });

/**
 * Whether mingo cannot group by `value` as MongoDB does: it holds a document of two or more fields, whose
 * field order mingo's ids ignore, or a field named `constructor`, which mingo's hash takes for the
 * object's class and reads the `name` of (a document `{ constructor: 'x' }` failed with a TypeError).
 */
function unfitForMingo(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(unfitForMingo);
  if (!isPlainObject(value)) return false;
  let fields = 0;
  for (const key in value) {
    if (++fields > 1 || key === 'constructor') return true;
    if (unfitForMingo(value[key])) return true;
  }
  return false;
}

/** The accumulators whose `n` MongoDB evaluates against the group key. */
const N_ACCUMULATORS = new Set(['$minN', '$maxN', '$firstN', '$lastN', '$topN', '$bottomN']);

/**
 * `expr` with the `n` of its N accumulators evaluated against the group key `id` (a document, else
 * an empty one, as ordered-accumulators.ts reads it), for a group mingo accumulates under a null id,
 * where the accumulators cannot see the key.
 */
function withKeyedCounts(expr: Doc, id: unknown, options: Options): Doc {
  const keyDoc = isPlainObject(id) ? id : {};
  const out: Doc = {};
  for (const [field, spec] of Object.entries(expr)) {
    const op = isPlainObject(spec) ? Object.keys(spec)[0] : undefined;
    const args = op === undefined ? undefined : (spec as Doc)[op];
    if (op !== undefined && N_ACCUMULATORS.has(op) && isPlainObject(args) && 'n' in args) {
      const n = evalExpr(keyDoc, args['n'], globalOptions(options));
      out[field] = { [op]: { ...args, n: { $literal: n } } };
    } else out[field] = spec;
  }
  return out;
}

const groupAll: PipelineOp = (collection, expr, options) => {
  if (!isPlainObject(expr) || !('_id' in expr)) return builtinGroup(collection, expr, options);
  const collation = normalizeCollation(options.collation);
  return collection.transform((items: unknown[]) => {
    const ids = items.map((doc) => evalExpr(doc as Doc, expr['_id'], options));
    const sameAsMingo = !collation && ids.every((id) => plainNumbers(id) === id && !unfitForMingo(id));
    if (sameAsMingo) return builtinGroup(Lazy(items), expr, options);
    const out: unknown[] = [];
    // Each partition is one group: mingo accumulates it under a null id (it never hashes the value).
    for (const { value, items: docs } of partitionByValue(items, (_, i) => ids[i] ?? null, collation)) {
      const keyed = withKeyedCounts(expr, value, options);
      for (const group of builtinGroup(Lazy(docs), { ...keyed, _id: null }, options).collect())
        out.push({ ...(group as Doc), _id: value });
    }
    return Lazy(out);
  });
};
