/**
 * The `$bucketAuto` stage: mingo's, which sorts all its input first. With `allowDiskUse: false` that
 * sort holds at most `internalDocumentSourceBucketAutoMaxMemoryBytes` of documents, as MongoDB 7.0's
 * sorter does (document_source_bucket_auto.cpp hands its knob to the sorter, whose error is 292).
 */
import { Lazy } from 'mingo/lazy';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { approximateSize, blockingTracker, sortExceeded } from './memory-limits.js';

const builtinBucketAuto = builtinStage('$bucketAuto');

/** The `$bucketAuto` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const bucketAutoStage: PipelineOp = (collection, expr, options) =>
  builtinBucketAuto(
    collection.transform((items: unknown[]) => {
      const tracker = blockingTracker('internalDocumentSourceBucketAutoMaxMemoryBytes', sortExceeded);
      if (tracker) for (const doc of items) tracker.add(approximateSize(doc));
      return Lazy(items);
    }),
    expr,
    options,
  );
