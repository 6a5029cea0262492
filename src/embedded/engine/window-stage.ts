/**
 * The partitioning stages as MongoDB 7.0 orders their output, around mingo's:
 * - `$setWindowFields`: MongoDB sorts by the `partitionBy` value and then by `sortBy`, so partitions come
 *   out in ascending BSON order of their key; mingo's stage emits them in the order their first document
 *   appears once sorted by `sortBy`. Here each partition, keyed and ordered by the engine's BSON
 *   comparison, runs through mingo's stage on its own (under the memory rules of set-window-fields.ts).
 * - `$densify`: the documents it adds list the partition fields before the densified field.
 */
import { evalExpr } from 'mingo/core';
import { Lazy } from 'mingo/lazy';
import { compareBson } from './compare.js';
import { builtinStage } from './operator-types.js';
import { limitedSetWindowFields } from './set-window-fields.js';
import type { PipelineOp } from './operator-types.js';
import { isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';

/** The `$setWindowFields` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const setWindowFieldsStage: PipelineOp = (collection, expr, options) => {
  if (!isPlainObject(expr) || expr['partitionBy'] === undefined) {
    return limitedSetWindowFields(collection, expr, options);
  }
  const { partitionBy, ...unpartitioned } = expr;
  return collection.transform((items: unknown[]) => {
    const partitions = new Map<string, { key: unknown; docs: Doc[] }>();
    for (const item of items) {
      const key = evalExpr(item, partitionBy, options);
      const id = keyOf(key);
      const partition = partitions.get(id);
      if (partition) partition.docs.push(item as Doc);
      else partitions.set(id, { key, docs: [item as Doc] });
    }
    const ordered = [...partitions.values()].sort((a, b) => compareBson(a.key, b.key));
    return Lazy(
      ordered.flatMap(({ docs }) =>
        limitedSetWindowFields(Lazy(docs), unpartitioned, options).collect<Doc>(),
      ),
    );
  });
};

const builtinDensify = builtinStage('$densify');

/**
 * `$densify` with MongoDB's field order in the documents it adds: the `partitionByFields` first, then the
 * densified field (`{ variety: 'Gesha', altitude: 1450 }`), where mingo's stage puts the field first. The
 * added documents are the ones that were not in the input.
 */
export const densifyStage: PipelineOp = (collection, expr, options) => {
  const fields =
    isPlainObject(expr) && Array.isArray(expr['partitionByFields']) ? expr['partitionByFields'] : [];
  if (fields.length === 0) return builtinDensify(collection, expr, options);
  return collection.transform((items: unknown[]) => {
    const input = new Set(items);
    const output = builtinDensify(Lazy(items), expr, options).collect<Doc>();
    return Lazy(
      output.map((doc) => {
        if (input.has(doc)) return doc;
        const reordered: Doc = {};
        for (const field of fields as string[]) if (field in doc) reordered[field] = doc[field];
        return Object.assign(reordered, doc);
      }),
    );
  });
};
