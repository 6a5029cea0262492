/**
 * Date/time strings read as `$dateFromString` reads them. MongoDB hands them to timelib
 * (TimeZoneDatabase::fromString, date_time_support.cpp): without a `format`, timelib's free-form parser
 * (date-string-free.ts); with one, a parser driven by the format's `%` specifiers (this file). A string it
 * cannot read is error 241 `ConversionFailure` whose message starts `Error parsing date string '<string>'`,
 * or says that elements are missing. mingo's parser instead answered nothing for what it could not read,
 * and could not read much (fractions of two digits, a space before the time, offsets).
 *
 * Error details after the string follow timelib's wording where MongoDB's tests show it (jstests/
 * aggregation/expressions/date_from_string.js); their positions are this parser's.
 */
import {
  dateStringError,
  fieldsOf,
  fractionMs,
  fromIsoWeek,
  incomplete,
  utcDate,
  validDate,
} from './date-string-parts.js';
import type { DateStringParts } from './date-string-parts.js';
import { MONTH_NAMES } from './date-string-lexicon.js';
import { readZone } from './date-string-zone.js';
import type { ZoneInString } from './date-string-zone.js';

/** Reads a string without a format (see date-string-free.ts); re-exported for date-from-string.ts. */
export { parseFreeDateString } from './date-string-free.js';
/** What a date/time string holds (see date-string-parts.ts). */
export type { DateStringParts } from './date-string-parts.js';

type Fields = Partial<Omit<DateStringParts, 'zone'>> & {
  dayOfYear?: number;
  isoYear?: number;
  isoWeek?: number;
  isoDay?: number;
};

/** A parse error in MongoDB's form at `pos` of `text`. */
function parseError(text: string, pos: number, detail: string): never {
  dateStringError(text, pos, detail);
}

/** The zone at `pos` of `text`, if one starts there; a name that is no known zone is an error. */
function zoneAt(text: string, pos: number): { zone: ZoneInString; end: number } | undefined {
  const found = readZone(text, pos);
  // MongoDB words timelib's "unknown zone" error itself: it never loads zone identifiers from strings.
  if (found && 'unknownAt' in found)
    parseError(text, found.unknownAt, 'passing a time zone identifier as part of the string is not allowed');
  return found;
}

/** The fields with the time completed and checked as MongoDB completes and checks them. */
function complete(text: string, f: Fields, zone: ZoneInString | undefined): DateStringParts {
  const { year, month, day } = f;
  if (year === undefined || month === undefined || day === undefined) incomplete(text);
  if (!validDate(year, month, day)) parseError(text, text.length, 'The parsed date was invalid');
  const [hour = 0, minute = 0, second = 0, millisecond = 0] = [f.hour, f.minute, f.second, f.millisecond];
  if (hour > 23 || minute > 59 || second > 59) parseError(text, text.length, 'The parsed time was invalid');
  return { year, month, day, hour, minute, second, millisecond, ...(zone ? { zone } : {}) };
}

/** `%` specifiers a `$dateFromString` format may hold (date_time_support.cpp, kDateFromStringFormatMap). */
export const FROM_STRING_SPECIFIERS = new Set('bBdGHjLmMSuVYzZ%');

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
    const month = MONTH_NAMES.findIndex((m) => m === name || m.slice(0, 3) === name);
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
