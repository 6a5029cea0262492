/**
 * The `$facet` stage, with MongoDB 7.0's bound on the document it builds (document_source_facet.cpp):
 * the documents every sub-pipeline outputs are counted, all facets together, as they come out, and past
 * `internalQueryFacetMaxOutputDocSizeBytes` the stage stops with 4031700, whatever `allowDiskUse` says
 * (`$facet` cannot spill). mingo's stage collected every facet whole before anything could stop it.
 */
import { Aggregator } from 'mingo/aggregator';
import { Lazy } from 'mingo/lazy';
import type { Options } from 'mingo/types';
import { approximateSize, MemoryTracker } from './memory-limits.js';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { isPlainObject, sharingCopier } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

const builtinFacet = builtinStage('$facet');

/** MongoDB 7.0's error once the facets' output passes the limit. */
function facetExceeded(used: number, limit: number): CommandError {
  return new CommandError(
    4031700,
    `document constructed by $facet is ${used} bytes, which exceeds the limit of ${limit} bytes`,
  );
}

/** The `$facet` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const facetStage: PipelineOp = (collection, expr, options) => {
  const spec = expr;
  if (!isPlainObject(spec) || !Object.values(spec).every(Array.isArray))
    return builtinFacet(collection, expr, options);
  const raw = (options as unknown as { options?: Options }).options ?? options;
  return collection.transform((items: unknown[]) => {
    const tracker = new MemoryTracker('internalQueryFacetMaxOutputDocSizeBytes', facetExceeded);
    const out: Doc = {};
    for (const [name, pipeline] of Object.entries(spec)) {
      // Each facet reads its own copy of the input, so that one cannot change what another sees; the
      // copy shares what the input shares (mingo's deep copy of each document made n copies of a
      // whole-partition $setWindowFields output held by n documents).
      const input = Lazy(items).map(sharingCopier());
      const docs: unknown[] = [];
      for (const doc of new Aggregator(pipeline as Doc[], raw).stream(input)) {
        tracker.add(approximateSize(doc));
        docs.push(doc);
      }
      out[name] = docs;
    }
    return Lazy([out]);
  });
};
