/**
 * `$dateFromString` against MongoDB 7.0's answers: the strings it reads, and the 241 `ConversionFailure` it
 * raises for a string it cannot read (unless `onError` is given). Unless a case says otherwise, the
 * expected answers come from MongoDB's own tests, jstests/aggregation/expressions/date_from_string.js and
 * date_from_string_on_error.js (mongodb/mongo), and the messages from ExpressionDateFromString::evaluate
 * (src/mongo/db/pipeline/expression.cpp) and TimeZoneDatabase::fromString
 * (src/mongo/db/query/datetime/date_time_support.cpp). Error cases read the string from a document, as
 * MongoDB would fold a constant `$dateFromString` when it optimizes the pipeline (changing the message).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

/** [case, $dateFromString argument, expected date] */
const readable: [string, Doc, string][] = [
  ['an ISO date and time in UTC', { dateString: '2017-07-04T11:56:02Z' }, '2017-07-04T11:56:02.000Z'],
  ['a two-digit fraction', { dateString: '2017-07-04T11:56:02.81Z' }, '2017-07-04T11:56:02.810Z'],
  ['seconds after a dot', { dateString: '2017-07-04T11:56.02.8' }, '2017-07-04T11:56:02.800Z'],
  ['a space before the time', { dateString: '2017-07-06 11:36:54' }, '2017-07-06T11:36:54.000Z'],
  ['a date alone', { dateString: '2017-07-06' }, '2017-07-06T00:00:00.000Z'],
  ['an offset', { dateString: '2017-07-14T12:02:44.771+03:30' }, '2017-07-14T08:32:44.771Z'],
  ['GMT and an offset', { dateString: '2017-07-14T12:02:44.771 GMT+02' }, '2017-07-14T10:02:44.771Z'],
  ['a zone abbreviation', { dateString: '2017-07-14T12:02:44.771 CEST' }, '2017-07-14T10:02:44.771Z'],
  ['a military zone letter', { dateString: '2017-07-14T12:02:44.771 P' }, '2017-07-14T15:02:44.771Z'],
  [
    'a wall time in a named timezone',
    { dateString: '2017-07-06T12:35:37.513', timezone: 'America/Los_Angeles' },
    '2017-07-06T19:35:37.513Z',
  ],
  [
    'a wall time at a UTC offset',
    { dateString: '2017-07-06T12:35:37.513', timezone: '+04:00' },
    '2017-07-06T08:35:37.513Z',
  ],
  ['a format', { dateString: '05 12 1988', format: '%d %m %Y' }, '1988-12-05T00:00:00.000Z'],
  [
    'a format with %%',
    { dateString: '1992 % 04 % 26', format: '%Y %% %m %% %d' },
    '1992-04-26T00:00:00.000Z',
  ],
  ['a format with %z', { dateString: '4/26/1992:+0445', format: '%m/%d/%Y:%z' }, '1992-04-25T19:15:00.000Z'],
  [
    'a format with %Z (minutes)',
    { dateString: '4/26/1992:+285', format: '%m/%d/%Y:%Z' },
    '1992-04-25T19:15:00.000Z',
  ],
  ['an ISO week date', { dateString: '2017, Week 53', format: '%G, Week %V' }, '2018-01-01T00:00:00.000Z'],
];

/**
 * Strings without a `format` in the other forms timelib reads (MongoDB passes them to timelib_strtotime,
 * TimeZoneDatabase::fromString): [dateString, expected date].
 */
const freeForms: [string, string][] = [
  // date_from_string.js, "Wacky format tests from data" and "Tests with additional timezone information".
  ['July 4th, 2017', '2017-07-04T00:00:00Z'],
  ['July 4th, 2017 12:39:30 BST', '2017-07-04T11:39:30Z'],
  ['July 4th, 2017 11am', '2017-07-04T11:00:00Z'],
  ['July 4th, 2017 12pm', '2017-07-04T12:00:00Z'],
  ['7/4/17', '2017-07-04T00:00:00Z'],
  ['04-07-2017', '2017-07-04T00:00:00Z'],
  ['2017-Jul-04 noon', '2017-07-04T12:00:00Z'],
  ['2017-07-04 12:48:07 GMT+0545', '2017-07-04T07:03:07Z'],
  ['2017-07-04 12:48:07 GMT-0200', '2017-07-04T14:48:07Z'],
  ['2017-07-14T12:02:44.771 GMT+00:00', '2017-07-14T12:02:44.771Z'],
  ['2017-07-14T12:02:44.771+03', '2017-07-14T09:02:44.771Z'],
  ['2017-07-14T12:02:44.771 EST', '2017-07-14T17:02:44.771Z'],
  ['2017-07-14T12:02:44.771 L', '2017-07-14T01:02:44.771Z'],
  // Manual, $dateFromString, examples.
  ['2017-02-08T12:10:40.787', '2017-02-08T12:10:40.787Z'],
  ['2017-02-08', '2017-02-08T00:00:00Z'],
  // PHP manual, "Supported Date and Time Formats" (php.net/manual/en/datetime.formats.php): strings in its
  // date, time and compound formats (most are its own examples), which timelib (parse_date.re) reads; a
  // two-digit year is 2000–2069 for 00–69 and 1970–1999 for 70–99 (TIMELIB_PROCESS_YEAR), a month and
  // year without a day is the 1st.
  ['12/22/78', '1978-12-22T00:00:00Z'],
  ['1/17/6', '2006-01-17T00:00:00Z'],
  ['2008/6/30', '2008-06-30T00:00:00Z'],
  ['2008-6', '2008-06-01T00:00:00Z'],
  ['78-12-22', '1978-12-22T00:00:00Z'],
  ['8-6-21', '2008-06-21T00:00:00Z'],
  ['22.12.1978', '1978-12-22T00:00:00Z'],
  ['30.6.08', '2008-06-30T00:00:00Z'],
  ['30-June 2008', '2008-06-30T00:00:00Z'],
  ['22DEC78', '1978-12-22T00:00:00Z'],
  ['14 III 1879', '1879-03-14T00:00:00Z'],
  ['June 2008', '2008-06-01T00:00:00Z'],
  ['1978-XII', '1978-12-01T00:00:00Z'],
  ['April 17, 1790', '1790-04-17T00:00:00Z'],
  ['May.9,78', '1978-05-09T00:00:00Z'],
  ['Jul-04-2017', '2017-07-04T00:00:00Z'],
  ['15810726', '1581-07-26T00:00:00Z'],
  ['2008W27', '2008-06-30T00:00:00Z'],
  ['2008-W28-3', '2008-07-09T00:00:00Z'],
  ['2008.021', '2008-01-21T00:00:00Z'],
  ['2008:08:07 18:11:31', '2008-08-07T18:11:31Z'],
  ['20080701T22:38:07', '2008-07-01T22:38:07Z'],
  ['10/Oct/2000:13:55:36 -0700', '2000-10-10T20:55:36Z'],
  ['@1215282385', '2008-07-05T18:26:25Z'],
  ['2017-07-04 10:30 p.m.', '2017-07-04T22:30:00Z'],
  ['2017-07-04 12am', '2017-07-04T00:00:00Z'],
  ['2017-07-04 t10:30', '2017-07-04T10:30:00Z'],
  ['Tue, 04 Jul 2017 10:00:00 GMT', '2017-07-04T10:00:00Z'],
  ['Tue, 04 Jul 2017 10:00:00 +0200', '2017-07-04T08:00:00Z'],
  // PHP manual, "Date Formats" note: a year alone after a time (asctime's `… 10:00:00 2017`) is the year.
  ['Tue Jul  4 10:00:00 2017', '2017-07-04T10:00:00Z'],
  // PHP manual, "Relative Formats": a day name moves the date forward to that day (the same day counts),
  // as timelib_update_ts (do_adjust_for_weekday) does when MongoDB adjusts the time zone.
  ['Mon, 04 Jul 2017', '2017-07-10T00:00:00Z'],
];

/** [case, $dateFromString argument ('$s' reads the document's string), s, code, part of the message] */
const refused: [string, Doc, unknown, number, string][] = [
  ['an unreadable string', {}, '2017, 12:50:53', 241, "Error parsing date string '2017, 12:50:53'"],
  ['another unreadable string', {}, '60.Monday1770/06:59', 241, 'Error parsing date string'],
  ['a time alone', {}, '12:50:53', 241, 'an incomplete date/time string has been found'],
  [
    'a string that is not a string',
    {},
    5,
    241,
    "$dateFromString requires that 'dateString' be a string, found: int with value 5",
  ],
  ['a format the string lacks data for', { format: '%Y-%m-%d' }, '2018-01', 241, 'Data missing'],
  ['data beyond the format', { format: '%Y' }, '2018-01', 241, 'Trailing data'],
  ['a format literal missing', { format: 'Y-d-m' }, '1992-26-04', 241, 'Format literal not found'],
  [
    'ISO and natural dates mixed',
    { format: 'ISO Week %V, %Y' },
    'ISO Week 1, 2018',
    241,
    'Mixing of ISO dates with natural dates is not allowed',
  ],
  [
    'a string in UTC with a timezone',
    { timezone: 'Europe/Amsterdam' },
    '2017-07-12T22:23:55Z',
    241,
    'together with a timezone argument',
  ],
  [
    'a string with an offset and a timezone',
    { format: '%m/%d/%Y:%z', timezone: '+0500' },
    '4/26/1992:+0445',
    241,
    'you cannot pass in a date/time string with GMT offset together with a timezone argument',
  ],
  [
    'a format that is not a string',
    { format: 5 },
    '4/26/1992',
    40684,
    "$dateFromString requires that 'format' be a string",
  ],
  [
    'an unknown format character',
    { format: '%n' },
    '1992',
    18536,
    "Invalid format character '%n' in format string",
  ],
  // date_from_string.js: a zone identifier in the string; fromString rewords timelib's error.
  [
    'a zone identifier',
    {},
    '2017-07-12T22:23:55 Europe/Amsterdam',
    241,
    'passing a time zone identifier as part of the string is not allowed',
  ],
  // fromString fails on timelib's warnings, which PHP ignores: an invalid date or time (timelib_strtotime),
  // a day of the year past January 31st (timelib keeps it as a day of January: PHP's `2008.197`), a
  // second zone (TIMELIB_HAVE_TZ; JavaScript's Date#toString names two).
  ['an invalid calendar date', {}, '2017-02-30', 241, 'The parsed date was invalid'],
  ['an hour of 24', {}, '2017-07-04 24:00', 241, 'The parsed time was invalid'],
  ['a day of the year past January', {}, '2008.197', 241, 'The parsed date was invalid'],
  [
    'two zones',
    {},
    'Tue Jul 04 2017 10:00:00 GMT+0000 (Coordinated Universal Time)',
    241,
    'Double timezone specification',
  ],
  // fromString's check for missing elements: relative forms name no date (MongoDB does not look at
  // timelib's have_relative); PHP manual, "Date Formats" note: `dd.mm.yy` with a year under 61 is a time.
  ['now', {}, 'now', 241, 'an incomplete date/time string has been found'],
  ['tomorrow', {}, 'tomorrow', 241, 'an incomplete date/time string has been found'],
  ['a relative offset', {}, '+1 day', 241, '+1 day'],
  ['dd.mm.yy read as a time', {}, '04.07.17', 241, 'an incomplete date/time string has been found'],
  // fromString: zone_type 2 (an abbreviation) or 1 (an offset, which an `@` timestamp sets: parse_date.re)
  // with a timezone that is not UTC.
  [
    'an abbreviation with a timezone',
    { timezone: 'Europe/London' },
    'July 4th, 2017 12:39:30 BST',
    241,
    "you cannot pass in a date/time string with time zone information ('BST') together with a timezone argument",
  ],
  [
    'a timestamp with a timezone',
    { timezone: 'Europe/Paris' },
    '@1499169600',
    241,
    'you cannot pass in a date/time string with GMT offset together with a timezone argument',
  ],
];

describe.each(drivers)('$dateFromString ($name)', (driver) => {
  const t = connect(driver, 'date_from_string');
  let counter = 0;

  /** The `$dateFromString` of `args` over one document `{ _id: 1, s }`. */
  async function evaluate(args: Doc, s?: unknown): Promise<unknown> {
    counter++;
    const coll = t.db.collection<any>(`c${counter}`);
    await coll.insertOne({ _id: 1, ...(s === undefined ? {} : { s }) });
    const [doc] = await coll.aggregate([{ $project: { _id: 0, d: { $dateFromString: args } } }]).toArray();
    return doc?.['d'];
  }

  it.each(readable)('reads %s', async (_name, args, expected) => {
    expect(await evaluate(args)).toEqual(new Date(expected));
  });

  it.each(freeForms)('reads %j without a format', async (dateString, expected) => {
    expect(await evaluate({ dateString })).toEqual(new Date(expected));
  });

  // date_from_string.js ("Normal format tests with timezone"): a string without a zone is a wall time in
  // the timezone; fromString allows a zone in the string when the timezone is UTC (TimeZone::isUtcZone).
  it('reads free forms as wall times in a timezone', async () => {
    const inZone = (dateString: string, timezone: string) => evaluate({ dateString, timezone });
    expect(await inZone('2017-07-04T11:56.02', 'Europe/London')).toEqual(new Date('2017-07-04T10:56:02Z'));
    expect(await inZone('7/4/17', 'America/New_York')).toEqual(new Date('2017-07-04T04:00:00Z'));
    expect(await inZone('July 4th, 2017 12:39:30 BST', 'UTC')).toEqual(new Date('2017-07-04T11:39:30Z'));
  });

  it.each(refused)('refuses %s with %i', async (_name, args, s, code, message) => {
    const error = await failure(() => evaluate({ dateString: '$s', ...args }, s));
    expect(error['code']).toBe(code);
    expect(error['message']).toContain(message);
  });

  // date_from_string_on_error.js: onError is the answer for an unreadable string ("Not even close") and for
  // a dateString that is not a string; onError does not hide an invalid format (40684 is raised before).
  it('answers onError instead of failing with 241', async () => {
    const fallback = new Date('2017-07-04T11:56:02Z');
    expect(await evaluate({ dateString: '$s', onError: fallback }, 'Not even close')).toEqual(fallback);
    expect(await evaluate({ dateString: '$s', onError: 'bad' }, 5)).toBe('bad');
    const error = await failure(() => evaluate({ dateString: '$s', format: 5, onError: 'bad' }, 'x'));
    expect(error['code']).toBe(40684);
  });

  // ExpressionDateFromString::parse refuses a malformed argument when the pipeline is parsed (40540, 40541;
  // date_from_string.js); ExpressionDateFromString::optimize folds constant arguments, so an unreadable
  // constant string fails when the pipeline is optimized, under the context Pipeline::optimizePipeline adds
  // — both even on an empty collection.
  it('refuses a malformed or unreadable constant argument before reading a document', async () => {
    const empty = t.db.collection('empty');
    const run = (args: unknown) =>
      empty.aggregate([{ $project: { d: { $dateFromString: args } } }]).toArray();
    const notObject = await failure(() => run('no-object'));
    expect(notObject['code']).toBe(40540);
    expect(notObject['message']).toContain('$dateFromString only supports an object as an argument');
    const unknown = await failure(() => run({ unknown: '$tz' }));
    expect(unknown['code']).toBe(40541);
    expect(unknown['message']).toContain('Unrecognized argument');
    const unreadable = await failure(() => run({ dateString: 'invalid' }));
    expect(unreadable['code']).toBe(241);
    expect(unreadable['message']).toContain(
      "Failed to optimize pipeline :: caused by :: Error parsing date string 'invalid'",
    );
    expect(await run({ dateString: 'invalid', onError: null })).toEqual([]);
  });

  // Manual, $dateFromString
  // (https://www.mongodb.com/docs/manual/reference/operator/aggregation/dateFromString/): onNull is the answer when dateString is null or missing; date_from_string_on_error.js: without onNull
  // a null dateString gives null.
  it('answers onNull for a missing string', async () => {
    expect(await evaluate({ dateString: '$s', onNull: 'none' })).toBe('none');
    expect(await evaluate({ dateString: '$s' }, null)).toBeNull();
  });
});
