/**
 * `$match` stages that mingo runs (every one but a leading `$match`, which read.ts matches through the
 * indexes), with their filters prepared as a find's (query.ts `prepareFilter`): a BSON regex value
 * becomes a RegExp that matches, where mingo compares it as a plain object and matches nothing
 * (`{ $unwind: '$tags' }, { $match: { tags: /^a/ } }` found no document).
 */
import { prepareFilter } from './query.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/** A sub-pipeline with its `$match` stages prepared, or the value unchanged when it is not a pipeline. */
const prepared = (pipeline: unknown): unknown =>
  Array.isArray(pipeline) ? prepareMatchStages(pipeline as Doc[]) : pipeline;

/**
 * The stages of `pipeline` with each `$match` filter prepared, also inside `$facet`, `$lookup` and
 * `$unionWith` sub-pipelines, and each `$graphLookup`'s `restrictSearchWithMatch`. Other stages are
 * returned as they are.
 * @throws CommandError as `prepareFilter` does for a malformed filter.
 */
export function prepareMatchStages(pipeline: readonly Doc[]): Doc[] {
  return pipeline.map((stage) => {
    if (!isPlainObject(stage)) return stage;
    const [name] = Object.keys(stage);
    const spec = stage[name!];
    if (name === '$match') return { $match: prepareFilter(spec) };
    if (name === '$facet' && isPlainObject(spec)) {
      return { $facet: Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, prepared(v)])) };
    }
    if ((name === '$lookup' || name === '$unionWith') && isPlainObject(spec) && 'pipeline' in spec) {
      return { [name]: { ...spec, pipeline: prepared(spec['pipeline']) } };
    }
    // Its filter has a find's syntax too (a regex in it matched nothing).
    if (name === '$graphLookup' && isPlainObject(spec) && isPlainObject(spec['restrictSearchWithMatch'])) {
      return {
        $graphLookup: { ...spec, restrictSearchWithMatch: prepareFilter(spec['restrictSearchWithMatch']) },
      };
    }
    return stage;
  });
}
