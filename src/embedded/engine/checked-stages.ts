/**
 * The stages that compute the documents they output (`$addFields`, `$project`, `$group` …), each
 * document checked by limits.ts `checkValueSize` as it leaves the stage. A stage can reuse a value a
 * document holds (`{ $set: { v: { a: '$v', b: '$v' } } }` doubles `v`'s BSON while sharing its parts), so a
 * pipeline repeating such a stage would otherwise pass on a document that the next tree walk (a
 * `$project`, a `$match`, a copy) takes exponential time over; it fails with 13548 once past 64 MiB.
 */
import { checkValueSize } from './limits.js';
import type { PipelineOp } from './operator-types.js';

/** `stages`, each with its output documents checked. */
export function checkedStages(stages: Record<string, PipelineOp>): Record<string, PipelineOp> {
  return Object.fromEntries(
    Object.entries(stages).map(([name, stage]) => {
      const checked: PipelineOp = (collection, expr, options) =>
        stage(collection, expr, options).map((doc) => checkValueSize(doc));
      return [name, checked];
    }),
  );
}
