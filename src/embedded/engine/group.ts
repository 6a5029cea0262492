/**
 * The `$group` stage: mingo's, with MongoDB's notion of which `_id` values are the same group. mingo
 * compares group ids as JS values, so it keeps `Long(5)` apart from `5` and ignores the collation; here
 * documents are partitioned by the canonical key of their id (values.ts `keyOf`) whenever that could
 * differ, and mingo accumulates each partition.
 */
import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import { plainNumbers } from './numbers.js';
import { isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';

const builtinGroup = builtinStage('$group');

/** The `$group` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const groupStage: PipelineOp = (collection, expr, options) => {
  if (!isPlainObject(expr) || !('_id' in expr)) return builtinGroup(collection, expr, options);
  const collation = normalizeCollation(options.collation);
  return collection.transform((items: unknown[]) => {
    const ids = items.map((doc) => evalExpr(doc as Doc, expr['_id'], options));
    const sameAsMingo = !collation && ids.every((id) => plainNumbers(id) === id);
    if (sameAsMingo) return builtinGroup(Lazy(items), expr, options);
    const partitions = new Map<string, { id: unknown; docs: unknown[] }>();
    items.forEach((doc, i) => {
      const id = ids[i] ?? null;
      const key = keyOf(id, collation);
      const partition = partitions.get(key);
      if (partition) partition.docs.push(doc);
      else partitions.set(key, { id, docs: [doc] });
    });
    const out: unknown[] = [];
    for (const { id, docs } of partitions.values()) {
      out.push(...builtinGroup(Lazy(docs), { ...expr, _id: { $literal: id } }, options).collect());
    }
    return Lazy(out);
  });
};
