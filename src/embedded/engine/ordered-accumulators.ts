/**
 * The accumulators that pick values by order, in MongoDB's comparison order (compare.ts) and under the
 * aggregation's collation: `$min`/`$max`, `$minN`/`$maxN`, `$top`/`$bottom` and `$topN`/`$bottomN`; and
 * `$firstN`/`$lastN`, which pick by position.
 * mingo's compare int64s, decimals and strings under a collation in its own order, and its `$top` and
 * `$bottom` return a one-element array where MongoDB returns the value.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { overGroup, type AccumulatorOp, type ExpressionOp } from './operator-types.js';
import { normalizeCollation } from './collation.js';
import { compareBson } from './compare.js';
import { collect } from './number-operators.js';
import { compareSortKeyLists, sortFieldsOf, sortKeysOf } from './sort.js';
import { keepN } from './sorted-entries.js';
import { patternDirection } from './sort-pattern.js';
import type { SortField } from './sort.js';
import { isPlainObject } from './values.js';
import { numberKind } from './arithmetic.js';
import { coerceToLong, numberOf, valueText } from './value-strings.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const present = (v: unknown): boolean => v !== null && v !== undefined;

/**
 * `n` of the N operators as AccumulatorN::validateN (accumulator_multi.cpp) checks it: a number
 * (5787902), of integral value (5787903), greater than 0 (5787908). Both type errors read "Value for 'n'
 * must be of integral type, but found <value>", the value as MongoDB prints it (`MISSING` for a path
 * that reads nothing, as a non-constant `n` of a window function does).
 */
export function validateN(value: unknown): number {
  const integral = (): never => {
    throw new CommandError(5787903, `Value for 'n' must be of integral type, but found ${valueText(value)}`);
  };
  if (numberKind(value) === undefined)
    throw new CommandError(5787902, `Value for 'n' must be of integral type, but found ${valueText(value)}`);
  // A double beyond the long range converts to the lowest long (x86), never equal to the double.
  if (!Number.isFinite(numberOf(value)) || Math.abs(numberOf(value)) >= 2 ** 63) integral();
  const n = coerceToLong(value);
  if (n !== numberOf(value)) integral();
  if (n <= 0) throw new CommandError(5787908, `'n' must be greater than 0, found ${n}`);
  return n;
}

/**
 * `n` of the N operators, its expression evaluated against `scope` under `options`, then checked
 * ({@link validateN}). @throws CommandError 5787902, 5787903, 5787908.
 */
export function countOf(spec: Doc, scope: Doc, options: Options): number {
  return validateN(evalExpr(scope, spec['n'], options));
}

/**
 * `options` without the locals of the current evaluation (mingo reads a `$path` from the local root,
 * which in a group is the group's documents): what `n` of a group or a window function is evaluated
 * with, MongoDB evaluating it against the group key or nothing, with only the aggregate's variables.
 */
export function globalOptions(options: Options): Options {
  return (options as { options?: Options }).options ?? options;
}

/**
 * The document `n` of an N accumulator in `$group` reads: the group's `_id` when it is a document, else
 * an empty one (GroupProcessorBase evaluates the initializer against the expanded id). mingo hands
 * accumulators the `_id` in their options.
 */
function groupKeyDocOf(options: Options): Doc {
  const id = (options as { local?: { groupId?: unknown } }).local?.groupId;
  return isPlainObject(id) ? id : {};
}

/** The keys of the `sortBy` of `$top`/`$bottom`/`$topN`/`$bottomN` `name`. @throws CommandError 9. */
export function sortFields(name: string, sortBy: unknown): SortField[] {
  const fields = sortFieldsOf(sortBy, patternDirection);
  if (fields) return fields;
  throw new CommandError(ErrorCodes.FailedToParse, `${name} requires a sortBy of 1 / -1 fields`);
}

/** `$min`/`$max`: the smallest/largest non-null value, its type kept. */
function extreme(sign: 1 | -1): AccumulatorOp {
  return (collection, expr, options) => {
    const collation = normalizeCollation(options.collation);
    let best: unknown = null;
    for (const v of collect(collection, expr, options)) {
      if (present(v) && (best === null || sign * compareBson(v, best, collation) < 0)) best = v;
    }
    return best;
  };
}

/**
 * The `n` smallest (`$minN`) or largest (`$maxN`) non-null `values`, smallest/largest first, kept as
 * AccumulatorMinMaxN keeps them (a tie never replaces a kept value) and read as its getValue reads them:
 * `$minN` from the multiset's start, `$maxN` from its end, so of equal values the last seen comes first.
 */
function pickExtremes(name: string, values: unknown[], n: number, options: Options): unknown[] {
  const min = name === '$minN';
  const collation = normalizeCollation(options.collation);
  const kept = keepN(values.filter(present), (a, b) => compareBson(a, b, collation), n, min).map(
    (e) => e.key,
  );
  return min ? kept : kept.reverse();
}

/** How an N operator picks `n` of its values. */
type Pick = (values: unknown[], n: number, options: Options) => unknown[];

/** An N accumulator (`{ input, n }`) over a group: `pick` of the group's values. */
function nAccumulator(name: string, pick: Pick): AccumulatorOp {
  return (collection, expr, options) => {
    if (!isPlainObject(expr)) throw new CommandError(ErrorCodes.FailedToParse, `${name} needs { input, n }`);
    const n = countOf(expr, groupKeyDocOf(options), globalOptions(options));
    return pick(collect(collection, expr['input'], options), n, options);
  };
}

/**
 * An N operator as an expression: over a group when mingo hands it one (in `$group`, expression operators
 * win over accumulators of the same name), else over the array `input` of one document (5788200 when
 * it is not an array, null and missing included).
 */
function nExpression(name: string, pick: Pick): ExpressionOp {
  return overGroup(nAccumulator(name, pick), (obj, expr, options) => {
    if (!isPlainObject(expr)) throw new CommandError(ErrorCodes.FailedToParse, `${name} needs { input, n }`);
    // ExpressionFromAccumulatorN::evaluate: n first, then an input that must be an array, null too.
    const n = countOf(expr, obj as Doc, options);
    const input = evalExpr(obj, expr['input'], options);
    if (!Array.isArray(input)) throw new CommandError(5788200, 'Input must be an array');
    return pick(input as unknown[], n, options);
  });
}

/** `$minN`/`$maxN`: the `n` smallest/largest non-null values. */
const extremesOf =
  (name: '$minN' | '$maxN'): Pick =>
  (values, n, options) =>
    pickExtremes(name, values, n, options);

/**
 * `$firstN`/`$lastN`: the first/last `n` values, nulls kept, `n` of any integral type (mingo took only a
 * JS integer, refusing `NumberLong(2)`).
 */
const endsOf =
  (name: '$firstN' | '$lastN'): Pick =>
  (values, n) =>
    name === '$firstN' ? values.slice(0, n) : values.slice(Math.max(0, values.length - n));

/** `$top`/`$bottom` (one output) and `$topN`/`$bottomN` (`n` outputs) of the group sorted by `sortBy`. */
function ranked(name: '$top' | '$bottom' | '$topN' | '$bottomN'): AccumulatorOp {
  const single = name === '$top' || name === '$bottom';
  const fromEnd = name === '$bottom' || name === '$bottomN';
  return (collection, expr, options) => {
    if (!isPlainObject(expr)) throw new CommandError(ErrorCodes.FailedToParse, `${name} needs an object`);
    const n = single ? 1 : countOf(expr, groupKeyDocOf(options), globalOptions(options));
    const fields = sortFields(name, expr['sortBy']);
    const collation = normalizeCollation(options.collation);
    // AccumulatorTopBottomN keeps n by sort key, a tie never replacing a kept document, and answers
    // them in sort order whichever end it keeps.
    const keys = collection.map((doc) => sortKeysOf(doc as Doc, fields, collation));
    const compare = (a: unknown, b: unknown) =>
      compareSortKeyLists(a as unknown[], b as unknown[], fields, collation);
    const picked = keepN(keys, compare, n, !fromEnd).map((e) => collection[e.index]);
    const outputs = collect(picked, expr['output'], options);
    return single ? (outputs[0] ?? null) : outputs;
  };
}

/** Accumulators registered over mingo's. */
export const orderedAccumulators: Record<string, AccumulatorOp> = {
  $min: extreme(1),
  $max: extreme(-1),
  $minN: nAccumulator('$minN', extremesOf('$minN')),
  $maxN: nAccumulator('$maxN', extremesOf('$maxN')),
  $firstN: nAccumulator('$firstN', endsOf('$firstN')),
  $lastN: nAccumulator('$lastN', endsOf('$lastN')),
  $top: ranked('$top'),
  $bottom: ranked('$bottom'),
  $topN: ranked('$topN'),
  $bottomN: ranked('$bottomN'),
};

/** Expression operators registered over mingo's (the array forms of `$minN`/`$maxN`/`$firstN`/`$lastN`). */
export const orderedExpressions: Record<string, ExpressionOp> = {
  $minN: nExpression('$minN', extremesOf('$minN')),
  $maxN: nExpression('$maxN', extremesOf('$maxN')),
  $firstN: nExpression('$firstN', endsOf('$firstN')),
  $lastN: nExpression('$lastN', endsOf('$lastN')),
};
