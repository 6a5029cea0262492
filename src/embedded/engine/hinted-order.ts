/**
 * The order a hinted read answers in when it has no sort. MongoDB 7.0 plans a hinted query as a scan
 * of the hinted index (planner_access.cpp), so its documents come in that index's key order
 * (index-order.ts); `{ $natural: 1 }` forces a forward collection scan (insertion order) and
 * `{ $natural: -1 }` a reverse one (manual, cursor.hint(): "{ $natural : -1 } to force the query to
 * perform a reverse collection scan"). A multikey document comes at the first key within the scan's
 * bounds: the engine takes the keys whose values satisfy the filter's own conditions on the key's
 * fields, or all its keys when none does.
 */
import type { Collation } from './collation.js';
import { inIndexOrder, isIdIndex } from './index-order.js';
import type { IdIndex, KeyFilter, ScanIndex } from './index-order.js';
import type { Index } from './indexes.js';
import { compile } from './query.js';
import { namesIdIndex } from './return-key.js';
import type { RecordIds } from './collection.js';
import { isPlainObject, keyOf } from './values.js';
import type { Doc } from './values.js';

/** The scan a hint forces: an index, or the collection read backwards (`'reverse'`). */
export type HintedScan = ScanIndex | 'reverse';

/**
 * The scan that `hint` forces, given `hinted`, the secondary index checkHint found for it, and `id`, the
 * collection's `_id` index; undefined for no hint or a forward collection scan, which is the order
 * documents are read in anyway.
 */
export function hintedScan(hint: unknown, hinted: Index | undefined, id: IdIndex): HintedScan | undefined {
  if (hinted) return hinted;
  if (namesIdIndex(hint)) return id;
  if (isPlainObject(hint) && '$natural' in hint && Number(String(hint['$natural'])) < 0) return 'reverse';
  return undefined;
}

/** A document holding `value` at dotted path `field` (nothing when `value` is missing). */
function holding(field: string, value: unknown): Doc {
  const doc: Doc = {};
  if (value === undefined) return doc;
  const parts = field.split('.');
  let at = doc;
  for (const part of parts.slice(0, -1)) at = at[part] = {};
  at[parts[parts.length - 1]!] = value;
  return doc;
}

/**
 * The keys a scan of `index` bounded by prepared filter `filter`'s conditions on its fields reads: those
 * whose values satisfy the conditions on each key field; undefined (all keys) for no such condition.
 */
export function filterBounds(
  index: ScanIndex,
  filter: Doc,
  collation: Collation | undefined,
): KeyFilter | undefined {
  const fields = isIdIndex(index) ? ['_id'] : index.fields;
  const tests = fields.map((field) =>
    field in filter ? compile({ [field]: filter[field] }, collation) : undefined,
  );
  if (tests.every((test) => !test)) return undefined;
  return ({ values }) =>
    fields.every((field, i) => {
      const test = tests[i];
      return !test || test.test(holding(field, values[i]));
    });
}

/**
 * `docs`, the matches of prepared filter `filter` (in insertion order), in the order the scan `scan`
 * meets them. Throws nothing (the filter was compiled when the documents were matched).
 */
export function inHintedOrder(
  docs: Doc[],
  scan: HintedScan,
  filter: Doc,
  collation: Collation | undefined,
  records: RecordIds,
): Doc[] {
  if (scan === 'reverse') return [...docs].reverse();
  if (docs.length < 2) return docs;
  const recordOf = (doc: Doc) => records.of(keyOf(doc['_id']));
  return inIndexOrder(docs, (doc) => doc, recordOf, scan, filterBounds(scan, filter, collation), true);
}
