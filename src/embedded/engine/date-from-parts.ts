/**
 * `$dateFromParts` as MongoDB 7.0 evaluates it: a calendar date (`year`, `month`, `day`) or an ISO week
 * date (`isoWeekYear`, `isoWeek`, `isoDayOfWeek`), a time of day, read as local time in `timezone`; parts
 * out of their usual range carry into the next larger part. mingo's operator ignores the ISO fields and
 * answers dates such as 9999-11-30 for bad arguments.
 */
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { numberKind } from './arithmetic.js';
import { checkDateArguments } from './date-arguments.js';
import { civilDay } from './date-operators.js';
import type { ExpressionOp } from './operator-types.js';
import { wallToInstant, zoneOf } from './time-zone.js';
import { coerceToLong, isNullish, numberOf, typeName, valueText } from './value-strings.js';
import { CommandError } from '../errors.js';

const DAY_MS = 86_400_000;
/** Bounded parts must fit a 16-bit int (MongoDB's limit against long date-table walks). */
const PART_MIN = -32768;
const PART_MAX = 32767;

/**
 * The integer value of part `name` (its default when absent), or null when it is null or missing.
 * @throws CommandError 40515 (not an integer), 31034 (a `bounded` part outside a 16-bit int).
 */
function part(
  obj: unknown,
  expr: Record<string, unknown>,
  name: string,
  fallback: number,
  bounded: boolean,
  options: Options,
): number | null {
  if (!(name in expr)) return fallback;
  const value = evalExpr(obj, expr[name], options);
  if (isNullish(value)) return null;
  const n = numberKind(value) === undefined ? NaN : numberOf(value);
  if (!Number.isInteger(n) || Math.abs(n) > 2 ** 63) {
    throw new CommandError(
      40515,
      `'${name}' must evaluate to an integer, found ${typeName(value)} with value ${valueText(value)}`,
    );
  }
  const result = coerceToLong(value);
  if (bounded && (result < PART_MIN || result > PART_MAX)) {
    throw new CommandError(
      31034,
      `'${name}' must evaluate to a value in the range [${PART_MIN}, ${PART_MAX}]; value ${result} is not in range`,
    );
  }
  return result;
}

/** Days from the epoch to day `isoDayOfWeek` of week `isoWeek` of ISO year `isoWeekYear` (timelib's daynr). */
function isoDay(isoWeekYear: number, isoWeek: number, isoDayOfWeek: number): number {
  const januaryFirst = civilDay(isoWeekYear);
  const weekday = (((januaryFirst + 4) % 7) + 7) % 7; // 0 = Sunday (1970-01-01 was a Thursday)
  const firstMonday = -(weekday > 4 ? weekday - 7 : weekday);
  return januaryFirst + firstMonday + (isoWeek - 1) * 7 + isoDayOfWeek;
}

/**
 * `$dateFromParts: { year, month?, day?, … }` or `{ isoWeekYear, isoWeek?, isoDayOfWeek?, … }` with
 * `hour`, `minute`, `second`, `millisecond` and `timezone` → a date, or null when a part or the zone is
 * null or missing. Errors: those of date-arguments.ts, 40515 (a part not an integer), 31034 (`month`,
 * `day`, `hour`, `minute`, `isoWeek`, `isoDayOfWeek` outside [-32768, 32767]), 40523 (`year` outside
 * 1–9999), 31095 (`isoWeekYear` outside 1–9999), 40517/40485 (the zone).
 */
export const dateFromParts: ExpressionOp = (obj, expr, options) => {
  checkDateArguments('$dateFromParts', expr);
  const get = (name: string, fallback: number, bounded: boolean): number | null =>
    part(obj, expr, name, fallback, bounded, options);
  const hour = get('hour', 0, true);
  const minute = get('minute', 0, true);
  const second = get('second', 0, false);
  const millisecond = get('millisecond', 0, false);
  if (hour === null || minute === null || second === null || millisecond === null) return null;
  const zone = zoneOf(obj, expr['timezone'], options);
  if (!zone) return null;
  let day: number;
  if ('year' in expr) {
    const year = get('year', 1970, false);
    const month = get('month', 1, true);
    const dayOfMonth = get('day', 1, true);
    if (year === null || month === null || dayOfMonth === null) return null;
    if (year < 1 || year > 9999)
      throw new CommandError(
        40523,
        `'year' must evaluate to an integer in the range 1 to 9999, found ${year}`,
      );
    day = civilDay(year, month, dayOfMonth);
  } else {
    const isoWeekYear = get('isoWeekYear', 1970, false);
    const isoWeek = get('isoWeek', 1, true);
    const isoDayOfWeek = get('isoDayOfWeek', 1, true);
    if (isoWeekYear === null || isoWeek === null || isoDayOfWeek === null) return null;
    if (isoWeekYear < 1 || isoWeekYear > 9999) {
      throw new CommandError(
        31095,
        `'isoWeekYear' must evaluate to an integer in the range 1 to 9999, found ${isoWeekYear}`,
      );
    }
    day = isoDay(isoWeekYear, isoWeek, isoDayOfWeek);
  }
  const wall = day * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millisecond;
  return new Date(wallToInstant(wall, zone));
};
