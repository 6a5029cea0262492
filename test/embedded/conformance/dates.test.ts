/**
 * Date expression operators (`$dateToString`, `$week`, the ISO week operators, `$dateToParts` …), with and
 * without a `timezone`, against MongoDB 7.0's answers. Each expectation names where its answer comes from:
 * a MongoDB manual page or a calendar fact (weekdays from the Gregorian calendar; UTC offsets from the IANA
 * time zone database).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const date = (iso: string): Date => new Date(iso);

/** [case, expression, expected value] */
const cases: [string, unknown, unknown][] = [
  // Manual, $dateToString "Format Specifiers": %w is the day of week 1 (Sunday) – 7 (Saturday), %u the ISO
  // day 1 (Monday) – 7 (Sunday), %G the ISO 8601 week-numbering year, %V its week, %U the week of the year
  // (00–53, weeks from Sunday). Calendar: 2021-01-01 is a Friday in ISO week 2020-W53, before 2021's first
  // Sunday (3 January).
  [
    '%w %G %V %u %U of a Friday at a year end',
    { $dateToString: { date: date('2021-01-01T00:00:00Z'), format: '%w|%G|%V|%u|%U' } },
    '6|2020|53|5|00',
  ],
  // Manual, "Format Specifiers": %b/%B month names, %j day of year (3 digits), %% a literal percent.
  [
    'the other specifiers',
    { $dateToString: { date: date('2024-03-10T15:04:05.007Z'), format: '%Y-%m-%d %H:%M:%S.%L %j %b %B %%' } },
    '2024-03-10 15:04:05.007 070 Mar March %',
  ],
  // Calendar + tz database: 2024-03-10T15:04Z is 11:04 EDT (UTC−4, DST began 07:00Z that day), a Sunday;
  // manual: %z is ±hhmm, %Z the offset in minutes.
  [
    '%H:%M %z %Z %w %U in America/New_York after the DST change',
    {
      $dateToString: {
        date: date('2024-03-10T15:04:05Z'),
        format: '%H:%M %z %Z %w %U',
        timezone: 'America/New_York',
      },
    },
    '11:04 -0400 -240 1 10',
  ],
  // tz database: at 06:59Z on 2024-03-10 New York still kept EST (UTC−5): 01:59 on Sunday.
  [
    '%z %Z in America/New_York before the DST change',
    {
      $dateToString: {
        date: date('2024-03-10T06:59:00Z'),
        format: '%H:%M %z %Z',
        timezone: 'America/New_York',
      },
    },
    '01:59 -0500 -300',
  ],
  // Calendar: 2021-01-04T02:00Z is Monday in UTC (ISO week 2021-W01) but Sunday 21:00 in New York (EST),
  // still in ISO week 2020-W53.
  [
    '%G-W%V-%u across a year boundary in a timezone',
    {
      $dateToString: {
        date: date('2021-01-04T02:00:00Z'),
        format: '%G-W%V-%u %w',
        timezone: 'America/New_York',
      },
    },
    '2020-W53-7 1',
  ],
  [
    '%G-W%V-%u across a year boundary in UTC',
    { $dateToString: { date: date('2021-01-04T02:00:00Z'), format: '%G-W%V-%u %w' } },
    '2021-W01-1 2',
  ],
  // Calendar: 2024-12-30 is a Monday; its week's Thursday is 2025-01-02, so it is ISO week 2025-W01.
  [
    '%G-W%V of a late-December Monday',
    { $dateToString: { date: date('2024-12-30T12:00:00Z'), format: '%G-W%V %Y' } },
    '2025-W01 2024',
  ],
  // Calendar: 2022-12-31 is a Saturday (week 52 counting from Sunday), 2023-01-01 a Sunday (week 01, since
  // 2023's first Sunday starts week 1); 2023-01-01T03:00Z is still 22:00 on 31 December in New York.
  [
    '%U of the last Saturday of a year',
    { $dateToString: { date: date('2022-12-31T12:00:00Z'), format: '%U' } },
    '52',
  ],
  [
    '%U of a first-of-January Sunday',
    { $dateToString: { date: date('2023-01-01T12:00:00Z'), format: '%U' } },
    '01',
  ],
  [
    '%U in a timezone where the year has not turned yet',
    { $dateToString: { date: date('2023-01-01T03:00:00Z'), format: '%Y %U', timezone: 'America/New_York' } },
    '2022 52',
  ],
  // Manual, "timezone": a UTC offset may be +/-[hh]:[mm], +/-[hh][mm] or +/-[hh]; the manual's example gives
  // %Z "270" for +04:30. tz database: St John's (Newfoundland) keeps UTC−03:30 in winter.
  [
    '%z %Z of +04:30',
    { $dateToString: { date: date('2024-01-15T00:00:00Z'), format: '%H:%M %z %Z', timezone: '+04:30' } },
    '04:30 +0430 270',
  ],
  [
    '%z %Z of a negative half-hour zone',
    {
      $dateToString: {
        date: date('2024-01-15T00:00:00Z'),
        format: '%H:%M %z %Z',
        timezone: 'America/St_Johns',
      },
    },
    '20:30 -0330 -210',
  ],
  [
    '%z of -0530',
    { $dateToString: { date: date('2024-01-15T00:00:00Z'), format: '%z', timezone: '-0530' } },
    '-0530',
  ],
  [
    '%z of +03',
    { $dateToString: { date: date('2024-01-15T00:00:00Z'), format: '%z', timezone: '+03' } },
    '+0300',
  ],
  // Manual (7.0), "format": the default is "%Y-%m-%dT%H:%M:%S.%LZ"; 7.0 keeps the Z with a timezone (7.1
  // dropped it, jira DRIVERS-2620).
  [
    'the default format in a timezone',
    { $dateToString: { date: date('2024-03-10T15:04:05.123Z'), timezone: 'America/New_York' } },
    '2024-03-10T11:04:05.123Z',
  ],
  // Manual, "onNull": returned when the date is null or missing; without it the result is null.
  ['onNull for a missing date', { $dateToString: { date: '$nothing', onNull: 'none' } }, 'none'],
  ['onNull for a null date', { $dateToString: { date: null, format: '%Y', onNull: 0 } }, 0],
  ['null for a missing date without onNull', { $dateToString: { date: '$nothing' } }, null],
  // Manual, $week: 0–53, weeks begin on Sunday, days before the year's first Sunday are week 0 (strftime %U).
  // Calendar: 2024 began on a Monday; 2024-03-10 is its 10th Sunday.
  ['$week of a Sunday', { $week: date('2024-03-10T15:04:05Z') }, 10],
  ['$week of the Saturday before', { $week: date('2024-03-09T15:04:05Z') }, 9],
  ['$week of 1 January (a Monday)', { $week: date('2024-01-01T00:00:00Z') }, 0],
  ['$week of the last Saturday of 2022', { $week: date('2022-12-31T12:00:00Z') }, 52],
  ['$week of 2023-01-01, a Sunday', { $week: [date('2023-01-01T12:00:00Z')] }, 1],
  [
    '$week in a timezone where the year has not turned yet',
    { $week: { date: date('2023-01-01T03:00:00Z'), timezone: 'America/New_York' } },
    52,
  ],
  // Manual, $isoWeek / $isoWeekYear examples: 2016-01-01 is in week 53 of ISO year 2015. Calendar: 2021-01-03
  // is a Sunday in 2020-W53; 2024-12-30 a Monday in 2025-W01.
  ['$isoWeek of 2016-01-01', { $isoWeek: date('2016-01-01T00:00:00Z') }, 53],
  ['$isoWeekYear of 2016-01-01', { $isoWeekYear: date('2016-01-01T00:00:00Z') }, 2015],
  ['$isoWeekYear of 2021-01-03 (Sunday)', { $isoWeekYear: date('2021-01-03T00:00:00Z') }, 2020],
  ['$isoWeek of 2021-01-03 (Sunday)', { $isoWeek: date('2021-01-03T00:00:00Z') }, 53],
  ['$isoWeekYear of 2024-12-30 (Monday)', { $isoWeekYear: date('2024-12-30T00:00:00Z') }, 2025],
  ['$isoWeek of 2024-12-30 (Monday)', { $isoWeek: date('2024-12-30T00:00:00Z') }, 1],
  ['$isoWeek of 2024-12-29 (Sunday)', { $isoWeek: date('2024-12-29T23:30:00Z') }, 52],
  // Calendar: 2024-12-29T23:30Z is Monday 2024-12-30 00:30 at +01:00, so ISO week 2025-W01.
  [
    '$isoWeek of 2024-12-29T23:30Z at +01:00',
    { $isoWeek: { date: date('2024-12-29T23:30:00Z'), timezone: '+01:00' } },
    1,
  ],
  [
    '$isoWeekYear of 2024-12-29T23:30Z at +01:00',
    { $isoWeekYear: { date: date('2024-12-29T23:30:00Z'), timezone: '+01:00' } },
    2025,
  ],
  // Manual, $isoWeekYear example: 2017-01-02T00:00Z at -0500 is still 2016 (Sunday 1 January 2017, ISO
  // week 2016-W52).
  [
    '$isoWeekYear at -0500 (manual example)',
    { $isoWeekYear: { date: date('2017-01-02T00:00:00Z'), timezone: '-0500' } },
    2016,
  ],
  ['$isoWeek at -0500', { $isoWeek: { date: date('2017-01-02T00:00:00Z'), timezone: '-0500' } }, 52],
  // Manual, $dayOfWeek: 1 (Sunday) – 7 (Saturday); $isoDayOfWeek: 1 (Monday) – 7 (Sunday). Calendar:
  // 2024-03-10T02:00Z is Sunday in UTC, Saturday 21:00 in New York (EST).
  ['$dayOfWeek of a Sunday', { $dayOfWeek: date('2024-03-10T02:00:00Z') }, 1],
  ['$isoDayOfWeek of a Sunday', { $isoDayOfWeek: date('2024-03-10T02:00:00Z') }, 7],
  [
    '$dayOfWeek in New York',
    { $dayOfWeek: { date: date('2024-03-10T02:00:00Z'), timezone: 'America/New_York' } },
    7,
  ],
  [
    '$isoDayOfWeek in New York',
    { $isoDayOfWeek: { date: date('2024-03-10T02:00:00Z'), timezone: 'America/New_York' } },
    6,
  ],
  // Manual, "timezone": Olson identifiers such as "GMT" and "UTC"; tz database: Argentina keeps UTC−3.
  ['$hour in UTC', { $hour: { date: date('2024-03-10T15:04:05Z'), timezone: 'UTC' } }, 15],
  [
    '$hour in a three-part zone name',
    { $hour: { date: date('2024-03-10T15:04:05Z'), timezone: 'America/Argentina/Buenos_Aires' } },
    12,
  ],
  // Manual, $week etc.: null or missing date → null.
  ['$week of null', { $week: null }, null],
  ['$isoWeekYear of a missing field', { $isoWeekYear: '$nothing' }, null],
  ['$year with a null timezone', { $year: { date: date('2024-03-10T15:04:05Z'), timezone: null } }, null],
  // Manual, $dateToParts: with iso8601 the result is { isoWeekYear, isoWeek, isoDayOfWeek, hour, … }.
  [
    '$dateToParts iso8601 of 2021-01-03 (Sunday of 2020-W53)',
    { $dateToParts: { date: date('2021-01-03T10:00:00Z'), iso8601: true } },
    { isoWeekYear: 2020, isoWeek: 53, isoDayOfWeek: 7, hour: 10, minute: 0, second: 0, millisecond: 0 },
  ],
  [
    '$dateToParts iso8601 in New York across the year boundary',
    { $dateToParts: { date: date('2021-01-04T02:00:00.250Z'), timezone: 'America/New_York', iso8601: true } },
    { isoWeekYear: 2020, isoWeek: 53, isoDayOfWeek: 7, hour: 21, minute: 0, second: 0, millisecond: 250 },
  ],
  [
    '$dateToParts iso8601 of 2024-12-30 (Monday of 2025-W01)',
    { $dateToParts: { date: date('2024-12-30T00:00:00Z'), iso8601: true } },
    { isoWeekYear: 2025, isoWeek: 1, isoDayOfWeek: 1, hour: 0, minute: 0, second: 0, millisecond: 0 },
  ],
  // tz database: India keeps UTC+05:30.
  [
    '$dateToParts in Asia/Kolkata',
    { $dateToParts: { date: date('2020-12-31T20:00:00Z'), timezone: 'Asia/Kolkata' } },
    { year: 2021, month: 1, day: 1, hour: 1, minute: 30, second: 0, millisecond: 0 },
  ],
  ['$dateToParts of null', { $dateToParts: { date: null } }, null],
];

describe.each(drivers)('date operator conformance ($name)', (driver) => {
  const t = connect(driver, 'dates');

  /** The value of `expr` evaluated against one document (`s` is a string, `nothing` is missing). */
  async function evaluate(expr: unknown, options: Doc = {}): Promise<unknown> {
    const coll = t.db.collection<any>('dates');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, s: 'abc' });
    const [doc] = await coll.aggregate([{ $project: { _id: 0, r: expr } }], options).toArray();
    return doc?.['r'];
  }

  it.each(cases)('%s', async (_name, expr, expected) => {
    expect(await evaluate(expr)).toEqual(expected);
  });

  // Manual, $dateToParts: the fields come in the order year, month, day, hour … (or isoWeekYear, isoWeek,
  // isoDayOfWeek, hour …).
  it('$dateToParts orders its fields as MongoDB does', async () => {
    const d = date('2021-01-03T10:00:00Z');
    expect(Object.keys((await evaluate({ $dateToParts: { date: d } })) as Doc)).toEqual([
      'year',
      'month',
      'day',
      'hour',
      'minute',
      'second',
      'millisecond',
    ]);
    expect(Object.keys((await evaluate({ $dateToParts: { date: d, iso8601: true } })) as Doc)).toEqual([
      'isoWeekYear',
      'isoWeek',
      'isoDayOfWeek',
      'hour',
      'minute',
      'second',
      'millisecond',
    ]);
  });

  // MongoDB's server computes the ISO year as a 64-bit integer (TimeZone::isoYear returns long long), so
  // $isoWeekYear is a long, unlike $year.
  it('$isoWeekYear is a long', async () => {
    const value = await evaluate({ $isoWeekYear: date('2021-01-03T00:00:00Z') }, { promoteLongs: false });
    expect(driver.bson.Long.isLong(value)).toBe(true);
    expect(String(value)).toBe('2020');
  });

  /** [case, expression, code, message] of expressions MongoDB refuses. */
  const refusals: [string, unknown, number, string][] = [
    // Server errors for $dateToString (manual, "Format Specifiers": only the listed specifiers and %%).
    [
      'an unknown specifier',
      { $dateToString: { date: date('2021-01-01T00:00:00Z'), format: '%Y-%Q' } },
      18536,
      "Invalid format character '%Q' in format string",
    ],
    [
      'a lone % at the end',
      { $dateToString: { date: date('2021-01-01T00:00:00Z'), format: '%Y%' } },
      18535,
      "Unmatched '%' at end of format string",
    ],
    // The format is checked even when the date is null (the server validates it before looking at the date).
    [
      'an unknown specifier with a null date',
      { $dateToString: { date: null, format: '%Q', onNull: 'x' } },
      18536,
      "Invalid format character '%Q' in format string",
    ],
    // Manual, "date": must resolve to a Date, a Timestamp or an ObjectID.
    [
      'a string date',
      { $dateToString: { date: '$s', format: '%Y' } },
      16006,
      "can't convert from BSON type string to Date",
    ],
    [
      'a string date for $week',
      { $week: 'March 28, 1976' },
      16006,
      "can't convert from BSON type string to Date",
    ],
    [
      'a number date for $dateToParts',
      { $dateToParts: { date: 42 } },
      16006,
      "can't convert from BSON type int to Date",
    ],
    // Manual, "timezone": an Olson identifier or a UTC offset.
    [
      'an unknown zone',
      { $isoWeek: { date: date('2021-01-01T00:00:00Z'), timezone: 'Mars/Olympus_Mons' } },
      40485,
      'unrecognized time zone identifier: "Mars/Olympus_Mons"',
    ],
    [
      'a zone that is not a string',
      { $dateToString: { date: date('2021-01-01T00:00:00Z'), timezone: 5 } },
      40517,
      'timezone must evaluate to a string, found int',
    ],
  ];

  it.each(refusals)('refuses %s', async (_name, expr, code, message) => {
    const error = await failure(() => evaluate(expr));
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  it('accepts a Timestamp and an ObjectId as dates', async () => {
    const { Timestamp, ObjectId } = driver.bson;
    // Manual, $dateToString "date": a Timestamp or an ObjectID counts as its seconds since the epoch.
    // 1609459200 is 2021-01-01T00:00:00Z, a Friday.
    const seconds = 1609459200;
    expect(await evaluate({ $dayOfWeek: new Timestamp({ t: seconds, i: 1 }) })).toBe(6);
    const id = ObjectId.createFromTime(seconds);
    expect(await evaluate({ $dateToString: { date: id, format: '%Y-%m-%d %w' } })).toBe('2021-01-01 6');
  });
});
