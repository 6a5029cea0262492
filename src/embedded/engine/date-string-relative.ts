/**
 * The relative and special forms of a free-form `$dateFromString` string, with their place in timelib's
 * scanner order (parse_date.re; see date-string-free.ts). Read here: `now`, `noon`, `midnight`, `today`,
 * `tomorrow`, `yesterday`, `@` timestamps and day names, as timelib reads them (PHP manual, "Relative
 * Formats"; "Compound Formats" for `@`). MongoDB's own check then refuses them when no date comes with
 * them ("an incomplete date/time string", date_time_support.cpp).
 *
 * Refused here, though MongoDB reads them next to a date (`2017-07-04 +1 day`): offsets (`+1 day`,
 * `3 weeks ago`, `next month`), `first day of`, `last day of`, `back of 7pm`, `second monday of`,
 * `weekday`. They still take part in the scan so that no shorter form reads part of them instead.
 */
import { DAYTEXT, HOUR24, MERIDIAN, SPACE, anyWord, ci, weekdayNumber } from './date-string-lexicon.js';
import { TokenFailure, form, haveTime, refuse, unhaveTime } from './date-string-state.js';
import type { Form } from './date-string-state.js';

const relative = refuse('relative date/time forms');

const RELTEXTNUMBER = anyWord(
  'first second third fourth fifth sixth seventh eight eighth ninth tenth eleventh twelfth'.split(' '),
);
const RELTEXTTEXT = anyWord(['next', 'last', 'previous', 'this']);
const UNITS = 'msec millisecond µsec microsecond usec sec second min minute hour day fortnight forthnight'
  .concat(' month year')
  .split(' ');
const WEEKDAY = anyWord(['weekdays', 'weekday']);
const RELTEXTUNIT = `(?:${anyWord([...UNITS.map((u) => `${u}s`), ...UNITS, 'ms', 'µs', 'weeks'])}|${DAYTEXT}|${WEEKDAY})`;

/** Reads `@seconds[.fraction]` since the epoch, in UTC: a zone of its own (an offset of 0). */
function timestamp(st: Parameters<Form['read']>[0], token: string): void {
  if (st.zones++ > 0) throw new TokenFailure('Double timezone specification');
  unhaveTime(st);
  const [whole = '', fraction = ''] = token.slice(1).split('.');
  const seconds = Number(whole);
  // JavaScript dates end at ±8.64e15 ms; MongoDB's go further, but no application stores those.
  if (!Number.isSafeInteger(seconds) || Math.abs(seconds) > 8.64e12)
    throw new TokenFailure('timestamps beyond the years ±275000 are not read by this server', true);
  Object.assign(st, { haveDate: false, y: 1970, m: 1, d: 1, relSeconds: st.relSeconds + seconds });
  // timelib gives the fraction the sign of the seconds: `@-1.5` is 1.5 s before the epoch.
  st.relUs = (whole.startsWith('-') ? -1 : 1) * Number(fraction.padEnd(6, '0'));
  st.zone = { kind: 'offset', seconds: 0, text: '+00:00' };
}

/** The relative and special forms, each with its rank in timelib's scanner. */
export const RELATIVE_FORMS: Form[] = [
  form(1, 'yesterday', [ci('yesterday')], (st) => {
    unhaveTime(st);
    st.relDays = -1;
  }),
  form(2, 'now', [ci('now')], () => {}),
  form(3, 'noon', [ci('noon')], (st) => {
    unhaveTime(st);
    haveTime(st);
    st.h = 12;
  }),
  form(4, 'midnight | today', [ci('midnight'), ci('today')], unhaveTime),
  form(5, 'tomorrow', [ci('tomorrow')], (st) => {
    unhaveTime(st);
    st.relDays = 1;
  }),
  form(6, 'timestamp | timestampms', ['@-?[0-9]+(?:\\.[0-9]{0,6})?'], timestamp),
  form(8, 'firstdayof | lastdayof', [ci('first day of'), ci('last day of')], relative),
  form(
    9,
    'backof | frontof',
    [`(?:${ci('back of ')}|${ci('front of ')})${HOUR24}(?:${SPACE}?${MERIDIAN})?`],
    relative,
  ),
  form(
    10,
    'weekdayof',
    [`(?:${RELTEXTNUMBER}|${RELTEXTTEXT})${SPACE}${DAYTEXT}${SPACE}${ci('of')}`],
    relative,
  ),
  form(38, 'ago', [ci('ago')], relative),
  // A day name sets the time to midnight; the date then moves forward to that day (date-string-free.ts).
  form(39, 'daytext', [DAYTEXT, WEEKDAY], (st, token) => {
    const weekday = weekdayNumber(token);
    if (weekday < 0) relative(); // `weekday(s)`: a count of working days
    unhaveTime(st);
    st.weekday = weekday;
  }),
  form(40, 'relativetextweek', [`${RELTEXTTEXT}${SPACE}${ci('week')}`], relative),
  form(41, 'relativetext', [`(?:${RELTEXTNUMBER}|${RELTEXTTEXT})${SPACE}${RELTEXTUNIT}`], relative),
  form(46, 'relative', [`[+-]*[ \\t]*[0-9]{1,13}${SPACE}?(?:${RELTEXTUNIT}|${ci('week')})`], relative),
];
