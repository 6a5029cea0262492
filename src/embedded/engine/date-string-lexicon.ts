/**
 * The pieces the free-form date/time forms are built of, as the PHP manual's "Supported Date and Time
 * Formats" pages name them (`dd`, `mm`, `y`, `hh`, `MM`, `tzcorrection`, month and day names …), written
 * as regular-expression sources, and the lookups that turn a matched name into a number. Words timelib
 * matches in any letter case (`'july'`, `'t'`) go through {@link ci}; the rest (`"T"`, `"GMT"`, Roman
 * months, day suffixes) match only as written, as in timelib.
 *
 * Each piece is written so that JavaScript's first match is its longest one (longer alternatives first,
 * greedy repeats), because timelib's scanner takes the longest match.
 */

/** A word matched in any letter case. */
export const ci = (word: string): string =>
  [...word].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');

/** Any of `words`, in any letter case, longest first. */
export const anyWord = (words: readonly string[]): string =>
  `(?:${[...words]
    .sort((a, b) => b.length - a.length)
    .map(ci)
    .join('|')})`;

/** The month names, January first, in lower case. */
export const MONTH_NAMES = [
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
const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Blanks between pieces: spaces and tabs, or no-break spaces (U+00A0, U+202F), which timelib also takes. */
export const SPACE = '(?:[ \\t]+|\\u00a0+|\\u202f+)';
/** `hh`: an hour of a 12-hour clock. */
export const HOUR12 = '(?:1[0-2]|0?[1-9])';
/** `HH` without its leading zero required: an hour up to 24 (24 is then refused as an invalid time). */
export const HOUR24 = '(?:2[0-4]|[01]?[0-9])';
/** `HH`: two digits. */
export const HOUR24LZ = '(?:[01][0-9]|2[0-4])';
/** `ii`: a minute, leading zero optional. */
export const MINUTE = '[0-5]?[0-9]';
/** `II`: a minute of two digits. */
export const MINUTELZ = '[0-5][0-9]';
/** A second, leading zero optional; 60 matches and is then refused as an invalid time. */
export const SECOND = '(?:60|[0-5]?[0-9])';
/** A second of two digits. */
export const SECONDLZ = '(?:60|[0-5][0-9])';
/** A decimal fraction of a second. */
export const FRAC = '\\.[0-9]+';
/** `am`/`pm` (dots allowed), which must be followed by a blank or the end of the string (NUL). */
export const MERIDIAN = '[AaPp]\\.?[Mm]\\.?[\\0\\t ]';
/** `mm`: a month, leading zero optional (0 matches and is then refused as an invalid date). */
export const MONTH = '(?:1[0-2]|0?[0-9])';
/** `MM`: a month of two digits. */
export const MONTHLZ = '(?:1[0-2]|0[0-9])';
/** `dd`: a day, leading zero optional, then optionally `st`/`nd`/`rd`/`th`. */
export const DAY = '(?:3[01]|[0-2]?[0-9])(?:st|nd|rd|th)?';
/** `DD`: a day of two digits. */
export const DAYLZ = '(?:3[01]|[12][0-9]|0[0-9])';
/** `y`: a year of one to four digits (two-digit ones are then mapped, see {@link processYear}). */
export const YEAR = '[0-9]{1,4}';
/** `yy`: a year of two digits. */
export const YEAR2 = '[0-9]{2}';
/** `YY`: a year of four digits. */
export const YEAR4 = '[0-9]{4}';
/** `doy`: a day of the year, three digits. */
export const DAYOFYEAR = '(?:36[0-6]|3[0-5][0-9]|[12][0-9]{2}|0[1-9][0-9]|00[1-9])';
/** `W`: an ISO week, two digits. */
export const WEEKOFYEAR = '(?:5[0-3]|[1-4][0-9]|0[1-9])';
/** `M`: a month's three-letter abbreviation (and `sept`). */
export const MONTHABBR = anyWord([...MONTH_NAMES.map((m) => m.slice(0, 3)), 'sept']);
/** A month's name or abbreviation. */
export const MONTHNAME = `(?:${anyWord(MONTH_NAMES)}|${MONTHABBR})`;
/** `m`: a month's name, abbreviation or Roman numeral. */
export const MONTHTEXT = `(?:${MONTHNAME}|${[...ROMAN].reverse().join('|')})`;
/** A day's name or three-letter abbreviation (plural names, `mondays`, too, as timelib reads them). */
export const DAYTEXT = anyWord([
  ...DAY_NAMES,
  ...DAY_NAMES.map((d) => `${d}s`),
  ...DAY_NAMES.map((d) => d.slice(0, 3)),
]);
/** `tz`: a zone abbreviation (up to six letters, in parentheses or not) or an identifier (`Europe/Paris`). */
export const TZ = ['\\(?[A-Za-z]{1,6}\\)?', '[A-Z][a-z]+(?:[_/-][A-Za-z]+)+'];
/** `tzcorrection`: a signed offset, `GMT` before it optional. */
export const TZCORRECTION = `(?:GMT)?[+-](?:${HOUR24LZ}:${MINUTELZ}:${SECONDLZ}|${HOUR24LZ}${MINUTELZ}${SECONDLZ}|${HOUR24}(?::?${MINUTE})?)`;

/** The month (1–12) a month name, abbreviation or Roman numeral names, in any letter case; 0 for none. */
export function monthNumber(word: string): number {
  const w = word.toLowerCase();
  const roman = ROMAN.findIndex((r) => r.toLowerCase() === w);
  if (roman >= 0) return roman + 1;
  if (w === 'sept') return 9;
  return MONTH_NAMES.findIndex((m) => m === w || m.slice(0, 3) === w) + 1;
}

/** The day of the week (0 is Sunday) a day name or abbreviation (`Tue`, `tuesday`, `Tuesdays`) names. */
export const weekdayNumber = (word: string): number =>
  DAY_NAMES.findIndex((d) => d.slice(0, 3) === word.slice(0, 3).toLowerCase());

/**
 * A year as timelib reads it from `digits` (its TIMELIB_PROCESS_YEAR): four digits or more as written;
 * fewer, 0–69 as 2000–2069 and 70–99 as 1970–1999 (`17` and `017` are 2017, `78` is 1978).
 */
export function processYear(digits: string): number {
  const year = Number(digits);
  if (digits.length >= 4 || year >= 100) return year;
  return year < 70 ? year + 2000 : year + 1900;
}

/** A month name and day ending in a separator or the end of the string (`July 4th, `, `Jul 4`). */
export const DATENOYEAR = `${MONTHTEXT}[ .\\t-]*${DAY}(?:[,.stndrh\\t ]+|\\0)`;
