/**
 * `$text` or `$search` at the head of a `$lookup` or `$unionWith` pipeline, as MongoDB 7.0 runs them:
 * the pipeline's first `$match` becomes the query on the collection it reads, so `$text` there searches
 * that collection's text index (27 IndexNotFound without one), and the scores are that pipeline's own
 * metadata (jstests/aggregation/sources/lookup/lookup_contains_text.js,
 * jstests/aggregation/sources/match/text_search_requires_index.js); `$search` is allowed there since
 * MongoDB 6.0 (manual: $lookup, "Atlas Search Support"; $unionWith). mingo's stages cannot run either,
 * so the search runs first, once for the aggregation, and its scored documents stand in for the
 * collection as a leading `$documents` (documents-stage.ts); the rest of that `$match` follows it, so it
 * may still read the `$lookup`'s `let` variables.
 */
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** The searches of a collection `name`, each document found with its score's hidden field. */
export interface SubSearches {
  /** The documents matching `{ $text: text }`. */
  text: (name: string, text: unknown) => Doc[];
  /** The documents `{ $search: spec }` finds. */
  search: (name: string, spec: unknown) => Doc[];
}

/** Whether `stage` is a `$match` whose filter holds `$text` at its top level. */
export function isTextMatch(stage: unknown): boolean {
  return isPlainObject(stage) && isPlainObject(stage['$match']) && '$text' in stage['$match'];
}

/** `pipeline` with each `$lookup`/`$unionWith` pipeline (at any depth) that starts with `$text` or `$search` searched. */
export function searchSubPipelines(pipeline: readonly Doc[], search: SubSearches): Doc[] {
  return pipeline.map((stage) => searchStage(stage, search));
}

function searchStage(stage: Doc, search: SubSearches): Doc {
  const name = Object.keys(stage)[0];
  const spec = name === undefined ? undefined : stage[name];
  if (name === '$facet' && isPlainObject(spec)) {
    const branches: Doc = {};
    for (const [k, v] of Object.entries(spec))
      branches[k] = Array.isArray(v) ? searchSubPipelines(v as Doc[], search) : v;
    return { $facet: branches };
  }
  if (
    (name !== '$lookup' && name !== '$unionWith') ||
    !isPlainObject(spec) ||
    !Array.isArray(spec['pipeline'])
  )
    return stage;
  let pipeline = searchSubPipelines(spec['pipeline'] as Doc[], search);
  const from = name === '$lookup' ? spec['from'] : spec['coll'];
  const first = pipeline[0];
  if (typeof from === 'string' && isTextMatch(first)) {
    const { $text, ...rest } = first!['$match'] as Doc;
    const found = { $documents: { $literal: search.text(from, $text) } };
    pipeline = [found, ...(Object.keys(rest).length > 0 ? [{ $match: rest }] : []), ...pipeline.slice(1)];
  } else if (typeof from === 'string' && isPlainObject(first) && '$search' in first) {
    pipeline = [{ $documents: { $literal: search.search(from, first['$search']) } }, ...pipeline.slice(1)];
  }
  return { [name]: { ...spec, pipeline } };
}
