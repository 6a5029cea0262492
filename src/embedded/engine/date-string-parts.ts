/**
 * What both `$dateFromString` parsers (free form and `format`) produce, and the errors they raise. MongoDB
 * raises every failure of TimeZoneDatabase::fromString (date_time_support.cpp) as 241 `ConversionFailure`:
 * `Error parsing date string '<string>'` followed by timelib's errors and warnings, or a message saying
 * that date or time elements are missing.
 */
import type { ZoneInString } from './date-string-zone.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** What a date/time string holds: its wall-clock fields and the zone it names, if any. */
export interface DateStringParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** A zone the string names. */
  zone?: ZoneInString;
}

/**
 * A parse error in MongoDB's form: `Error parsing date string '<text>'; <pos>: <detail> '<char>'`.
 * @param text the string as given (MongoDB quotes it whole).
 * @param pos where the error is, counted as timelib counts it.
 * @param char the character MongoDB quotes; the one at `pos` of `text` unless given.
 * @throws CommandError 241 always.
 */
export function dateStringError(text: string, pos: number, detail: string, char = text[pos] ?? ''): never {
  throw new CommandError(
    ErrorCodes.ConversionFailure,
    `Error parsing date string '${text}'; ${pos}: ${detail} '${char}'`,
  );
}

/**
 * MongoDB's error when a date or time element is missing after parsing (date_time_support.cpp).
 * @throws CommandError 241 always.
 */
export function incomplete(text: string): never {
  throw new CommandError(
    ErrorCodes.ConversionFailure,
    `an incomplete date/time string has been found, with elements missing: "${text}"`,
  );
}

/** A UTC date of `year` (years 0–99 included, which `Date.UTC` would read as 1900–1999); days may overflow. */
export function utcDate(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/** The number of days of `month` in `year`. */
export const daysIn = (year: number, month: number): number => utcDate(year, month + 1, 0).getUTCDate();

/** Whether `year`-`month`-`day` is a calendar date (timelib_valid_date). */
export const validDate = (year: number, month: number, day: number): boolean =>
  month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month);

/** Milliseconds from a fraction's digits (`8` is 800, `8134` is 813), as timelib keeps microseconds. */
export const fractionMs = (digits: string): number => Number(digits.slice(0, 3).padEnd(3, '0'));

/** The calendar fields of `date`. */
export const fieldsOf = (date: Date): { year: number; month: number; day: number } => ({
  year: date.getUTCFullYear(),
  month: date.getUTCMonth() + 1,
  day: date.getUTCDate(),
});

/**
 * The day of ISO week-date `year`-W`week`-`day`, counted from January 1st of `year` (0 is January 1st):
 * week 1 holds the year's first Thursday; `day` runs from 1 (Monday), 0 being the Sunday before.
 */
export function isoWeekDayOffset(year: number, week: number, day: number): number {
  const jan1 = utcDate(year, 1, 1).getUTCDay(); // 0 is Sunday
  // Monday of week 1 is January 1st when that is Monday–Thursday, else the Monday after it.
  const mondayOfWeek1 = jan1 <= 4 ? 1 - jan1 : 8 - jan1;
  return mondayOfWeek1 + (week - 1) * 7 + (day - 1);
}

/** The date of ISO week-date `year`-W`week`-`day`. */
export const fromIsoWeek = (year: number, week: number, day: number): ReturnType<typeof fieldsOf> =>
  fieldsOf(utcDate(year, 1, 1 + isoWeekDayOffset(year, week, day)));
