/**
 * The winning-plan stage `explain` reports for a filter, named as MongoDB names the plan it would pick:
 * `IDHACK` for an `_id` equality, `IXSCAN` when an index serves the filter (or an entry of its top-level
 * `$and`), `COLLSCAN` otherwise. It follows how `matchDocs` (engine/read.ts) chooses its candidates, so the
 * report says what the engine does.
 */
import { lookupIndex } from '../engine/indexes.js';
import type { Index } from '../engine/indexes.js';
import { isPlainObject } from '../engine/values.js';
import type { Doc } from '../engine/values.js';

/**
 * The stage for prepared filter `f` over a collection with `indexes`: 'IDHACK', 'IXSCAN' or 'COLLSCAN'.
 * Throws nothing (the filter was prepared, so checked, by the caller).
 */
export function planStage(f: Doc, indexes: readonly Index[]): string {
  if (
    '_id' in f &&
    (typeof f['_id'] !== 'object' ||
      f['_id'] === null ||
      !Object.keys(f['_id']).some((k) => k.startsWith('$')))
  )
    return 'IDHACK';
  if (lookupIndex(indexes, f, undefined)) return 'IXSCAN';
  if (!Array.isArray(f['$and'])) return 'COLLSCAN';
  for (const entry of f['$and'] as unknown[]) {
    const stage = isPlainObject(entry) ? planStage(entry, indexes) : 'COLLSCAN';
    if (stage !== 'COLLSCAN') return 'IXSCAN';
  }
  return 'COLLSCAN';
}
