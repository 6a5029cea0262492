/**
 * `$dateFromString` without a `format`. MongoDB hands such strings to timelib_strtotime (the parser of
 * PHP's strtotime and DateTime) and then (TimeZoneDatabase::fromString, date_time_support.cpp):
 * - fails with 241 on any timelib error or warning — so a date or time out of range (`2017-02-30`,
 *   `24:00`) fails, although PHP rolls it over;
 * - sets a time that is wholly missing to midnight;
 * - fails with 241 "an incomplete date/time string has been found" when the year, month, day, hour,
 *   minute or second is still missing: "now", "tomorrow", "+1 day", "July 4th", "12:50:53" name no date;
 * - applies the relative parts (a day name, an ISO week, `tomorrow`, an `@` timestamp) and the zone
 *   (timelib_update_ts through TimeZone::adjustTimeZone). MongoDB does not look at timelib's
 *   `have_relative`: a relative part is refused only through the missing date it leaves.
 * The string is read as timelib's scanner reads it: at each position the longest form that matches (the
 * one earlier in timelib's order on a tie; date-string-dates.ts, -times.ts and -relative.ts list them),
 * `.`, `,` and blanks skipped between forms, any other character an error. So `04.07.17` is the time
 * 04:07:17 rather than a date, as the PHP manual's "Date Formats" page notes for `dd.mm.yy`.
 */
import { DATE_FORMS } from './date-string-dates.js';
import { RELATIVE_FORMS } from './date-string-relative.js';
import { TIME_FORMS } from './date-string-times.js';
import { dateStringError, incomplete, utcDate, validDate } from './date-string-parts.js';
import type { DateStringParts } from './date-string-parts.js';
import { TokenFailure, newState } from './date-string-state.js';
import type { Form, FreeState } from './date-string-state.js';

/** Every form, in timelib's order. */
const FORMS: Form[] = [...RELATIVE_FORMS, ...TIME_FORMS, ...DATE_FORMS].sort((a, b) => a.rank - b.rank);

/** What timelib skips between tokens: `.`, `,`, blanks (no-break spaces too), NUL and newlines. */
const SKIPPED = /[., \t\u00a0\u202f\0\n]/;

/** The longest form matching at `pos` (the earlier on a tie) and its length; undefined when none does. */
function longestAt(input: string, pos: number): { form: Form; length: number } | undefined {
  let best: { form: Form; length: number } | undefined;
  for (const form of FORMS) {
    for (const pattern of form.patterns) {
      pattern.lastIndex = pos;
      const length = pattern.exec(input)?.[0].length ?? 0;
      if (length > (best?.length ?? 0)) best = { form, length };
    }
  }
  return best;
}

/**
 * Reads the tokens of `trimmed` into a state.
 * @throws CommandError 241 at the first token timelib would report an error for, or that is refused here.
 */
function scan(text: string, trimmed: string): FreeState {
  // timelib reads a copy padded with NULs, which some forms match (`10am` must end in a blank or NUL).
  const input = `${trimmed}\0\0\0\0`;
  const st = newState();
  let pos = 0;
  while (pos < trimmed.length) {
    const found = longestAt(input, pos);
    if (!found) {
      if (!SKIPPED.test(trimmed[pos]!)) dateStringError(text, pos, 'Unexpected character', trimmed[pos]);
      pos++;
      continue;
    }
    try {
      found.form.read(st, input.slice(pos, pos + found.length).replace(/\0+$/, ''));
    } catch (error) {
      if (error instanceof TokenFailure) dateStringError(text, pos, error.detail, trimmed[pos]);
      throw error;
    }
    pos += found.length;
  }
  return st;
}

/** Days to move a date forward to the weekday a day name gave (that day itself counts), as timelib does. */
function weekdayShift(st: FreeState, y: number, m: number, d: number): number {
  if (st.weekday === undefined) return 0;
  let diff = st.weekday - utcDate(y, m, d).getUTCDay();
  if ((st.relDays < 0 && diff < 0) || (st.relDays >= 0 && diff <= -1)) diff += 7;
  return diff;
}

/**
 * Reads `text` without a format, as MongoDB 7.0 reads it with timelib: ISO 8601 and the other forms of
 * the PHP manual's "Supported Date and Time Formats" — `2017-07-04T11:56:02.813Z`, `2017-07-04 11:56`,
 * `July 4th, 2017 11am`, `4 Jul 2017`, `Jul-04-2017`, `7/4/17`, `2017/07/04`, `04-07-2017`,
 * `04.07.2017`, `20170704`, `2017:07:04 10:00:00`, `2017-W27-2`, `2017.021`, RFC 2822
 * (`Tue, 04 Jul 2017 10:00:00 GMT`), asctime, Common Log Format, `@1499169600`, `noon`, day names —
 * with a zone offset or abbreviation. Two-digit years 0–69 are 2000–2069, 70–99 are 1970–1999.
 * @returns the wall-clock fields, relative parts applied, and the zone the string names.
 * @throws CommandError 241 `Error parsing date string '…'` for a string timelib cannot read, a date or
 * time out of range, or a relative form (`+1 day`, `next monday`) or four-digit time (`1030`) this server
 * does not read; 241 "an incomplete date/time string has been found" when no full date is given.
 */
export function parseFreeDateString(text: string): DateStringParts {
  // timelib trims C blanks at both ends; an empty string is an error of its own, one of blanks names
  // nothing (timelib keeps its last blank).
  const trimmed = text.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');
  if (text === '') dateStringError(text, 0, 'Empty string', '');
  if (trimmed === '') incomplete(text);
  const st = scan(text, trimmed);
  // timelib_strtotime's checks, which are warnings to PHP and errors to MongoDB.
  const { y, m, d } = st;
  if (st.haveTime && ((st.h ?? 0) > 23 || (st.i ?? 0) > 59 || (st.s ?? 0) > 59))
    dateStringError(text, trimmed.length, 'The parsed time was invalid', '');
  if (st.haveDate && y !== undefined && m !== undefined && d !== undefined && !validDate(y, m, d))
    dateStringError(text, trimmed.length, 'The parsed date was invalid', '');
  if (y === undefined || m === undefined || d === undefined) incomplete(text);
  // A time without microseconds (`1030`): MongoDB would add TIMELIB_UNSET to the instant as microseconds.
  if (st.h !== undefined && st.us === undefined)
    dateStringError(text, 0, 'times of four digits without a colon are not read by this server', trimmed[0]);
  const [h = 0, i = 0, s = 0, us = 0] = [st.h, st.i, st.s, st.us];
  // Relative parts, then normalized: days (a day name's shift first), then seconds and microseconds.
  const day = utcDate(y, m, d + weekdayShift(st, y, m, d) + st.relDays);
  const micros = us + st.relUs;
  const carry = Math.floor(micros / 1e6);
  const rest = micros - carry * 1e6;
  day.setUTCHours(h, i, s + st.relSeconds + carry, Math.floor(rest / 1000));
  // MongoDB truncates the instant's microseconds to milliseconds toward zero, so before 1970 a fraction
  // of a millisecond rounds up (the instant is taken in the string's zone, or else in UTC).
  if (rest % 1000 !== 0 && day.getTime() - (st.zone?.seconds ?? 0) * 1000 < 0) day.setTime(day.getTime() + 1);
  return {
    year: day.getUTCFullYear(),
    month: day.getUTCMonth() + 1,
    day: day.getUTCDate(),
    hour: day.getUTCHours(),
    minute: day.getUTCMinutes(),
    second: day.getUTCSeconds(),
    millisecond: day.getUTCMilliseconds(),
    ...(st.zone ? { zone: st.zone } : {}),
  };
}
