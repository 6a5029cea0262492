/**
 * The multiset MongoDB 7.0 keeps the values or documents of its order-picking accumulators and window
 * functions in (`$minN`/`$maxN`, `$top`/`$bottom`/`$topN`/`$bottomN`: std::multiset in
 * accumulator_multi.cpp and window_function_min_max.h, a std::multimap by sort key in
 * window_function_top_bottom_n.h), as a sorted array with binary-search insert and delete.
 */

/** One member of the multiset: the order it came in (a document's index) and what it is ordered by. */
export interface Entry {
  index: number;
  key: unknown;
}

/**
 * A multiset of entries ordered by `compare`, then by index (the order they entered, as std::multiset
 * places a new element after its equals). With a `cap` (in `$group` and the array expressions, and over
 * a window documents never leave, where MongoDB runs the accumulator, which keeps n: AccumulatorMinMaxN
 * and AccumulatorTopBottomN `_processValue`) it
 * keeps the `cap` lowest entries (`keepLow`) or highest: a new entry goes in only if strictly better than
 * the worst kept, which it then replaces, so among equal entries the first seen stay.
 */
export class SortedEntries {
  readonly entries: Entry[] = [];
  constructor(
    private readonly compare: (a: unknown, b: unknown) => number,
    private readonly cap: number,
    private readonly keepLow: boolean,
  ) {}

  /** The position of the first entry after `entry` in the order. */
  private after(entry: Entry): number {
    let [low, high] = [0, this.entries.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      const e = this.entries[mid]!;
      const c = this.compare(e.key, entry.key) || e.index - entry.index;
      if (c <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  add(entry: Entry): void {
    const { entries } = this;
    if (entries.length >= this.cap) {
      if (this.keepLow) {
        if (this.compare(entries[entries.length - 1]!.key, entry.key) <= 0) return;
        entries.pop();
      } else {
        if (this.compare(entry.key, entries[0]!.key) <= 0) return;
        entries.shift();
      }
    }
    entries.splice(this.after(entry), 0, entry);
  }

  /** Removes `entry` (same index and key as added); documents leave oldest first. */
  remove(entry: Entry): void {
    const at = this.after(entry) - 1;
    if (this.entries[at]?.index === entry.index) this.entries.splice(at, 1);
  }
}

/**
 * The entries a multiset capped at `n` keeps of `keys` added in order (see {@link SortedEntries}), in
 * its order. When none can be dropped, that is a stable sort, which costs O(k log k) where inserting
 * one by one moves O(k²) slots.
 */
export function keepN(
  keys: unknown[],
  compare: (a: unknown, b: unknown) => number,
  n: number,
  keepLow: boolean,
): Entry[] {
  const entries = keys.map((key, index) => ({ index, key }));
  if (n >= entries.length) return entries.sort((a, b) => compare(a.key, b.key) || a.index - b.index);
  const set = new SortedEntries(compare, n, keepLow);
  for (const entry of entries) set.add(entry);
  return set.entries;
}
