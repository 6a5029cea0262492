/**
 * The stages that compute the documents they output (`$addFields`, `$project`, `$group` …), each
 * document checked by limits.ts `checkOutputSize` as it leaves the stage. A stage can reuse a value a
 * document holds (`{ $set: { v: { a: '$v', b: '$v' } } }` doubles `v`'s BSON while sharing its parts), so a
 * pipeline repeating such a stage would otherwise pass on a document that the next tree walk (a
 * `$project`, a `$match`, a copy) takes exponential time over; it fails with 13548 once past 64 MiB.
 * The size measured is kept for the result's check (limits.ts `checkResultSize`) unless a later stage
 * may change the document in place: see {@link changingStages}.
 */
import { checkDeadline } from './deadline.js';
import { checkOutputSize, forgetOutputSize } from './limits.js';
import type { PipelineOp } from './operator-types.js';

/**
 * `stages`, each with every document it outputs passed through `output`, after a check of the command's
 * `maxTimeMS` (deadline.ts): MongoDB checks for interrupts as each stage produces a document, so a long
 * pipeline stops with 50 rather than running past its time limit.
 */
function mapOutputs(
  stages: Record<string, PipelineOp>,
  output: (doc: unknown) => unknown,
): Record<string, PipelineOp> {
  const checked = (doc: unknown): unknown => {
    checkDeadline();
    return output(doc);
  };
  return Object.fromEntries(
    Object.entries(stages).map(([name, stage]) => {
      const mapped: PipelineOp = (collection, expr, options) => stage(collection, expr, options).map(checked);
      return [name, mapped];
    }),
  );
}

/** `stages`, each with its output documents checked and their sizes kept. */
export function checkedStages(stages: Record<string, PipelineOp>): Record<string, PipelineOp> {
  return mapOutputs(stages, (doc) => checkOutputSize(doc));
}

/**
 * `stages`, each dropping the size kept for a document it outputs: stages that may change the
 * documents they receive in place (mingo's `$unwind` removes an empty array's field and sets
 * `includeArrayIndex` on its input) or build new ones. Only the stages that pass on the very documents
 * they receive, unchanged (`$match`, `$sort`, `$limit`, `$skip`, `$sample`, `$unionWith`), go without.
 */
export function changingStages(stages: Record<string, PipelineOp>): Record<string, PipelineOp> {
  return mapOutputs(stages, forgetOutputSize);
}
