/**
 * `$integral` over a `$setWindowFields` window, as MongoDB 7.0 computes it (WindowFunctionIntegral,
 * window_function_integral.cpp and .h): the window's points (sortBy value, input) in order, and the sum
 * of the trapezoids between neighbours, `((y₁ + y₂) × (x₂ − x₁)) ÷ 2` with MongoDB's `$add`,
 * `$subtract`, `$multiply` and `$divide` types (a decimal input gives a decimal area, dates differ in
 * milliseconds), kept in a removable sum (sum-state.ts): the trapezoid a new point closes is added, the
 * one a leaving point opened is taken off, so a sliding window costs O(1) per document where the engine
 * summed every window's trapezoids again. A point with a NaN adds an area of 0 and makes the result NaN
 * while it is in the window. The result is null for an empty window, the sum (an int 0 for one point)
 * without a `unit`, else the sum ÷ the unit's milliseconds.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { Double, Long } from 'bson';
import { add, divideDecimal, multiply, numberKind, subtract } from './arithmetic.js';
import type { Frame } from './moving-window.js';
import { slidingWindow } from './moving-window.js';
import { asDouble } from './numbers.js';
import { SumState } from './sum-state.js';
import { getPath } from './values.js';
import type { Doc } from './values.js';
import type { WindowState } from './operator-types.js';
import { CommandError } from '../errors.js';

/** One point: the sortBy value (a number, or a date as milliseconds) and the input. */
interface Point {
  x: unknown;
  y: unknown;
  nan: boolean;
}

const isNaNValue = (value: unknown): boolean =>
  numberKind(value) === 'decimal' ? String(value) === 'NaN' : Number.isNaN(Number(String(value)));

/**
 * The point of a document.
 * @throws CommandError 5423900 when the input is not a number or the sortBy value neither a number nor a
 *   date, 5423901 for a number with a `unit`, 5423902 for a date without one.
 */
function pointOf(x: unknown, y: unknown, unit: boolean): Point {
  if (numberKind(y) === undefined || !(x instanceof Date || numberKind(x) !== undefined)) {
    throw new CommandError(
      5423900,
      'The input value of $integral window function must be a vector of 2 value, the first value must be numeric or date type and the second must be numeric.',
    );
  }
  if (unit && !(x instanceof Date))
    throw new CommandError(5423901, "$integral with 'outputUnit' expects the sortBy field to be a Date");
  if (!unit && x instanceof Date)
    throw new CommandError(
      5423902,
      "$integral (with no 'outputUnit') expects the sortBy field to be numeric",
    );
  const position = x instanceof Date ? x.getTime() : x;
  return { x: position, y, nan: isNaNValue(position) || isNaNValue(y) };
}

/** The trapezoid between two neighbouring points (integralOfTwoPointsByTrapezoidalRule). */
function trapezoid(left: Point, right: Point, dates: boolean): unknown {
  if (left.nan || right.nan) return 0;
  const run = dates ? Long.fromNumber((right.x as number) - (left.x as number)) : subtract(right.x, left.x);
  const product = multiply([add([right.y, left.y]), run]);
  return numberKind(product) === 'decimal'
    ? divideDecimal(product, 2)
    : new Double(Number(String(product)) / 2);
}

/** The state of one `$integral` window; `unitMs` is the output unit's milliseconds, if any. */
function integralState(unitMs: number | undefined): WindowState {
  const points: Point[] = [];
  let head = 0;
  let nan = 0;
  const total = new SumState(true);
  const dates = unitMs !== undefined;
  return {
    add: (_index, value) => {
      const point = value as Point;
      if (point.nan) nan++;
      if (points.length > head) total.add(trapezoid(points[points.length - 1]!, point, dates));
      points.push(point);
    },
    remove: () => {
      const point = points[head++]!;
      if (point.nan) nan--;
      if (points.length > head) total.remove(trapezoid(point, points[head]!, dates));
      // Drop the points that left once they outweigh the rest.
      if (head > 1024 && head * 2 > points.length) {
        points.splice(0, head);
        head = 0;
      }
    },
    result: () => {
      if (points.length === head) return null;
      if (nan > 0) return NaN;
      const sum = total.sum();
      if (unitMs === undefined) return sum;
      return numberKind(sum) === 'decimal'
        ? divideDecimal(sum, unitMs)
        : asDouble(Number(String(sum)) / unitMs);
    },
  };
}

/**
 * The `$integral` of each document's window `frame` over `docs` (the partition in sortBy order; a frame
 * of undefined is the whole partition), for documents asked in ascending order. `sortField` is the
 * sortBy field, `input` the function's input expression, `unitMs` its unit's milliseconds (checked by
 * the caller).
 * @throws CommandError 5423900–5423902 (see `pointOf`) as a document with a bad point enters a window.
 */
export function integralWindow(
  docs: Doc[],
  frame: Frame | undefined,
  sortField: string,
  input: unknown,
  unitMs: number | undefined,
  options: Options,
): (index: number) => unknown {
  const points: Point[] = [];
  const pointAt = (i: number): Point =>
    (points[i] ??= pointOf(
      getPath(docs[i]!, sortField),
      evalExpr(docs[i]!, input, options),
      unitMs !== undefined,
    ));
  const whole: Frame = () => [0, docs.length - 1];
  return slidingWindow(
    frame ?? whole,
    pointAt,
    () => integralState(unitMs),
    () => null,
  );
}
