/**
 * The date expression operators as MongoDB 7.0 computes them (mingo's get `%w`, `%G`, `$week` and
 * `$isoWeekYear` wrong, keep unknown specifiers, know only `Area/City` zone names and fail on null dates):
 * every answer comes from the local calendar date in the `timezone`, whose UTC offset `Intl` gives.
 */
import { evalExpr } from 'mingo/core';
import { Long } from 'bson';
import type { ObjectId, Timestamp } from 'bson';
import { dateFromString } from './date-from-string.js';
import type { ExpressionOp } from './operator-types.js';
import { zoneOf } from './time-zone.js';
import type { Zone } from './time-zone.js';
import { bsonTag, bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError } from '../errors.js';

const DAY_MS = 86_400_000;
const MONTHS = 'January February March April May June July August September October November December';
/** MongoDB 7.0's default format: it ends in `Z` even when a `timezone` is given (7.1 dropped the `Z`). */
const ISO_FORMAT = '%Y-%m-%dT%H:%M:%S.%LZ';

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

const nullish = (v: unknown): v is null | undefined => v === null || v === undefined;

/** The first field of an object argument that is not one of `allowed`. */
const unknownField = (args: Doc, allowed: string[]): string | undefined =>
  Object.keys(args).find((key) => !allowed.includes(key));

/**
 * A date, Timestamp (its seconds) or ObjectId (its creation second) as ms since the epoch, or undefined
 * for any other value (MongoDB's `Value::coercibleToDate`).
 */
export function dateMillis(value: unknown): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (bsonTag(value) === 'Timestamp') return (value as Timestamp).t * 1000;
  if (bsonTag(value) === 'ObjectId') return (value as ObjectId).getTimestamp().getTime();
  return undefined;
}

/** `dateMillis` of a value that must be a date; else code 16006. */
function instant(value: unknown): number {
  return dateMillis(value) ?? fail(16006, `can't convert from BSON type ${bsonTypeName(value)} to Date`);
}

/**
 * Days from the epoch to `year`-`month`-`day` of the proleptic Gregorian calendar; a month or day out of
 * range carries into the next (month 13 is January of the next year). `Date.UTC` would read years 0–99
 * as 1900–1999.
 */
export const civilDay = (year: number, month = 1, day = 1): number =>
  new Date(0).setUTCFullYear(year, month - 1, day) / DAY_MS;

/**
 * Everything the operators report about an instant (ms since the epoch), read on the local calendar of
 * `zone`; `offset` is the zone's UTC offset at the instant, in seconds.
 */
export function partsOf(ms: number, zone: Zone) {
  const offset = zone(ms);
  // The local wall-clock time, read with the UTC getters.
  const local = new Date(ms + offset * 1000);
  const dayNumber = Math.floor(local.getTime() / DAY_MS);
  const year = local.getUTCFullYear();
  const weekday = local.getUTCDay();
  const dayOfYear0 = dayNumber - civilDay(year);
  const isoDayOfWeek = weekday || 7;
  const thursday = dayNumber + 4 - isoDayOfWeek;
  const isoWeekYear = new Date(thursday * DAY_MS).getUTCFullYear();
  return {
    year,
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    millisecond: local.getUTCMilliseconds(),
    dayOfWeek: weekday + 1, // 1 (Sunday) … 7 (Saturday)
    dayOfYear: dayOfYear0 + 1,
    // strftime's %U: weeks begin on Sunday, the days before the year's first Sunday are week 0.
    week: Math.floor((dayOfYear0 + 7 - weekday) / 7),
    isoDayOfWeek, // 1 (Monday) … 7 (Sunday)
    // ISO 8601: a week belongs to the year its Thursday is in; week 1 holds the year's first Thursday.
    isoWeek: Math.floor((thursday - civilDay(isoWeekYear)) / 7) + 1,
    isoWeekYear,
    offset,
  };
}

/** What `partsOf` reports. */
export type Parts = ReturnType<typeof partsOf>;

/** A number zero-padded to `width`; MongoDB formats only 0–9999 (a year outside fails with code 18537). */
function pad(n: number, width: number): string {
  const range = 'Could not convert date to string: date component was outside the supported range of 0-9999';
  if (n < 0 || n > 9999) fail(18537, `${range}: ${n}`);
  return String(n).padStart(width, '0');
}

const hoursMinutes = (minutes: number): number => Math.trunc(minutes / 60) * 100 + (minutes % 60);

/** `$dateToString`'s format specifiers (MongoDB manual, $dateToString, "Format Specifiers"). */
const SPECIFIERS = new Map<string, (p: Parts) => string>([
  ['b', (p) => MONTHS.split(' ')[p.month - 1]!.slice(0, 3)],
  ['B', (p) => MONTHS.split(' ')[p.month - 1]!],
  ['d', (p) => pad(p.day, 2)],
  ['G', (p) => pad(p.isoWeekYear, 4)],
  ['H', (p) => pad(p.hour, 2)],
  ['j', (p) => pad(p.dayOfYear, 3)],
  ['L', (p) => pad(p.millisecond, 3)],
  ['m', (p) => pad(p.month, 2)],
  ['M', (p) => pad(p.minute, 2)],
  ['S', (p) => pad(p.second, 2)],
  ['u', (p) => pad(p.isoDayOfWeek, 1)],
  ['U', (p) => pad(p.week, 2)],
  ['V', (p) => pad(p.isoWeek, 2)],
  ['w', (p) => pad(p.dayOfWeek, 1)],
  ['Y', (p) => pad(p.year, 4)],
  // ±hhmm of the offset's whole minutes (-04:30 is -0430, not -0530), and the offset in minutes (-270).
  ['z', (p) => (p.offset < 0 ? '-' : '+') + pad(hoursMinutes(Math.trunc(Math.abs(p.offset) / 60)), 4)],
  ['Z', (p) => String(Math.trunc(p.offset / 60) || 0)],
  ['%', () => '%'],
]);

/** Rejects a format MongoDB rejects, before anything is formatted: codes 18535 and 18536. */
function checkFormat(format: string): void {
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') continue;
    const c = format[++i];
    if (c === undefined) fail(18535, "Unmatched '%' at end of format string");
    if (!SPECIFIERS.has(c)) fail(18536, `Invalid format character '%${c}' in format string`);
  }
}

/** `$dateToString`: `onNull` (default null) for a null or missing date, null for a null format or zone. */
const dateToString: ExpressionOp = (obj, expr, options) => {
  if (!isPlainObject(expr)) fail(18629, '$dateToString only supports an object as its argument');
  const extra = unknownField(expr, ['date', 'format', 'timezone', 'onNull']);
  if (extra !== undefined) fail(18534, `Unrecognized argument to $dateToString: ${extra}`);
  if (!('date' in expr)) fail(18628, "Missing 'date' parameter to $dateToString");
  const date = evalExpr(obj, expr['date'], options);
  // As MongoDB does, the format and timezone are checked even when the date is null.
  const format = expr['format'] === undefined ? ISO_FORMAT : evalExpr(obj, expr['format'], options);
  if (!nullish(format)) {
    const found = `${bsonTypeName(format)} with value ${JSON.stringify(format)}`;
    if (typeof format !== 'string')
      fail(18533, `$dateToString requires that 'format' be a string, found: ${found}`);
    checkFormat(format);
  }
  const zone = zoneOf(obj, expr['timezone'], options);
  if (nullish(date)) return expr['onNull'] === undefined ? null : evalExpr(obj, expr['onNull'], options);
  if (!zone || typeof format !== 'string') return null;
  const parts = partsOf(instant(date), zone);
  return format.replace(/%([\s\S])/g, (_, c: string) => SPECIFIERS.get(c)!(parts));
};

/** `$dateToParts`: calendar or (`iso8601: true`) ISO week-date parts; null when an argument is null. */
const dateToParts: ExpressionOp = (obj, expr, options) => {
  if (!isPlainObject(expr)) fail(40524, '$dateToParts only supports an object as its argument');
  const extra = unknownField(expr, ['date', 'timezone', 'iso8601']);
  if (extra !== undefined) fail(40520, `Unrecognized argument to $dateToParts: ${extra}`);
  if (!('date' in expr)) fail(40522, "Missing 'date' parameter to $dateToParts");
  const date = evalExpr(obj, expr['date'], options);
  const zone = zoneOf(obj, expr['timezone'], options);
  if (!zone) return null;
  const iso = expr['iso8601'] === undefined ? false : evalExpr(obj, expr['iso8601'], options);
  if (nullish(iso)) return null;
  if (typeof iso !== 'boolean') fail(40521, `iso8601 must evaluate to a bool, found ${bsonTypeName(iso)}`);
  if (nullish(date)) return null;
  const p = partsOf(instant(date), zone);
  const time = { hour: p.hour, minute: p.minute, second: p.second, millisecond: p.millisecond };
  return iso
    ? { isoWeekYear: p.isoWeekYear, isoWeek: p.isoWeek, isoDayOfWeek: p.isoDayOfWeek, ...time }
    : { year: p.year, month: p.month, day: p.day, ...time };
};

/**
 * An operator taking `<date>`, `[<date>]` or `{ date, timezone? }` (an object whose first field starts with
 * `$` is an expression for the date) and giving `pick` of the date's parts, or null for a null date or zone.
 */
function datePart(name: string, pick: (p: Parts) => unknown): ExpressionOp {
  return (obj, expr, options) => {
    let date = expr;
    let timezone: unknown;
    if (Array.isArray(expr)) {
      if (expr.length !== 1)
        fail(40536, `${name} accepts exactly one argument if given an array, but was given ${expr.length}`);
      date = expr[0];
    } else if (isPlainObject(expr) && !Object.keys(expr)[0]?.startsWith('$')) {
      const extra = unknownField(expr, ['date', 'timezone']);
      if (extra !== undefined) fail(40535, `unrecognized option to ${name}: "${extra}"`);
      if (!('date' in expr))
        fail(40539, `missing 'date' argument to ${name}, provided: ${JSON.stringify(expr)}`);
      ({ date, timezone } = expr);
    }
    const value = evalExpr(obj, date, options);
    if (nullish(value)) return null;
    const ms = instant(value);
    const zone = zoneOf(obj, timezone, options);
    return zone ? pick(partsOf(ms, zone)) : null;
  };
}

/**
 * The date operators registered over mingo's, each computed in its optional `timezone` (an Olson name or a
 * `±HH`, `±HHMM`, `±HH:MM` offset; not a string: code 40517, unknown: 40485):
 * - `$dateToString: { date, format?, timezone?, onNull? }` → a string: `onNull` (default null) for a null or
 *   missing date, null for a null format or zone. Errors: 18629 (not an object), 18534 (unknown field),
 *   18628 (no date), 18533 (format not a string), 18535 (`%` at the end), 18536 (unknown specifier),
 *   16006 (not a date, Timestamp or ObjectId), 18537 (a year outside 0–9999).
 * - `$dateToParts: { date, timezone?, iso8601? }` → `{ year, month, day, hour, minute, second, millisecond }`
 *   or `{ isoWeekYear, isoWeek, isoDayOfWeek, hour, … }`, or null. Errors: 40524 (not an object), 40520
 *   (unknown field), 40522 (no date), 40521 (`iso8601` not a bool), 16006.
 * - `$year`, `$month`, `$dayOfMonth`, `$hour`, `$minute`, `$second`, `$millisecond`, `$dayOfYear`,
 *   `$dayOfWeek` (1 = Sunday), `$week` (0–53, from Sunday), `$isoDayOfWeek`, `$isoWeek`, `$isoWeekYear` (a
 *   long, as MongoDB's) take `<date>`, `[<date>]` or `{ date, timezone? }` → an int, or null. Errors: 40536
 *   (an array not of one element), 40535 (unknown field), 40539 (no date), 16006.
 * - `$dateFromString` (date-from-string.ts): an unreadable string is 241 unless `onError` is given.
 */
export const dateExpressions: Record<string, ExpressionOp> = {
  $dateFromString: dateFromString,
  $dateToString: dateToString,
  $dateToParts: dateToParts,
  $year: datePart('$year', (p) => p.year),
  $month: datePart('$month', (p) => p.month),
  $dayOfMonth: datePart('$dayOfMonth', (p) => p.day),
  $hour: datePart('$hour', (p) => p.hour),
  $minute: datePart('$minute', (p) => p.minute),
  $second: datePart('$second', (p) => p.second),
  $millisecond: datePart('$millisecond', (p) => p.millisecond),
  $dayOfYear: datePart('$dayOfYear', (p) => p.dayOfYear),
  $dayOfWeek: datePart('$dayOfWeek', (p) => p.dayOfWeek),
  $week: datePart('$week', (p) => p.week),
  $isoDayOfWeek: datePart('$isoDayOfWeek', (p) => p.isoDayOfWeek),
  $isoWeek: datePart('$isoWeek', (p) => p.isoWeek),
  // MongoDB computes the ISO year as a 64-bit integer (TimeZone::isoYear returns `long long`).
  $isoWeekYear: datePart('$isoWeekYear', (p) => Long.fromNumber(p.isoWeekYear)),
};
