/**
 * `$text` at the head of a `$lookup` or `$unionWith` pipeline, as MongoDB 7.0 runs it: the pipeline's
 * first `$match` becomes the query on the collection it reads, so `$text` there searches that
 * collection's text index (27 IndexNotFound without one), and the scores are that pipeline's own
 * metadata (jstests/aggregation/sources/lookup/lookup_contains_text.js,
 * jstests/aggregation/sources/match/text_search_requires_index.js). mingo's stages cannot run `$text`,
 * so the search runs first, once for the aggregation, and its scored documents stand in for the
 * collection as a leading `$documents` (documents-stage.ts); the rest of that `$match` follows it, so it
 * may still read the `$lookup`'s `let` variables.
 */
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** The documents of collection `name` matching `{ $text: text }`, each with its score's hidden field. */
export type TextSearch = (name: string, text: unknown) => Doc[];

/** Whether `stage` is a `$match` whose filter holds `$text` at its top level. */
export function isTextMatch(stage: unknown): boolean {
  return isPlainObject(stage) && isPlainObject(stage['$match']) && '$text' in stage['$match'];
}

/** `pipeline` with each `$lookup`/`$unionWith` pipeline (at any depth) that starts with `$text` searched. */
export function searchSubPipelines(pipeline: readonly Doc[], search: TextSearch): Doc[] {
  return pipeline.map((stage) => searchStage(stage, search));
}

function searchStage(stage: Doc, search: TextSearch): Doc {
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
    const found = { $documents: { $literal: search(from, $text) } };
    pipeline = [found, ...(Object.keys(rest).length > 0 ? [{ $match: rest }] : []), ...pipeline.slice(1)];
  }
  return { [name]: { ...spec, pipeline } };
}
