/**
 * The `$lookup` stage: mingo's, with MongoDB's equality for the `localField`/`foreignField` join. mingo
 * hashes the join values as JS values, so `Long(5)` and `5` (or `'A'` and `'a'` under a case-insensitive
 * collation) never join, and with both a join and a `pipeline` it runs the pipeline over the whole
 * foreign collection instead of the joined documents. Here the join is a map from the canonical key of
 * each foreign value (values.ts `keyOf`, under the aggregation's collation) to the foreign documents, and
 * a `pipeline` runs, through mingo's stage, over the joined documents only. A dotted `as` is a path, set
 * as MongoDB sets it (nested-field.ts), where mingo's stage adds a field named `a.b`. The documents
 * gathered for one input document are bounded by `internalLookupStageIntermediateDocumentMaxSizeBytes`
 * (4568), as in MongoDB 7.0.
 */
import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import type { Collation } from './collation.js';
import { withNestedField } from './nested-field.js';
import { approximateSize, memoryLimits } from './memory-limits.js';
import { getPath, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

const builtinLookup = builtinStage('$lookup');

/**
 * The values a join on `path` compares with: what mingo's `resolve` reaches (through arrays of
 * documents), and the elements of an array it reaches, two levels deep.
 */
function pathCandidates(obj: unknown, path: string): unknown[] {
  const value = resolve(obj as Record<string, unknown>, path, { unwrapArray: true });
  const out: unknown[] = [];
  const add = (v: unknown, depth: number): void => {
    out.push(v);
    if (Array.isArray(v) && depth < 2) for (const el of v) add(el, depth + 1);
  };
  add(value, 0);
  return out;
}

/**
 * Where each value of `path` occurs in `docs`: canonical key (values.ts `keyOf`, under `collation`) →
 * indexes of the documents whose `path` equals it or holds it in an array, in order and without repeats.
 */
export function indexByValue(
  docs: readonly Doc[],
  path: string,
  collation: Collation | undefined,
): Map<string, number[]> {
  const byKey = new Map<string, number[]>();
  docs.forEach((doc, index) => {
    for (const value of pathCandidates(doc, path)) {
      const key = keyOf(value, collation);
      const indexes = byKey.get(key);
      if (!indexes) byKey.set(key, [index]);
      else if (indexes[indexes.length - 1] !== index) indexes.push(index);
    }
  });
  return byKey;
}

/** mingo's stage over the one document `doc`, its results (a field named `as`) set at the path `as`. */
function builtinLookupAt(doc: Doc, spec: Doc, as: string, options: Options): Doc {
  const [result] = builtinLookup(Lazy([doc]), spec, options).collect();
  return withNestedField(doc, as, (result as Doc)[as]);
}

/**
 * Checks the documents one `$lookup` gathered for one input document as document_source_lookup.cpp does:
 * their sizes are added up in order, and a document arriving once the total is past the limit fails.
 * `from` is the foreign collection (a `$documents` pipeline reads MongoDB's `$cmd.aggregate`).
 * @throws CommandError 4568 "Total size of documents in … matching pipeline's $lookup stage exceeds N bytes".
 */
function checkGathered(docs: unknown, from: unknown): void {
  if (!Array.isArray(docs)) return;
  const limit = memoryLimits().knobs.internalLookupStageIntermediateDocumentMaxSizeBytes;
  let used = 0;
  for (const doc of docs) {
    if (used > limit) {
      const name = typeof from === 'string' ? from : '$cmd.aggregate';
      throw new CommandError(
        4568,
        `Total size of documents in ${name} matching pipeline's $lookup stage exceeds ${limit} bytes`,
      );
    }
    used += approximateSize(doc);
  }
}

/** The `$lookup` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const lookupStage: PipelineOp = (collection, expr, options) => {
  const joined = joinStage(collection, expr, options);
  if (!isPlainObject(expr) || typeof expr['as'] !== 'string') return joined;
  const as = expr['as'];
  return joined.map((doc) => {
    checkGathered(getPath(doc, as), expr['from']);
    return doc;
  });
};

/** `$lookup` itself: the join, the pipeline, or both (see the file comment). */
const joinStage: PipelineOp = (collection, expr, options) => {
  if (!isPlainObject(expr)) return builtinLookup(collection, expr, options);
  const { from, localField, foreignField, as } = expr;
  const joins =
    typeof from === 'string' &&
    typeof localField === 'string' &&
    typeof foreignField === 'string' &&
    typeof as === 'string' &&
    options.collectionResolver !== undefined;
  if (!joins) {
    if (typeof as !== 'string' || !as.includes('.')) return builtinLookup(collection, expr, options);
    return collection.map((item) => builtinLookupAt(item as Doc, expr, as, options));
  }
  const collation = normalizeCollation(options.collation);
  const foreign = options.collectionResolver(from) as Doc[];
  const byKey = indexByValue(foreign, foreignField, collation);
  const joined = (doc: Doc): Doc[] => {
    const local = resolve(doc, localField, { unwrapArray: true });
    const values = Array.isArray(local) ? local : [local];
    const indexes = new Set<number>();
    for (const value of values) for (const i of byKey.get(keyOf(value, collation)) ?? []) indexes.add(i);
    return [...indexes].sort((a, b) => a - b).map((i) => foreign[i]!);
  };
  // With a pipeline, mingo's stage runs it over each document's joined documents (given as `from`).
  const { localField: _local, foreignField: _foreign, ...pipelineSpec } = expr;
  return collection.map((item) => {
    const doc = item as Doc;
    const matches = joined(doc);
    if (expr['pipeline'] === undefined) return withNestedField(doc, as, matches);
    return builtinLookupAt(doc, { ...pipelineSpec, from: matches }, as, options);
  });
};
