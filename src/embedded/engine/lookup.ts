/**
 * The `$lookup` stage: mingo's, with MongoDB's equality for the `localField`/`foreignField` join. mingo
 * hashes the join values as JS values, so `Long(5)` and `5` (or `'A'` and `'a'` under a case-insensitive
 * collation) never join, and with both a join and a `pipeline` it runs the pipeline over the whole
 * foreign collection instead of the joined documents; it also reads both paths with its `resolve`, which
 * enters arrays nested in arrays. Here, as in MongoDB 7.0 (document_source_lookup.cpp
 * `makeMatchStageFromInput`), the local values are read by join-values.ts (none is null) and a foreign
 * document joins when the filter `{ <foreignField>: { $in: <values> } }` would match it: the join is a
 * map from the canonical key of each value the matcher reaches at `foreignField` (values.ts `keyOf`,
 * under the aggregation's collation) to the foreign documents, and a `pipeline` runs, through mingo's
 * stage, over the joined documents only. A dotted `as` is a path, set as MongoDB sets it
 * (nested-field.ts), where mingo's stage adds a field named `a.b`. The documents gathered for one input
 * document are bounded by `internalLookupStageIntermediateDocumentMaxSizeBytes` (4568), as in MongoDB
 * 7.0.
 */
import { Lazy, type Iterator } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import type { Collation } from './collation.js';
import { joinValues } from './join-values.js';
import { withNestedField } from './nested-field.js';
import { withInnerDocuments } from './documents-stage.js';
import { filterPath, someValue } from './query-path.js';
import { approximateSize, memoryLimits } from './memory-limits.js';
import { getPath, isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

const builtinLookup = builtinStage('$lookup');

/**
 * Where each value of `path` occurs in `docs`: canonical key (values.ts `keyOf`, under `collation`) →
 * indexes of the documents a filter `{ <path>: <value> }` matches, in order and without repeats. The
 * values are those the matcher reaches (query-path.ts), a leaf array's elements and the array itself; a
 * missing value is keyed as null, which matches it. With `present`, a document reaching no value but
 * missing ones is left out (`$graphLookup`'s `{ <connectToField>: { $exists: true } }`).
 */
export function indexByValue(
  docs: readonly Doc[],
  path: string,
  collation: Collation | undefined,
  present = false,
): Map<string, number[]> {
  const byKey = new Map<string, number[]>();
  const filter = filterPath(path);
  docs.forEach((doc, index) => {
    const keys = new Set<string>();
    let found = false;
    someValue(doc, filter, (value) => {
      keys.add(keyOf(value, collation));
      found ||= value !== undefined;
      return false;
    });
    if (present && !found) return;
    for (const key of keys) {
      const indexes = byKey.get(key);
      if (indexes) indexes.push(index);
      else byKey.set(key, [index]);
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

/**
 * A `$lookup` whose pipeline starts with `$documents` (`inner`, renamed for mingo to run it), which
 * stands for the foreign collection, `from` or not: mingo's stage runs it for each document, over one
 * empty document, and a join's `{ <foreignField>: { $in: <local values> } }` filters its documents, as
 * MongoDB places that `$match` right after the pipeline's source.
 */
function documentsLookup(collection: Iterator, expr: Doc, inner: unknown[], options: Options): Iterator {
  const { from: _from, localField, foreignField, as, ...rest } = expr;
  return collection.map((item) => {
    const doc = item as Doc;
    let pipeline = inner;
    if (typeof localField === 'string' && typeof foreignField === 'string') {
      const local = joinValues(doc, localField);
      const join = { $match: { [foreignField]: { $in: local.length > 0 ? local : [null] } } };
      pipeline = [inner[0], join, ...inner.slice(1)];
    }
    return builtinLookupAt(doc, { ...rest, as, from: [{}], pipeline }, String(as), options);
  });
}

/** `$lookup` itself: the join, the pipeline, or both (see the file comment). */
const joinStage: PipelineOp = (collection, expr, options) => {
  if (!isPlainObject(expr)) return builtinLookup(collection, expr, options);
  const inner = withInnerDocuments(expr['pipeline']);
  if (inner) return documentsLookup(collection, expr, inner, options);
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
    const local = joinValues(doc, localField);
    // "Missing values are treated as null" (document_source_lookup.cpp).
    const values = local.length > 0 ? local : [null];
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
