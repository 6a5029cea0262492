/**
 * Date/time strings read as `$dateFromString` reads them. MongoDB hands them to timelib
 * (TimeZoneDatabase::fromString, date_time_support.cpp): without a `format`, timelib's free-form parser;
 * with one, a parser driven by the format's `%` specifiers. A string it cannot read is error 241
 * `ConversionFailure` whose message starts `Error parsing date string '<string>'`, or says that elements
 * are missing. mingo's parser instead answered nothing for what it could not read, and could not read
 * much (fractions of two digits, a space before the time, offsets).
 *
 * The free form read here is ISO 8601's (a date, then optionally `T` or spaces and a time, then optionally
 * a zone); timelib also reads other forms (`July 4th, 2017`, `7/4/17`), which fail here. Error details after
 * the string follow timelib's wording where MongoDB's tests show it (jstests/aggregation/expressions/
 * date_from_string.js); their positions are this parser's.
 */
import { readZone } from './date-string-zone.js';
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

type Fields = Partial<Omit<DateStringParts, 'zone'>> & {
  dayOfYear?: number;
  isoYear?: number;
  isoWeek?: number;
  isoDay?: number;
};

/** A parse error in MongoDB's form: `Error parsing date string '<text>'; <pos>: <detail> '<char>'`. */
function parseError(text: string, pos: number, detail: string): never {
  throw new CommandError(
    ErrorCodes.ConversionFailure,
    `Error parsing date string '${text}'; ${pos}: ${detail} '${text[pos] ?? ''}'`,
  );
}

/** The zone at `pos` of `text`, if one starts there; a name that is no known zone is an error. */
function zoneAt(text: string, pos: number): { zone: ZoneInString; end: number } | undefined {
  const found = readZone(text, pos);
  // MongoDB words timelib's "unknown zone" error itself: it never loads zone identifiers from strings.
  if (found && 'unknownAt' in found)
    parseError(text, found.unknownAt, 'passing a time zone identifier as part of the string is not allowed');
  return found;
}

/** MongoDB's error when a date or time element is missing after parsing (date_time_support.cpp). */
function incomplete(text: string): never {
  throw new CommandError(
    ErrorCodes.ConversionFailure,
    `an incomplete date/time string has been found, with elements missing: "${text}"`,
  );
}

/** A UTC date of `year` (years 0–99 included, which `Date.UTC` would read as 1900–1999). */
function utcDate(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/** The number of days of `month` in `year`. */
const daysIn = (year: number, month: number): number => utcDate(year, month + 1, 0).getUTCDate();

/** The fields with the time completed and checked as MongoDB completes and checks them. */
function complete(text: string, f: Fields, zone: ZoneInString | undefined): DateStringParts {
  const { year, month, day } = f;
  if (year === undefined || month === undefined || day === undefined) incomplete(text);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month))
    parseError(text, text.length, 'The parsed date was invalid');
  const [hour = 0, minute = 0, second = 0, millisecond = 0] = [f.hour, f.minute, f.second, f.millisecond];
  if (hour > 23 || minute > 59 || second > 59) parseError(text, text.length, 'The parsed time was invalid');
  return { year, month, day, hour, minute, second, millisecond, ...(zone ? { zone } : {}) };
}

/** Milliseconds from a fraction's digits (`8` is 800, `8134` is 813), as timelib keeps microseconds. */
const fractionMs = (digits: string): number => Number(digits.slice(0, 3).padEnd(3, '0'));

const FREE_DATE = /\s*(\d{4})-(\d{1,2})-(\d{1,2})/y;
const FREE_TIME = /(?:T|\s+)(\d{1,2}):(\d{2})(?:[:.](\d{2})(?:[.,](\d+))?)?/y;
const TIME_ONLY = /^\s*\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*$/;

/**
 * Reads `text` without a format: `YYYY-MM-DD`, then optionally `T` or spaces and `HH:MM[:SS[.fraction]]`
 * (`.` may separate the seconds too), then optionally a zone (`Z`, `UTC`, `GMT±HH[:MM]`, `±HH[[:]MM]`,
 * an abbreviation such as `EST`, a military letter).
 * @throws CommandError 241 `Error parsing date string '…'` for anything else, or MongoDB's "incomplete
 * date/time string" message for a time alone.
 */
export function parseFreeDateString(text: string): DateStringParts {
  FREE_DATE.lastIndex = 0;
  const date = FREE_DATE.exec(text);
  if (!date) return TIME_ONLY.test(text) ? incomplete(text) : parseError(text, 0, 'Unexpected character');
  const f: Fields = { year: Number(date[1]), month: Number(date[2]), day: Number(date[3]) };
  let pos = FREE_DATE.lastIndex;
  FREE_TIME.lastIndex = pos;
  const time = FREE_TIME.exec(text);
  if (time) {
    Object.assign(f, { hour: Number(time[1]), minute: Number(time[2]), second: Number(time[3] ?? 0) });
    f.millisecond = fractionMs(time[4] ?? '');
    pos = FREE_TIME.lastIndex;
  }
  const rest = text.slice(pos);
  let zone: ZoneInString | undefined;
  if (rest.trim() !== '') {
    const found = zoneAt(text, pos);
    if (!found) parseError(text, pos, 'Unexpected character');
    zone = found.zone;
    pos = found.end;
  }
  if (text.slice(pos).trim() !== '') parseError(text, pos, 'Unexpected character');
  return complete(text, f, zone);
}

/** `%` specifiers a `$dateFromString` format may hold (date_time_support.cpp, kDateFromStringFormatMap). */
export const FROM_STRING_SPECIFIERS = new Set('bBdGHjLmMSuVYzZ%');

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** Up to `width` digits at `pos` ("Unexpected data found." when there is none). */
function digitsAt(text: string, pos: number, width: number): string {
  const m = new RegExp(`\\d{1,${width}}`, 'y');
  m.lastIndex = pos;
  const found = m.exec(text);
  if (!found) parseError(text, pos, 'Unexpected data found.');
  return found[0];
}

/** What one specifier reads at `pos`; returns the end. */
function readSpecifier(text: string, pos: number, spec: string, f: Fields, zones: ZoneInString[]): number {
  const numeric: Record<string, [keyof Fields, number]> = {
    Y: ['year', 4],
    m: ['month', 2],
    d: ['day', 2],
    H: ['hour', 2],
    M: ['minute', 2],
    S: ['second', 2],
    j: ['dayOfYear', 3],
    G: ['isoYear', 4],
    V: ['isoWeek', 2],
    u: ['isoDay', 1],
  };
  if (spec in numeric) {
    const [field, width] = numeric[spec]!;
    const digits = digitsAt(text, pos, width);
    f[field] = Number(digits);
    return pos + digits.length;
  }
  if (spec === 'L') {
    const digits = digitsAt(text, pos, 3);
    f.millisecond = fractionMs(digits);
    return pos + digits.length;
  }
  if (spec === 'b' || spec === 'B') {
    const word = /[A-Za-z]+/y;
    word.lastIndex = pos;
    const name = word.exec(text)?.[0].toLowerCase() ?? '';
    const month = MONTHS.findIndex((m) => m === name || m.slice(0, 3) === name);
    if (month < 0) parseError(text, pos, 'A textual month could not be found');
    f.month = month + 1;
    return pos + name.length;
  }
  if (spec === 'Z') {
    const m = /([+-])(\d{1,4})/y;
    m.lastIndex = pos;
    const found = m.exec(text);
    if (!found) parseError(text, pos, 'Unexpected data found.');
    zones.push({ kind: 'offset', seconds: (found[1] === '-' ? -60 : 60) * Number(found[2]), text: found[0] });
    return m.lastIndex;
  }
  if (spec === 'z') {
    const found = zoneAt(text, pos);
    if (!found) parseError(text, pos, 'The timezone could not be found in the database');
    zones.push(found.zone);
    return found.end;
  }
  if (text[pos] !== '%') parseError(text, pos, 'Format literal not found'); // `%%`
  return pos + 1;
}

/** The calendar fields of `date`. */
const fieldsOf = (date: Date): Pick<Fields, 'year' | 'month' | 'day'> => ({
  year: date.getUTCFullYear(),
  month: date.getUTCMonth() + 1,
  day: date.getUTCDate(),
});

/** The date of ISO week-date `year`-W`week`-`day`: week 1 holds the year's first Thursday. */
function fromIsoWeek(year: number, week: number, day: number): Pick<Fields, 'year' | 'month' | 'day'> {
  const jan4 = utcDate(year, 1, 4);
  const monday = jan4.getUTCDate() - ((jan4.getUTCDay() + 6) % 7);
  return fieldsOf(utcDate(year, 1, monday + (week - 1) * 7 + (day - 1)));
}

/**
 * Reads `text` as `format` directs (its specifiers already checked): each literal character must be
 * there, each specifier reads its digits, month name or zone.
 * @throws CommandError 241 `Error parsing date string '…'` with timelib's reason (`Format literal not
 * found`, `Unexpected data found.`, `Trailing data`, `Data missing`, `Mixing of ISO dates with natural
 * dates is not allowed`, `The parsed date was invalid`), or the "incomplete date/time string" message.
 */
export function parseFormattedDateString(text: string, format: string): DateStringParts {
  // timelib reads C strings: both end at a NUL (MongoDB's tests show "Data missing" / "Trailing data").
  const input = text.split('\0')[0]!;
  const spec = format.split('\0')[0]!;
  const f: Fields = {};
  const zones: ZoneInString[] = [];
  let pos = 0;
  let i = 0;
  for (; i < spec.length && pos < input.length; i++) {
    if (spec[i] !== '%') {
      if (input[pos] !== spec[i]) parseError(text, pos, 'Format literal not found');
      pos++;
      continue;
    }
    pos = readSpecifier(input, pos, spec[++i]!, f, zones);
  }
  if (pos < input.length) parseError(text, pos, 'Trailing data');
  if (i < spec.length) parseError(text, pos, 'Data missing');
  const iso = f.isoYear !== undefined || f.isoWeek !== undefined || f.isoDay !== undefined;
  if (iso) {
    if (f.year !== undefined || f.month !== undefined || f.day !== undefined)
      parseError(text, pos, 'Mixing of ISO dates with natural dates is not allowed');
    if (f.isoYear === undefined) parseError(text, pos, 'The parsed date was invalid');
    Object.assign(f, fromIsoWeek(f.isoYear, f.isoWeek ?? 1, f.isoDay ?? 1));
  }
  // `%j` is the day of the year from 001 (MongoDB manual, $dateFromString format specifiers).
  if (f.dayOfYear !== undefined && f.year !== undefined)
    Object.assign(f, fieldsOf(utcDate(f.year, 1, f.dayOfYear)));
  return complete(text, f, zones[zones.length - 1]);
}
