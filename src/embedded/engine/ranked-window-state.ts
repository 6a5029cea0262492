/**
 * The states of the `$setWindowFields` functions that pick by order, as MongoDB 7.0 keeps them over a
 * window documents enter and leave: every value (or document) of the window in a multiset ordered by
 * value (`$minN`/`$maxN`, window_function_min_max.h) or by the `sortBy` keys (`$top`/`$bottom`/`$topN`/
 * `$bottomN`, window_function_top_bottom_n.h over AccumulatorTopBottomN), an entering one placed after
 * its equals and the leaving one, the oldest, taken from the front of its equals (sorted-entries.ts):
 * O(log w) comparisons and a move of up to w slots per document, where recomputing sorted the whole
 * window for each document. Over a window documents never leave, the answers are those of
 * ordered-accumulators.ts over the window (the same multiset, keeping n).
 */
import type { Options } from 'mingo/types';
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import { collect } from './number-operators.js';
import { countOf, globalOptions, sortFields } from './ordered-accumulators.js';
import { compareSortKeyLists, sortKeysOf } from './sort.js';
import { SortedEntries, type Entry } from './sorted-entries.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import type { WindowState } from './operator-types.js';

/**
 * A state factory for the window function `op` (with argument `args`) over the partition `docs`, or
 * undefined when `op` is not one of `$minN`/`$maxN`/`$top`/`$bottom`/`$topN`/`$bottomN`. A state's
 * `add`/`remove` take a document's index; each document's key is computed once for all states.
 * `removable` says whether documents leave the window (its lower bound is not `'unbounded'`); when
 * they do not, the state keeps only `n` entries, as MongoDB's accumulator does.
 * @throws CommandError 5787902, 5787903, 5787908 for a bad `n` (validateN), 9 for a bad `sortBy`, as
 *   ordered-accumulators.ts does.
 */
export function rankedWindowState(
  op: string,
  args: unknown,
  docs: Doc[],
  collation: Collation | undefined,
  removable: boolean,
  options: Options,
): (() => WindowState) | undefined {
  if (!isPlainObject(args)) return undefined;
  const keys: unknown[] = [];
  const entry = (key: (doc: Doc) => unknown) => (index: number) => ({
    index,
    key: index in keys ? keys[index] : (keys[index] = key(docs[index]!)),
  });
  switch (op) {
    case '$minN':
    case '$maxN': {
      const n = countOf(args, {}, globalOptions(options));
      const valueOf = entry((doc) => collect([doc], args['input'], options)[0]);
      const compare = (a: unknown, b: unknown) => compareBson(a, b, collation);
      const min = op === '$minN';
      const cap = removable ? Infinity : n;
      return () => extremesState(min, n, new SortedEntries(compare, cap, min), valueOf);
    }
    case '$top':
    case '$bottom':
    case '$topN':
    case '$bottomN': {
      const fields = sortFields(op, args['sortBy']);
      const single = op === '$top' || op === '$bottom';
      const n = single ? 1 : countOf(args, {}, globalOptions(options));
      const keysOf = entry((doc) => sortKeysOf(doc, fields, collation));
      const compare = (a: unknown, b: unknown) =>
        compareSortKeyLists(a as unknown[], b as unknown[], fields, collation);
      const fromEnd = op === '$bottom' || op === '$bottomN';
      const outputOf = (picked: Entry[]): unknown => {
        const outputs = collect(
          picked.map((e) => docs[e.index]!),
          args['output'],
          options,
        );
        return single ? (outputs[0] ?? null) : outputs;
      };
      const cap = removable ? Infinity : n;
      return () => rankedState(fromEnd, n, new SortedEntries(compare, cap, !fromEnd), keysOf, outputOf);
    }
    default:
      return undefined;
  }
}

/**
 * `$minN` (`min`) or `$maxN`: the `n` smallest / largest non-null values, null and missing left out as
 * MongoDB's add and remove skip nullish values.
 */
function extremesState(
  min: boolean,
  n: number,
  set: SortedEntries,
  valueOf: (index: number) => Entry,
): WindowState {
  const present = (e: Entry): boolean => e.key !== null && e.key !== undefined;
  return {
    add: (index) => {
      const e = valueOf(index);
      if (present(e)) set.add(e);
    },
    remove: (index) => {
      const e = valueOf(index);
      if (present(e)) set.remove(e);
    },
    result: () => {
      const { entries } = set;
      const picked = min ? entries.slice(0, n) : entries.slice(Math.max(0, entries.length - n)).reverse();
      return picked.map((e) => e.key);
    },
  };
}

/**
 * `$top`/`$topN` or (`fromEnd`) `$bottom`/`$bottomN`: `outputOf` the first / last `n` documents in
 * `sortBy` order, ties in window order.
 */
function rankedState(
  fromEnd: boolean,
  n: number,
  set: SortedEntries,
  keysOf: (index: number) => Entry,
  outputOf: (picked: Entry[]) => unknown,
): WindowState {
  return {
    add: (index) => set.add(keysOf(index)),
    remove: (index) => set.remove(keysOf(index)),
    result: () => {
      const { entries } = set;
      return outputOf(fromEnd ? entries.slice(Math.max(0, entries.length - n)) : entries.slice(0, n));
    },
  };
}
