/**
 * The `$sort` stage (also behind `find`'s sort), in MongoDB's order (compare.ts): mingo's own sort orders
 * BSON types differently, sorts arrays by their smallest element in both directions and compares int64
 * values as text. With `allowDiskUse: false` it holds at most `internalQueryMaxBlockingSortMemoryUsageBytes`
 * of documents, as MongoDB 7.0's sorter does (292, sorter.cpp); a sort followed by a limit keeps only
 * that many documents there, so only those count ({@link boundSort}).
 */
import { Lazy } from 'mingo/lazy';
import { resolve } from 'mingo/util';
import { builtinStage } from './operator-types.js';
import type { PipelineOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import type { Collation } from './collation.js';
import { integralValue } from './arithmetic.js';
import { compareSortKeys, sortKey } from './compare.js';
import { approximateSize, blockingTracker, sortExceeded } from './memory-limits.js';
import { patternDirection } from './sort-pattern.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

const builtinSort = builtinStage('$sort');

/** `$sort` specs followed by a limit: how many documents the sort keeps. */
const bounds = new WeakMap<object, number>();

/**
 * Marks the `$sort` spec `spec` as followed by a limit of `keep` documents (`$sort` then `$limit`, or a
 * `find`'s sort with `skip + limit`), which MongoDB sorts keeping only the best `keep`.
 */
export function boundSort(spec: object, keep: number): void {
  bounds.set(spec, keep);
}

/**
 * Counts the documents a blocking sort holds against `internalQueryMaxBlockingSortMemoryUsageBytes` when
 * disk use is refused: `$sort`, and the sorts MongoDB 7.0 runs as a `$sort` stage inside `$densify` and
 * `$setWindowFields`. @throws CommandError 292 ({@link sortExceeded}).
 */
export function checkSortMemory(docs: unknown[]): void {
  const tracker = blockingTracker('internalQueryMaxBlockingSortMemoryUsageBytes', sortExceeded);
  if (tracker) for (const doc of docs) tracker.add(approximateSize(doc));
}

/** The `$sort` pipeline operator registered in the engine's context (same arguments as mingo's). */
export const sortStage: PipelineOp = (collection, sortKeys, options) => {
  const fields = sortFieldsOf(sortKeys, patternDirection);
  // Anything but a list of 1 / -1 keys (`$meta` keys) goes to mingo.
  if (!fields) return builtinSort(collection, sortKeys, options);
  const collation = normalizeCollation(options.collation);
  const keep = bounds.get(sortKeys as object);
  return collection.transform((items: unknown[]) => {
    if (keep === undefined) checkSortMemory(items);
    const sorted = sortByFields(items, fields, collation);
    if (keep !== undefined) checkSortMemory(sorted.slice(0, keep));
    return Lazy(sorted);
  });
};

/** One key of a sort: a field path and its direction. */
export interface SortField {
  path: string;
  descending: boolean;
}

/** A direction that is exactly 1 or -1, of any number type (`Long(-1)`, `Double(1)`). */
function exactDirection(value: unknown): 1 | -1 | undefined {
  const n = integralValue(value);
  return n === 1 || n === -1 ? n : undefined;
}

/**
 * The keys of a sort document `{ path: 1 | -1, … }`, or undefined when `spec` is not a non-empty one.
 * `directionOf` reads each direction: by default 1 or -1 of any number type (`Long(-1)`, `Double(1)`);
 * the sorts MongoDB parses as a SortPattern pass sort-pattern.ts' `patternDirection`.
 */
export function sortFieldsOf(
  spec: unknown,
  directionOf: (value: unknown) => 1 | -1 | undefined = exactDirection,
): SortField[] | undefined {
  const entries = isPlainObject(spec) ? Object.entries(spec) : [];
  if (entries.length === 0) return undefined;
  const fields: SortField[] = [];
  for (const [path, direction] of entries) {
    const n = directionOf(direction);
    if (path === '' || n === undefined) return undefined;
    fields.push({ path, descending: n === -1 });
  }
  return fields;
}

/**
 * `items` sorted by `fields` in MongoDB's order (compare.ts; arrays by their smallest or largest element),
 * stable. Values that are not documents have no fields: they sort as missing.
 */
export function sortByFields<T>(items: T[], fields: SortField[], collation?: Collation): T[] {
  const keyed = items.map((item) => ({ item, keys: sortKeysOf(item as Doc, fields, collation) }));
  keyed.sort((x, y) => compareSortKeyLists(x.keys, y.keys, fields, collation));
  return keyed.map((k) => k.item);
}

/** The keys `doc` sorts by under `fields`, for {@link compareSortKeyLists}. */
export function sortKeysOf(doc: Doc, fields: SortField[], collation?: Collation): unknown[] {
  return fields.map((f) => sortKey(resolve(doc, f.path), f.descending, collation));
}

/** The order of two documents' {@link sortKeysOf} under `fields`: negative, 0 or positive. */
export function compareSortKeyLists(
  x: unknown[],
  y: unknown[],
  fields: SortField[],
  collation?: Collation,
): number {
  for (let i = 0; i < fields.length; i++) {
    const c = compareSortKeys(x[i], y[i], collation);
    if (c !== 0) return fields[i]!.descending ? -c : c;
  }
  return 0;
}
