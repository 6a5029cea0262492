/**
 * The `$setWindowFields` functions whose arithmetic MongoDB 7.0 defines to the last bit, computed in its
 * order (mingo's round differently, so the manual's documented outputs came out a digit off; `$integral`
 * is integral-window.ts):
 * - `$derivative`: (last − first input) ÷ (last − first sortBy), then × the unit's milliseconds
 *   (window_function_exec_derivative.cpp);
 * - `$expMovingAvg`: in decimal128, `value × α + previous × (1 − α)` with α = 2 ÷ (N + 1) or the given
 *   `alpha`, returned as a double unless an input was a decimal (accumulator_exp_moving_avg.cpp).
 * And `$linearFill` is mingo's after MongoDB's checks of the sortBy values; `$rank` and `$denseRank` tie
 * values MongoDB compares as equal.
 */
import { evalExpr } from 'mingo/core';
import { $linearFill as builtinLinearFill } from 'mingo/operators/window';
import { Decimal128 } from 'bson';
import { add, divideDecimal, multiply, numberKind, subtract } from './arithmetic.js';
import { compareBson } from './compare.js';
import { asDouble } from './numbers.js';
import { isNullish, typeName, valueText } from './value-strings.js';
import { getPath } from './values.js';
import type { Doc } from './values.js';
import type { WindowCall, WindowOp } from './operator-types.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** Milliseconds of the units `$derivative` and `$integral` take. */
const UNIT_MS: Record<string, number> = {
  week: 604_800_000,
  day: 86_400_000,
  hour: 3_600_000,
  minute: 60_000,
  second: 1000,
  millisecond: 1,
};

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

/** The value of the window's single `sortBy` field in `doc`. */
const sortValue = (doc: Doc, expr: WindowCall): unknown =>
  getPath(doc, Object.keys(expr.parentExpr.sortBy ?? {})[0] ?? '');

/** A sortBy value as a number (a date as ms since the epoch), or undefined when it is neither. */
function position(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  return numberKind(value) === undefined ? undefined : Number(value);
}

/**
 * The milliseconds of the `unit` of `$derivative` or `$integral` (`op`) with argument `args`, or
 * undefined without one.
 * @throws CommandError FailedToParse for a unit that is not a fixed length of time.
 */
export function unitMs(op: string, args: Record<string, unknown>): number | undefined {
  const unit = args['unit'];
  if (unit === undefined) return undefined;
  const ms = typeof unit === 'string' ? UNIT_MS[unit] : undefined;
  if (ms === undefined) {
    fail(
      ErrorCodes.FailedToParse,
      `${op} 'unit' must be a fixed-length time unit (week or shorter), found: ${valueText(unit)}`,
    );
  }
  return ms;
}

const derivative: WindowOp = (_obj, window, expr, options) => {
  if (window.length === 0) return null;
  const left = window[0]!;
  const right = window[window.length - 1]!;
  const [x1, x2] = [sortValue(left, expr), sortValue(right, expr)];
  const ms = unitMs('$derivative', expr.inputExpr);
  if (ms !== undefined) {
    if (!(x1 instanceof Date && x2 instanceof Date))
      fail(5624900, "$derivative with 'unit' expects the sortBy field to be a Date");
  } else {
    if (x1 instanceof Date || x2 instanceof Date)
      fail(5624901, "$derivative where the sortBy is a Date requires an 'unit'");
    if (position(x1) === undefined || position(x2) === undefined)
      fail(5624902, "$derivative (with no 'unit') expects the sortBy field to be numeric");
  }
  const run = position(x2)! - position(x1)!;
  const input = expr.inputExpr['input'];
  const [y1, y2] = [evalExpr(left, input, options), evalExpr(right, input, options)];
  if (isNullish(y1) || isNullish(y2)) fail(5624903, '$derivative input must not be null or missing');
  const rise = subtract(y2, y1);
  // A window of one document has no run: null, as MongoDB answers a division by zero here.
  if (run === 0) return null;
  if (numberKind(rise) === 'decimal') {
    const slope = divideDecimal(rise, run);
    return ms === undefined ? slope : multiply([slope, ms]);
  }
  const slope = Number(rise) / run;
  return asDouble(ms === undefined ? slope : slope * ms);
};

/**
 * `$expMovingAvg`'s argument: `input` and one of `N` (a positive integer) or `alpha` (strictly between 0
 * and 1). Errors: FailedToParse (9) with MongoDB's messages.
 */
function checkExpMovingAvg(args: Doc): Doc {
  const keys = Object.keys(args);
  const weighting = keys.filter((key) => key === 'N' || key === 'alpha');
  if (keys.length !== 2 || !('input' in args) || weighting.length !== 1) {
    fail(
      ErrorCodes.FailedToParse,
      "$expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field",
    );
  }
  const { N, alpha } = args;
  if (N !== undefined) {
    if (numberKind(N) === undefined)
      fail(ErrorCodes.FailedToParse, `'N' field must be an integer, but found type ${typeName(N)}`);
    if (!Number.isInteger(Number(N))) {
      fail(
        ErrorCodes.FailedToParse,
        `'N' field must be an integer, but found  N: ${valueText(N)}. To use a non-integer, use the 'alpha' argument instead`,
      );
    }
    if (Number(N) <= 0) fail(ErrorCodes.FailedToParse, `'N' must be greater than zero. Got ${valueText(N)}`);
  } else {
    if (numberKind(alpha) === undefined) fail(ErrorCodes.FailedToParse, "'alpha' must be a number");
    if (!(Number(alpha) > 0 && Number(alpha) < 1)) {
      fail(
        ErrorCodes.FailedToParse,
        `'alpha' must be between 0 and 1 (exclusive), found alpha: ${valueText(alpha)}`,
      );
    }
  }
  return args;
}

/** Each partition's moving averages, computed once for all its documents. */
const averages = new WeakMap<Doc[], Map<string, unknown[]>>();

const expMovingAvg: WindowOp = (_obj, partition, expr, options) => {
  let byField = averages.get(partition);
  if (!byField) averages.set(partition, (byField = new Map<string, unknown[]>()));
  let series = byField.get(expr.field);
  if (!series) {
    const { input, N, alpha } = checkExpMovingAvg(expr.inputExpr);
    const weight =
      N !== undefined ? divideDecimal(2, Number(N) + 1) : multiply([Decimal128.fromString('1'), alpha]);
    const rest = subtract(Decimal128.fromString('1'), weight);
    let current: unknown = null;
    let decimal = false;
    series = partition.map((doc) => {
      const value = evalExpr(doc, input, options);
      if (numberKind(value) !== undefined) {
        decimal ||= numberKind(value) === 'decimal';
        const exact = multiply([Decimal128.fromString('1'), value]);
        current = current === null ? exact : add([multiply([exact, weight]), multiply([current, rest])]);
      }
      if (current === null) return null;
      return decimal ? current : asDouble(Number((current as Decimal128).toString()));
    });
    byField.set(expr.field, series);
  }
  return series[expr.documentNumber - 1];
};

/**
 * `$linearFill`'s checks of the partition's sortBy values (window_function_exec_linear_fill.cpp): each a
 * number or a date (TypeMismatch), all of one of the two (TypeMismatch), none repeated (6050106: which
 * of two documents with the same sortBy value would bound the gap is unclear). mingo interpolated anyway.
 */
function checkLinearFill(partition: Doc[], expr: WindowCall): void {
  let previous: unknown;
  partition.forEach((doc, i) => {
    const value = sortValue(doc, expr);
    if (position(value) === undefined) {
      fail(
        ErrorCodes.TypeMismatch,
        `Value of the sortBy field must be numeric or a date, but found ${typeName(value)}`,
      );
    }
    if (i > 0 && previous instanceof Date !== value instanceof Date) {
      fail(
        ErrorCodes.TypeMismatch,
        `Conflicting sort value types, previously received type ${typeName(previous)}, but found ${typeName(value)}`,
      );
    }
    if (i > 0 && compareBson(previous, value) === 0)
      fail(6050106, 'There can be no repeated values in the sort field in the same partition');
    previous = value;
  });
}

const linearFill: WindowOp = (obj, partition, expr, options) => {
  if (expr.documentNumber === 1) checkLinearFill(partition, expr);
  return (builtinLinearFill as WindowOp)(obj, partition, expr, options);
};

/** Each partition's ranks by function, computed once for all its documents. */
const ranks = new WeakMap<Doc[], Map<string, number[]>>();

/**
 * `$rank` (dense false) or `$denseRank` (dense true): documents whose sortBy values are equal by
 * MongoDB's comparison share a rank, so 1, NumberLong(1) and NumberDecimal('1.0') tie, as MongoDB's
 * rank accumulators compare them (accumulator_rank.cpp); mingo told their types apart.
 */
function rankOf(dense: boolean): WindowOp {
  return (_obj, partition, expr) => {
    let byName = ranks.get(partition);
    if (!byName) ranks.set(partition, (byName = new Map<string, number[]>()));
    const name = dense ? 'dense' : 'rank';
    let series = byName.get(name);
    if (!series) {
      const values = partition.map((doc) => sortValue(doc, expr));
      const computed: number[] = [];
      for (let i = 0; i < values.length; i++) {
        const tie = i > 0 && compareBson(values[i - 1], values[i]) === 0;
        const previous = computed[i - 1] ?? 0;
        computed.push(tie ? previous : dense ? previous + 1 : i + 1);
      }
      series = computed;
      byName.set(name, series);
    }
    return series[expr.documentNumber - 1];
  };
}

/** The window functions registered over mingo's. */
export const windowFunctions: Record<string, WindowOp> = {
  $derivative: derivative,
  $expMovingAvg: expMovingAvg,
  $linearFill: linearFill,
  $rank: rankOf(false),
  $denseRank: rankOf(true),
};
