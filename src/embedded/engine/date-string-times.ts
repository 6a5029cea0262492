/**
 * The time and zone forms of a free-form `$dateFromString` string, with their place in timelib's scanner
 * order (parse_date.re; see date-string-free.ts), as the PHP manual's "Time Formats" page describes them:
 * 12-hour times (`10am`, `10:30 p.m.`, `10:30:15.123AM`), 24-hour times (`10:30`, `10.30.15`,
 * `T10`, `t10:30:15.25`, `103015`), zones (`+05:30`, `GMT-7`, `EST`, `(CEST)`), and a month name and day
 * with a time (`Jul 4 10:00:00 UTC`), which timelib reads as one form.
 */
import {
  DATENOYEAR,
  FRAC,
  HOUR12,
  HOUR24,
  HOUR24LZ,
  MERIDIAN,
  MINUTE,
  MINUTELZ,
  SECOND,
  SECONDLZ,
  SPACE,
  TZ,
  TZCORRECTION,
} from './date-string-lexicon.js';
import { TokenFailure, TokenReader, form, haveDate, haveTime, setZone } from './date-string-state.js';
import type { Form, FreeState } from './date-string-state.js';

const T = '[tT]';
const TIMESHORT12 = `${HOUR12}[:.]${MINUTELZ}${SPACE}?${MERIDIAN}`;
const TIMELONG12 = `${HOUR12}[:.]${MINUTE}[:.]${SECONDLZ}${SPACE}?${MERIDIAN}`;
const TIMESHORT24 = `${T}?${HOUR24}[:.]${MINUTE}`;
const TIMELONG24 = `${T}?${HOUR24}[:.]${MINUTE}[:.]${SECOND}`;
const ISO8601NORMTZ = `${T}?${HOUR24}[:.]${MINUTE}[:.]${SECONDLZ}${SPACE}?(?:${TZCORRECTION}|${TZ.join('|')})`;

/** Sets a 24-hour time (`10:30`, `10.30.15`, `T10`, `10:30:15.25`). */
function time24(st: FreeState, token: string): void {
  haveTime(st);
  const r = new TokenReader(token);
  st.h = r.nr(2);
  if (/[:.]/.test(r.peek())) {
    st.i = r.nr(2);
    if (/[:.]/.test(r.peek())) {
      st.s = r.nr(2);
      if (r.peek() === '.') st.us = r.fraction();
    }
  }
}

/** Sets a 12-hour time (`10am`, `10:30 p.m.`, `10:30:15pm`); with `fraction`, `10:30:15.123AM` too. */
function time12(st: FreeState, reader: TokenReader, fraction = false): void {
  haveTime(st);
  const hour = reader.nr(2) ?? 0;
  if (/[:.]/.test(reader.peek())) {
    st.i = reader.nr(2);
    if (/[:.]/.test(reader.peek())) {
      st.s = reader.nr(2);
      if (fraction && /[:.]/.test(reader.peek())) st.us = reader.fraction();
    }
  }
  st.h = hour + reader.meridian(hour);
}

/** Sets a month name and day, then a time after them (`Jul 4 10:00`, `July 4th 10:30:15 CEST`). */
function monthDayTime(st: FreeState, token: string, twelve: boolean): void {
  haveDate(st);
  const r = new TokenReader(token);
  st.m = r.month();
  st.d = r.nr(2);
  if (twelve) return time12(st, r);
  haveTime(st);
  [st.h, st.i] = [r.nr(2), r.nr(2)];
  // Seconds only after a colon: `Jul 4 10.30.15` leaves `.15` to be read as a zone, which fails.
  if (r.peek() === ':') {
    st.s = r.nr(2);
    if (r.peek() === '.') st.us = r.fraction();
  }
  if (r.rest() !== '') setZone(st, r.rest(), false);
}

/** The time and zone forms, each with its rank in timelib's scanner. */
export const TIME_FORMS: Form[] = [
  form(
    11,
    'timetiny12 | timeshort12 | timelong12',
    [`${HOUR12}${SPACE}?${MERIDIAN}`, TIMESHORT12, TIMELONG12],
    (st, t) => time12(st, new TokenReader(t)),
  ),
  form(12, 'mssqltime', [`${HOUR12}:${MINUTELZ}:${SECONDLZ}[:.][0-9]+${MERIDIAN}`], (st, t) =>
    time12(st, new TokenReader(t), true),
  ),
  form(
    13,
    'timetiny24 | timeshort24 | timelong24 | iso8601long',
    [`${T}${HOUR24}`, TIMESHORT24, TIMELONG24, `${TIMELONG24}${FRAC}`],
    time24,
  ),
  // `HHMM`: a time when no time was read yet, else the year after one (`Tue Jul 4 10:00:00 2017`, the
  // PHP manual's note on a year alone). As a time it leaves the microseconds unset, which MongoDB would
  // add to the instant as a number: date-string-free.ts refuses that.
  form(14, 'gnunocolon', [`${T}?${HOUR24LZ}${MINUTELZ}`], (st, token) => {
    if (st.haveTime > 1) throw new TokenFailure('Double time specification');
    const r = new TokenReader(token);
    if (st.haveTime === 0) [st.h, st.i, st.s] = [r.nr(2), r.nr(2), 0];
    else st.y = r.nr(4);
    st.haveTime++;
  }),
  form(15, 'iso8601nocolon', [`${T}?${HOUR24LZ}${MINUTELZ}${SECONDLZ}`], (st, token) => {
    haveTime(st);
    const r = new TokenReader(token);
    [st.h, st.i, st.s] = [r.nr(2), r.nr(2), r.nr(2)];
  }),
  form(43, 'tzcorrection | tz', [TZCORRECTION, ...TZ], (st, token) => setZone(st, token, true)),
  form(
    44,
    'dateshortwithtimeshort12 | dateshortwithtimelong12',
    [`${DATENOYEAR}${TIMESHORT12}`, `${DATENOYEAR}${TIMELONG12}`],
    (st, t) => monthDayTime(st, t, true),
  ),
  form(
    45,
    'dateshortwithtimeshort | dateshortwithtimelong | dateshortwithtimelongtz',
    [`${DATENOYEAR}${TIMESHORT24}`, `${DATENOYEAR}${TIMELONG24}`, `${DATENOYEAR}${ISO8601NORMTZ}`],
    (st, t) => monthDayTime(st, t, false),
  ),
];
