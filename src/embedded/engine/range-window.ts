/**
 * `$setWindowFields` range windows (`window: { range: [lower, upper], unit? }`), bounded as MongoDB 7.0
 * bounds them (PartitionIterator::getEndpointsRangeBased, src/mongo/db/pipeline/window_function/
 * partition_iterator.cpp). The current document's sortBy value is the base: a number, or a date when the
 * window has a `unit` (5429414, 5429413 and 5429513 otherwise). A numeric bound is the base plus the
 * bound, or with a `unit` the base moved by that many units in UTC (date-arithmetic.ts's `dateAdd`: a
 * month after 31 January is the last day of February); `'current'` is the current document itself and
 * `'unbounded'` the first (last) document whose sortBy value has the base's type. The window is every
 * document between the first whose value is not below the lower bound (when of that type) and the last
 * whose value is not above the upper bound. mingo computed these bounds with its own `$dateAdd`, read
 * only top-level sortBy fields and took a missing or null value as 0.
 */
import { add, numberKind } from './arithmetic.js';
import { compareBson } from './compare.js';
import { dateAdd } from './date-arithmetic.js';
import { UTC } from './time-zone.js';
import { typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

/** A range window: its two bounds as written (window-bounds.ts checked them) and its time unit. */
export interface RangeWindow {
  range: [unknown, unknown];
  unit?: string;
}

/**
 * Refuses range windows over a descending `sortBy` once a partition has a document, as MongoDB 7.0 does:
 * its partition iterator keeps the sortBy expression only for one ascending field ("Descending sorts are
 * not allowed with range-based bounds", partition_iterator.cpp `exprFromSort`), and computing any
 * range-based window without it trips `tassert(5429404, "Missing _sortExpr with range-based bounds")`
 * (`getEndpointsRangeBased`). Later servers refuse it while parsing (window_bounds.cpp, 8947401).
 * @param output the stage's `output` (checked by window-checks.ts).
 * @param descending whether the stage's one sortBy field sorts descending.
 * @throws CommandError 5429404.
 */
export function checkRangeDirection(output: Doc, descending: boolean): void {
  if (!descending) return;
  const ranged = Object.values(output).some(
    (spec) => isPlainObject(spec) && isPlainObject(spec['window']) && spec['window']['range'] !== undefined,
  );
  if (ranged) throw new CommandError(5429404, 'Missing _sortExpr with range-based bounds');
}

/** The first index in [from, to) whose value passes `test`, or `to`; `test` must pass from some index on. */
function firstPassing(values: unknown[], from: number, to: number, test: (v: unknown) => boolean): number {
  let [low, high] = [from, to];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(values[middle])) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The first index in [from, values.length) whose value passes `test`, or the length. */
function firstFound(values: unknown[], from: number, test: (v: unknown) => boolean): number {
  for (let i = from; i < values.length; i++) if (test(values[i])) return i;
  return values.length;
}

/**
 * The range window of each document of a partition: for the document at `current`, the indexes
 * [first, last] of its window, or undefined when the window is empty. `values` are the partition's
 * sortBy values in sort order. When they ascend by compareBson (the usual case: a partition sorted on
 * numbers or dates) every bound is found by bisection, so a window costs O(log n), not O(n): a running
 * `range: ['unbounded', 'current']` over n documents was quadratic. Otherwise (strings under a collation,
 * arrays sorted by an element) each bound is the first match scanned from the start.
 * @throws CommandError 5429413, 5429414 or 5429513 for a current value the window cannot measure from.
 */
export function rangeFrame(
  values: unknown[],
  range: RangeWindow,
): (current: number) => [number, number] | undefined {
  const { unit } = range;
  const below = (a: unknown, b: unknown): boolean => compareBson(a, b) < 0;
  const ascending = values.every((v, i) => i === 0 || !below(v, values[i - 1]));
  const search = ascending
    ? (from: number, test: (v: unknown) => boolean) => firstPassing(values, from, values.length, test)
    : (from: number, test: (v: unknown) => boolean) => firstFound(values, from, test);
  const expected = (v: unknown): boolean =>
    unit !== undefined ? v instanceof Date : numberKind(v) !== undefined;
  // Values of one type sit together in ascending order: the block of the window's type, found once.
  const typeStart = firstFound(values, 0, expected);
  const typeEnd = ascending ? firstFound(values, typeStart, (v) => !expected(v)) : -1;
  return (current) => {
    const base = values[current];
    const fail = (code: number, message: string): never => {
      throw new CommandError(code, `Invalid range: ${message}`);
    };
    if (unit !== undefined) {
      if (!(base instanceof Date))
        fail(5429513, `Expected the sortBy field to be a Date, but it was ${typeName(base)}`);
    } else {
      if (base instanceof Date)
        fail(5429413, 'For windows that involve date or time ranges, a unit must be provided.');
      if (numberKind(base) === undefined)
        fail(5429414, `Expected the sortBy field to be a number, but it was ${typeName(base)}`);
    }
    const threshold = (delta: unknown): unknown =>
      unit !== undefined
        ? new Date(dateAdd((base as Date).getTime(), unit, Math.trunc(Number(delta)), UTC))
        : add([base, delta]);

    let lower: number;
    const [from, to] = range.range;
    if (from === 'current') lower = current;
    else if (from === 'unbounded') lower = typeStart;
    else {
      const t = threshold(from);
      lower = search(0, (v) => !below(v, t));
      if (lower < values.length && !expected(values[lower])) lower = values.length;
    }
    if (lower >= values.length) return undefined;

    let upper: number;
    if (to === 'current') upper = current;
    else if (to === 'unbounded')
      upper = (ascending ? typeEnd : firstFound(values, lower, (v) => !expected(v))) - 1;
    else {
      const t = threshold(to);
      upper = search(lower, (v) => below(t, v)) - 1;
    }
    return upper < lower ? undefined : [lower, upper];
  };
}
