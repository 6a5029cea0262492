/**
 * The date forms of a free-form `$dateFromString` string, with their place in timelib's scanner order
 * (parse_date.re; see date-string-free.ts), as the PHP manual's "Date Formats" and "Compound Formats"
 * pages describe them: ISO 8601 and its variants (`2017-07-04`, `+2017-07-04`, `2017/7/4`, `17-07-04`,
 * `2017-07`, `20170704`, `2017-W27-2`, `2017.021`), American (`7/4/17`), day-first (`04-07-2017`,
 * `04.07.2017`, `30.6.08`), textual (`July 4th, 2017`, `4 Jul 2017`, `Jul-04-2017`, `2017-Jul-04`,
 * `June 2008`, `14 III 1879`), and dates with a time in one form (`2017-07-04T10:00:00.5+02:00`,
 * `20170704T10:00:00`, `2017:07:04 10:00:00`, `10/Oct/2000:13:55:36 -0700`).
 */
import {
  DATENOYEAR,
  DAY,
  DAYLZ,
  DAYOFYEAR,
  FRAC,
  HOUR24,
  HOUR24LZ,
  MINUTE,
  MINUTELZ,
  MONTH,
  MONTHABBR,
  MONTHLZ,
  MONTHNAME,
  MONTHTEXT,
  SECOND,
  SECONDLZ,
  SPACE,
  TZCORRECTION,
  WEEKOFYEAR,
  YEAR,
  YEAR2,
  YEAR4,
} from './date-string-lexicon.js';
import { isoWeekDayOffset } from './date-string-parts.js';
import { TokenReader, form, haveDate, haveTime, refuse, setZone } from './date-string-state.js';
import type { Form, FreeState } from './date-string-state.js';

/** An action setting a date whose parts `parts` reads, after marking the date read. */
const date =
  (parts: (st: FreeState, r: TokenReader) => void) =>
  (st: FreeState, token: string): void => {
    haveDate(st);
    parts(st, new TokenReader(token));
  };

/** Sets a date and time read in one form (`2017-07-04T10:00:00.5+02:00`, `20170704t100000`). */
function dateTime(st: FreeState, token: string): void {
  haveTime(st);
  haveDate(st);
  const r = new TokenReader(token);
  [st.y, st.m, st.d, st.h, st.i, st.s] = [r.nr(4), r.nr(2), r.nr(2), r.nr(2), r.nr(2), r.nr(2)];
  if (r.peek() === '.') {
    st.us = r.fraction();
    // A zone ending this form is not counted as a zone of its own: one may still follow.
    if (r.rest() !== '') setZone(st, r.rest(), false);
  }
}

/** The date forms, each with its rank in timelib's scanner. */
export const DATE_FORMS: Form[] = [
  form(
    16,
    'americanshort | american',
    [`${MONTH}/${DAY}(?:/${YEAR})?`],
    date((st, r) => {
      [st.m, st.d] = [r.nr(2), r.nr(2)];
      if (r.peek() === '/') st.y = r.year(4);
    }),
  ),
  form(
    17,
    'iso8601date4 | iso8601dateslash | dateslash',
    [`[+-]?${YEAR4}-${MONTHLZ}-${DAYLZ}`, `${YEAR4}/${MONTHLZ}/${DAYLZ}/?`, `${YEAR4}/${MONTH}/${DAY}`],
    date((st, r) => {
      [st.y, st.m, st.d] = [r.signed(4), r.nr(2), r.nr(2)];
    }),
  ),
  form(
    18,
    'iso8601date2',
    [`${YEAR2}-${MONTHLZ}-${DAYLZ}`],
    date((st, r) => {
      [st.y, st.m, st.d] = [r.year(4), r.nr(2), r.nr(2)];
    }),
  ),
  form(19, 'iso8601datex', [`[+-][0-9]{5,19}-${MONTHLZ}-${DAYLZ}`], refuse('years of five digits or more')),
  form(
    20,
    'gnudateshorter',
    [`${YEAR4}-${MONTH}`],
    date((st, r) => {
      [st.y, st.m, st.d] = [r.year(4), r.nr(2), 1];
    }),
  ),
  form(
    21,
    'gnudateshort',
    [`${YEAR}-${MONTH}-${DAY}`],
    date((st, r) => {
      [st.y, st.m, st.d] = [r.year(4), r.nr(2), r.nr(2)];
    }),
  ),
  form(
    22,
    'datefull',
    [`${DAY}[ \\t.-]*${MONTHTEXT}[ \\t.-]*${YEAR}`],
    date((st, r) => {
      st.d = r.nr(2);
      r.skipDaySuffix();
      [st.m, st.y] = [r.month(), r.year(4)];
    }),
  ),
  form(
    23,
    'pointeddate4',
    [`${DAY}[.\\t-]${MONTH}[.-]${YEAR4}`],
    date((st, r) => {
      [st.d, st.m, st.y] = [r.nr(2), r.nr(2), r.nr(4)];
    }),
  ),
  form(
    24,
    'pointeddate2',
    [`${DAY}[.\\t]${MONTH}\\.${YEAR2}`],
    date((st, r) => {
      [st.d, st.m, st.y] = [r.nr(2), r.nr(2), r.year(2)];
    }),
  ),
  form(
    25,
    'datenoday',
    [`${MONTHTEXT}[ .\\t-]*${YEAR4}`],
    date((st, r) => {
      [st.m, st.y, st.d] = [r.month(), r.year(4), 1];
    }),
  ),
  form(
    26,
    'datenodayrev',
    [`${YEAR4}[ .\\t-]*${MONTHTEXT}`],
    date((st, r) => {
      [st.y, st.m, st.d] = [r.year(4), r.month(), 1];
    }),
  ),
  // The year is optional (`datenoyear`): without one MongoDB reports it missing.
  form(
    27,
    'datetextual | datenoyear',
    [`${MONTHTEXT}[ .\\t-]*${DAY}[,.stndrh\\t ]+${YEAR}`, DATENOYEAR],
    date((st, r) => {
      [st.m, st.d, st.y] = [r.month(), r.nr(2), r.year(4)];
    }),
  ),
  form(
    28,
    'datenoyearrev',
    [`${DAY}[ .\\t-]*${MONTHTEXT}`],
    date((st, r) => {
      st.d = r.nr(2);
      r.skipDaySuffix();
      st.m = r.month();
    }),
  ),
  form(
    29,
    'datenocolon',
    [`${YEAR4}${MONTHLZ}${DAYLZ}`],
    date((st, r) => {
      [st.y, st.m, st.d] = [r.nr(4), r.nr(2), r.nr(2)];
    }),
  ),
  form(
    30,
    'xmlrpc | xmlrpcnocolon | soap | wddx | exif',
    [
      `${YEAR4}${MONTHLZ}${DAYLZ}T${HOUR24}:${MINUTELZ}:${SECONDLZ}`,
      `${YEAR4}${MONTHLZ}${DAYLZ}[tT]${HOUR24}${MINUTELZ}${SECONDLZ}`,
      `${YEAR4}-${MONTHLZ}-${DAYLZ}T${HOUR24LZ}:${MINUTELZ}:${SECONDLZ}${FRAC}(?:${TZCORRECTION})?`,
      `${YEAR4}-${MONTH}-${DAY}T${HOUR24}:${MINUTE}:${SECOND}`,
      `${YEAR4}:${MONTHLZ}:${DAYLZ} ${HOUR24LZ}:${MINUTELZ}:${SECONDLZ}`,
    ],
    dateTime,
  ),
  // A day of the year, kept as day N of January: timelib warns of days past the 31st as an invalid date
  // (PHP does not mind, MongoDB fails on warnings), so only January's days are read.
  form(
    31,
    'pgydotd',
    [`${YEAR4}[.-]?${DAYOFYEAR}`],
    date((st, r) => {
      [st.y, st.d, st.m] = [r.year(4), r.nr(3), 1];
    }),
  ),
  form(
    32,
    'isoweekday | isoweek',
    [`${YEAR4}-?W${WEEKOFYEAR}-?[0-7]`, `${YEAR4}-?W${WEEKOFYEAR}`],
    date((st, r) => {
      const [year = 0, week = 1, day = 1] = [r.nr(4), r.nr(2), r.nr(1)];
      [st.y, st.m, st.d, st.relDays] = [year, 1, 1, isoWeekDayOffset(year, week, day)];
    }),
  ),
  form(
    34,
    'pgtextshort',
    [`${MONTHABBR}-${DAYLZ}-${YEAR}`],
    date((st, r) => {
      [st.m, st.d, st.y] = [r.month(), r.nr(2), r.year(4)];
    }),
  ),
  form(
    35,
    'pgtextreverse',
    [`${YEAR}-${MONTHABBR}-${DAYLZ}`],
    date((st, r) => {
      [st.y, st.m, st.d] = [r.year(4), r.month(), r.nr(2)];
    }),
  ),
  // Common Log Format: `10/Oct/2000:13:55:36 -0700`.
  form(
    36,
    'clf',
    [`${DAY}/${MONTHABBR}/${YEAR4}:${HOUR24LZ}:${MINUTELZ}:${SECONDLZ}${SPACE}${TZCORRECTION}`],
    (st, token) => {
      haveTime(st);
      haveDate(st);
      const r = new TokenReader(token);
      [st.d, st.m, st.y, st.h, st.i, st.s] = [r.nr(2), r.month(), r.nr(4), r.nr(2), r.nr(2), r.nr(2)];
      setZone(st, r.rest(), false);
    },
  ),
  // A year alone (one that cannot be a time `HHMM`) sets the year without counting as a date.
  form(37, 'year4', [YEAR4], (st, token) => {
    st.y = Number(token);
  }),
  form(
    42,
    'monthfull | monthabbr',
    [MONTHNAME],
    date((st, r) => {
      st.m = r.month();
    }),
  ),
];
