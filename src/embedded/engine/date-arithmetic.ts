/**
 * `$dateAdd`, `$dateSubtract`, `$dateDiff` and `$dateTrunc` as MongoDB 7.0 computes them
 * (src/mongo/db/query/datetime/date_time_support.cpp): units of a day and longer move the local calendar
 * date of the `timezone` and keep its wall-clock time (so a day across a DST change is 23 or 25 hours),
 * months clamp to the last day of the month, shorter units are fixed amounts of time. mingo's operators
 * add months in UTC without clamping, ignore the zone for days and answer odd dates for bad arguments.
 */
import { evalExpr } from 'mingo/core';
import { Long } from 'bson';
import type { Options } from 'mingo/types';
import { checkDateArguments } from './date-arguments.js';
import { civilDay, dateMillis, partsOf } from './date-operators.js';
import type { ExpressionOp } from './operator-types.js';
import { wallToInstant, zoneOf } from './time-zone.js';
import type { Zone } from './time-zone.js';
import { coerceToLong, isNullish, numberOf, typeName, valueText } from './value-strings.js';
import { numberKind } from './arithmetic.js';
import { CommandError, ErrorCodes } from '../errors.js';

const DAY_MS = 86_400_000;
/** Milliseconds of the units that are fixed amounts of time. */
const FIXED_MS: Record<string, number> = { millisecond: 1, second: 1000, minute: 60_000, hour: 3_600_000 };
const UNITS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second', 'millisecond'];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const FULL_WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** 2000-01-01T00:00:00Z, where `$dateTrunc` bins start (a Saturday). */
const REFERENCE_MS = 946_684_800_000;

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

/** `n` modulo `m`, from 0 to `m` - 1 also for a negative `n`. */
const mod = (n: number, m: number): number => ((n % m) + m) % m;

/** A date part on the local calendar: year, month (1–12), day of month. */
interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Whether a value is a number MongoDB reads as a 64-bit integer (`Value::integral64Bit`). */
function isIntegral64(value: unknown): boolean {
  if (numberKind(value) === undefined) return false;
  const n = numberOf(value);
  return Number.isInteger(n) && Math.abs(n) <= 2 ** 63;
}

/** A `unit` argument: 5439013 when not a string, 5439014 when not a unit. */
function timeUnit(value: unknown, op: string): string {
  if (typeof value !== 'string')
    fail(5439013, `${op} requires 'unit' to be a string, but got ${typeName(value)}`);
  if (!UNITS.includes(value))
    fail(5439014, `${op} parameter 'unit' value cannot be recognized as a time unit: ${value}`);
  return value;
}

/** A `startOfWeek` argument as 1 (Monday) … 7 (Sunday): 5439015 when not a string, 5439016 when not a day. */
function dayOfWeek(value: unknown, op: string): number {
  if (typeof value !== 'string')
    fail(5439015, `${op} requires 'startOfWeek' to be a string, but got ${typeName(value)}`);
  const name = value.toLowerCase();
  const index = Math.max(WEEKDAYS.indexOf(name), FULL_WEEKDAYS.indexOf(name));
  if (index < 0)
    fail(5439016, `${op} parameter 'startOfWeek' value cannot be recognized as a day of a week: ${value}`);
  return index + 1;
}

/** Days in `month` of `year`. */
const daysInMonth = (year: number, month: number): number =>
  civilDay(year, month + 1) - civilDay(year, month);

/**
 * `amount` `unit`s after `ms` in `zone`. Months (quarters, years) keep the day of month unless the target
 * month is shorter, then its last day; days and weeks keep the local wall-clock time.
 * @throws CommandError 5166406 when the result is outside the dates a JS Date holds.
 */
export function dateAdd(ms: number, unit: string, amount: number, zone: Zone): number {
  let result: number;
  if (unit in FIXED_MS) result = ms + amount * FIXED_MS[unit]!;
  else {
    const local = partsOf(ms, zone);
    const wall = ms + local.offset * 1000;
    const timeOfDay = wall - Math.floor(wall / DAY_MS) * DAY_MS;
    if (unit === 'day' || unit === 'week') {
      result = wallToInstant(wall + amount * (unit === 'week' ? 7 : 1) * DAY_MS, zone);
    } else {
      const months =
        local.year * 12 + local.month - 1 + amount * (unit === 'year' ? 12 : unit === 'quarter' ? 3 : 1);
      const year = Math.floor(months / 12);
      const month = months - year * 12 + 1;
      const day = Math.min(local.day, daysInMonth(year, month));
      result = wallToInstant(civilDay(year, month, day) * DAY_MS + timeOfDay, zone);
    }
  }
  if (!Number.isFinite(result) || Math.abs(result) > 8.64e15) fail(5166406, 'dateAdd overflowed');
  return result;
}

/** Whole `unit`s between two local calendar dates, counted as unit boundaries passed (weeks start on `startOfWeek`). */
function calendarDiff(unit: string, a: CalendarDate, b: CalendarDate, startOfWeek: number): number {
  const years = b.year - a.year;
  const days = civilDay(b.year, b.month, b.day) - civilDay(a.year, a.month, a.day);
  const quarter = (month: number): number => Math.floor((month - 1) / 3);
  // 0 for the first day of the week … 6 for the last (civilDay 0, 1970-01-01, was a Thursday: ISO day 4).
  const weekday = (d: CalendarDate): number =>
    mod(civilDay(d.year, d.month, d.day) + 3 - (startOfWeek - 1), 7);
  switch (unit) {
    case 'year':
      return years;
    case 'quarter':
      return quarter(b.month) - quarter(a.month) + years * 4;
    case 'month':
      return b.month - a.month + years * 12;
    case 'week':
      return Math.trunc((days + weekday(a) - weekday(b)) / 7);
    default:
      return days;
  }
}

/** `$dateDiff`'s count of `unit` boundaries from `start` to `end` in `zone`. */
function dateDiff(start: number, end: number, unit: string, zone: Zone, startOfWeek: number): number {
  if (unit === 'millisecond') return end - start;
  const a = partsOf(start, zone);
  const b = partsOf(end, zone);
  if (!(unit in FIXED_MS)) return calendarDiff(unit, a, b, startOfWeek);
  // Wall-clock differences, corrected by the change of UTC offset (C++ integer division truncates).
  const shift = a.offset - b.offset;
  const hours = b.hour - a.hour + calendarDiff('day', a, b, startOfWeek) * 24;
  const minutes = b.minute - a.minute + hours * 60;
  if (unit === 'hour') return hours + Math.trunc(shift / 3600);
  if (unit === 'minute') return minutes + Math.trunc(shift / 60);
  return b.second - a.second + minutes * 60 + shift;
}

/**
 * The start of the `binSize`-`unit` bin `ms` falls in, bins counted from 2000-01-01 in `zone` (for weeks,
 * from the first `startOfWeek` on or after it).
 */
function dateTrunc(ms: number, unit: string, binSize: number, zone: Zone, startOfWeek: number): number {
  let reference = REFERENCE_MS - zone(REFERENCE_MS) * 1000;
  const start: CalendarDate = { year: 2000, month: 1, day: 1 };
  if (unit === 'week') {
    // 2000-01-01 is a Saturday (6).
    const adjust = (7 - ((6 - startOfWeek + 7) % 7)) % 7;
    reference += adjust * DAY_MS;
    start.day += adjust;
  }
  if (unit in FIXED_MS) return ms - mod(ms - reference, binSize * FIXED_MS[unit]!);
  if (binSize > 100_000_000_000) fail(5439006, 'dateTrunc unsupported binSize value');
  const distance = calendarDiff(unit, start, partsOf(ms, zone), startOfWeek);
  return dateAdd(reference, unit, distance - mod(distance, binSize), zone);
}

/** Evaluates the named arguments of `expr` that are present (missing ones stay undefined). */
function evaluateArgs(
  obj: unknown,
  expr: Record<string, unknown>,
  options: Options,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(expr)) out[key] = evalExpr(obj, value, options);
  return out;
}

/** `$dateAdd` (sign 1) or `$dateSubtract` (sign -1): null when an argument is null or missing. */
function dateArithmetic(op: '$dateAdd' | '$dateSubtract', sign: number): ExpressionOp {
  return (obj, expr, options) => {
    checkDateArguments(op, expr);
    const { startDate, unit, amount } = evaluateArgs(obj, expr, options);
    if (isNullish(startDate) || isNullish(unit) || isNullish(amount)) return null;
    const zone = zoneOf(obj, expr['timezone'], options);
    if (!zone) return null;
    const ms = dateMillis(startDate);
    if (ms === undefined) fail(5166403, `${op} requires startDate to be convertible to a date`);
    if (typeof unit !== 'string') fail(5166404, `${op} expects string defining the time unit`);
    if (!isIntegral64(amount)) fail(5166405, `${op} expects integer amount of time units`);
    if (!UNITS.includes(unit)) fail(ErrorCodes.FailedToParse, `unknown time unit value: ${unit}`);
    return new Date(dateAdd(ms, unit, sign * coerceToLong(amount), zone));
  };
}

/** `$dateDiff`: a long, or null when an argument (or `startOfWeek` for weeks) is null or missing. */
const dateDiffOp: ExpressionOp = (obj, expr, options) => {
  checkDateArguments('$dateDiff', expr);
  const args = evaluateArgs(obj, expr, options);
  if (isNullish(args['startDate']) || isNullish(args['endDate']) || isNullish(args['unit'])) return null;
  const unit = timeUnit(args['unit'], '$dateDiff');
  if (unit === 'week' && 'startOfWeek' in expr && isNullish(args['startOfWeek'])) return null;
  const startOfWeek =
    unit === 'week' && 'startOfWeek' in expr ? dayOfWeek(args['startOfWeek'], '$dateDiff') : 7;
  const zone = zoneOf(obj, expr['timezone'], options);
  if (!zone) return null;
  const date = (name: string): number =>
    dateMillis(args[name]) ??
    fail(5166307, `$dateDiff requires '${name}' to be a date, but got ${typeName(args[name])}`);
  return Long.fromNumber(dateDiff(date('startDate'), date('endDate'), unit, zone, startOfWeek));
};

/** `$dateTrunc`: null when an argument (or `startOfWeek` for weeks) is null or missing. */
const dateTruncOp: ExpressionOp = (obj, expr, options) => {
  checkDateArguments('$dateTrunc', expr);
  const args = evaluateArgs(obj, expr, options);
  const { date, unit, binSize } = args;
  if (isNullish(date) || isNullish(unit) || ('binSize' in expr && isNullish(binSize))) return null;
  if ('timezone' in expr && isNullish(args['timezone'])) return null;
  if (unit === 'week' && 'startOfWeek' in expr && isNullish(args['startOfWeek'])) return null;
  const ms = dateMillis(date);
  if (ms === undefined) fail(5439012, `$dateTrunc requires 'date' to be a date, but got ${typeName(date)}`);
  const name = timeUnit(unit, '$dateTrunc');
  let size = 1;
  if ('binSize' in expr) {
    if (!isIntegral64(binSize)) {
      fail(
        5439017,
        `$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '${valueText(binSize)}' of type ${typeName(binSize)}`,
      );
    }
    size = coerceToLong(binSize);
    if (size <= 0) fail(5439018, `$dateTrunc requires 'binSize' to be greater than 0, but got value ${size}`);
  }
  const zone = zoneOf(obj, expr['timezone'], options)!;
  const startOfWeek =
    name === 'week' && 'startOfWeek' in expr ? dayOfWeek(args['startOfWeek'], '$dateTrunc') : 7;
  return new Date(dateTrunc(ms, name, size, zone, startOfWeek));
};

/**
 * The date arithmetic operators registered over mingo's; `timezone` is an Olson name or a UTC offset
 * (time-zone.ts: 40517 when not a string, 40485 when unknown):
 * - `$dateAdd`/`$dateSubtract: { startDate, unit, amount, timezone? }` → a date. Errors: 5166403 (not a
 *   date, Timestamp or ObjectId), 5166404 (unit not a string), 5166405 (amount not integral), 9 (unknown
 *   unit), 5166406 (out of range).
 * - `$dateDiff: { startDate, endDate, unit, timezone?, startOfWeek? }` → a long. Errors: 5166307 (not a
 *   date), 5439013/5439014 (unit), 5439015/5439016 (startOfWeek).
 * - `$dateTrunc: { date, unit, binSize?, timezone?, startOfWeek? }` → a date. Errors: 5439012 (not a date),
 *   5439013/5439014 (unit), 5439017/5439018 (binSize not a positive integer), 5439015/5439016, 5439006.
 * Each is null when an argument is null or missing; argument documents are checked by date-arguments.ts.
 */
export const dateArithmeticExpressions: Record<string, ExpressionOp> = {
  $dateAdd: dateArithmetic('$dateAdd', 1),
  $dateSubtract: dateArithmetic('$dateSubtract', -1),
  $dateDiff: dateDiffOp,
  $dateTrunc: dateTruncOp,
};
