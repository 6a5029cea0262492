/**
 * The `$limit` stage, which stops reading its input once it has handed on its count of documents, as
 * MongoDB's does (DocumentSourceLimit::doGetNext). mingo's read every remaining input document and
 * dropped them, so a `$limit` after a stage that computes its outputs as they are read
 * (`$setWindowFields`) still had every output computed. pipeline-check.ts checked the count (5107201).
 */
import { Lazy } from 'mingo/lazy';
import type { PipelineOp } from './operator-types.js';

/** The `$limit` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const limitStage: PipelineOp = (collection, count) => {
  let left = Number(count);
  return Lazy(() => (left-- > 0 ? collection.next() : { done: true, value: undefined }));
};
