/**
 * The examples of the MongoDB 7.0 manual's reference pages for the date arithmetic operators ($dateAdd,
 * $dateSubtract, $dateDiff, $dateTrunc, $dateFromParts), run through the driver with the documented
 * output. Where the manual's tables are unclear (shell-local dates, a misprinted row), the expectation
 * comes from MongoDB's jstests (jstests/aggregation/expressions/date_add_subtract.js, date_trunc.js) or
 * from date_time_support.cpp, and says so.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const date = (iso: string): Date => new Date(iso);

/** [case, expression, expected value] evaluated on one document. */
const values: [string, unknown, unknown][] = [
  // Manual, $dateAdd "Behavior": adding one month to 31 October gives 30 November (last-day adjustment).
  [
    '$dateAdd clamps to the last day of the month',
    { $dateAdd: { startDate: date('2020-10-31T12:10:05Z'), unit: 'month', amount: 1 } },
    date('2020-11-30T12:10:05Z'),
  ],
  // Manual, $dateSubtract "Behavior": one month before 31 March is 28 February.
  [
    '$dateSubtract clamps to the last day of the month',
    { $dateSubtract: { startDate: date('2021-03-31T12:10:05Z'), unit: 'month', amount: 1 } },
    date('2021-02-28T12:10:05Z'),
  ],
  // jstests date_add_subtract.js: the clamp happens on the local calendar (31 Jan 00:30 in Paris + 1
  // month is 28 Feb 00:30 Paris; 30 Jan 22:00 in New York - 2 months is 30 Nov 22:00 New York).
  [
    '$dateAdd clamps in a timezone',
    {
      $dateAdd: {
        startDate: date('2021-01-30T23:30:00Z'),
        unit: 'month',
        amount: 1,
        timezone: 'Europe/Paris',
      },
    },
    date('2021-02-27T23:30:00Z'),
  ],
  [
    '$dateSubtract clamps in a timezone',
    {
      $dateSubtract: {
        startDate: date('2021-01-31T03:00:00Z'),
        unit: 'month',
        amount: 2,
        timezone: 'America/New_York',
      },
    },
    date('2020-12-01T03:00:00Z'),
  ],
  // jstests date_add_subtract.js: across Paris's DST end a day keeps 20:10 local (25 hours), 24 hours do not.
  [
    '$dateAdd of a day across a DST change',
    {
      $dateAdd: { startDate: date('2020-10-24T18:10:00Z'), unit: 'day', amount: 1, timezone: 'Europe/Paris' },
    },
    date('2020-10-25T19:10:00Z'),
  ],
  [
    '$dateAdd of 24 hours across a DST change',
    {
      $dateAdd: {
        startDate: date('2020-10-24T18:10:00Z'),
        unit: 'hour',
        amount: 24,
        timezone: 'Europe/Paris',
      },
    },
    date('2020-10-25T18:10:00Z'),
  ],
  // Manual, $dateTrunc "binSize and unit Fields": 2021-03-20T11:30:05Z by 1 hour and by 2 hours; bins of
  // a week start on Sunday by default (jstests date_trunc.js).
  [
    '$dateTrunc by one hour',
    { $dateTrunc: { date: date('2021-03-20T11:30:05Z'), unit: 'hour' } },
    date('2021-03-20T11:00:00Z'),
  ],
  [
    '$dateTrunc by two hours',
    { $dateTrunc: { date: date('2021-03-20T11:30:05Z'), unit: 'hour', binSize: 2 } },
    date('2021-03-20T10:00:00Z'),
  ],
  [
    '$dateTrunc by week',
    { $dateTrunc: { date: date('2021-02-15T18:23:36Z'), unit: 'week' } },
    date('2021-02-14T00:00:00Z'),
  ],
  // Manual, $dateTrunc "Behavior": null when unit is week and startOfWeek is null.
  [
    '$dateTrunc with a null startOfWeek',
    { $dateTrunc: { date: date('2021-02-15T18:23:36Z'), unit: 'week', startOfWeek: null } },
    null,
  ],
  // date_time_support.cpp: bins start at 2000-01-01 local time, so hours of a +05:30 zone start at :30 UTC.
  [
    '$dateTrunc hours in a half-hour zone',
    { $dateTrunc: { date: date('2020-01-01T10:50:00Z'), unit: 'hour', timezone: '+05:30' } },
    date('2020-01-01T10:30:00Z'),
  ],
  // jstests date_trunc.js: two-week bins starting on Monday in New York.
  [
    '$dateTrunc two weeks from Monday in New York',
    {
      $dateTrunc: {
        date: date('2000-01-30T18:00:00Z'),
        unit: 'week',
        binSize: 2,
        timezone: 'America/New_York',
        startOfWeek: 'mon',
      },
    },
    date('2000-01-17T05:00:00Z'),
  ],
  // Manual, $dateFromParts "Value Range": a month past 12 carries into the year, 0 borrows from it.
  [
    '$dateFromParts month 14',
    { $dateFromParts: { year: 2017, month: 14, day: 1, hour: 12 } },
    date('2018-02-01T12:00:00Z'),
  ],
  [
    '$dateFromParts month 0',
    { $dateFromParts: { year: 2017, month: 0, day: 1, hour: 12 } },
    date('2016-12-01T12:00:00Z'),
  ],
  // Manual, $dateFromParts "Example": ISO week 6 of 2017, day 3 is 8 February; New York is at UTC−5.
  [
    '$dateFromParts from ISO week parts',
    { $dateFromParts: { isoWeekYear: 2017, isoWeek: 6, isoDayOfWeek: 3, hour: 12 } },
    date('2017-02-08T12:00:00Z'),
  ],
  [
    '$dateFromParts in a timezone',
    {
      $dateFromParts: {
        year: 2016,
        month: 12,
        day: 31,
        hour: 23,
        minute: 46,
        second: 12,
        timezone: 'America/New_York',
      },
    },
    date('2017-01-01T04:46:12Z'),
  ],
  // date_support: a null part makes the result null.
  ['$dateFromParts with a null part', { $dateFromParts: { year: 2017, month: null } }, null],
  // date_time_support.cpp: $dateDiff counts in a 64-bit integer.
  [
    '$dateDiff is a long',
    { $type: { $dateDiff: { startDate: date('2020-01-01'), endDate: date('2020-02-01'), unit: 'day' } } },
    'long',
  ],
];

/** [case, input documents, pipeline, expected output] of the manual's collection examples. */
const pipelines: [string, Doc[], Doc[], Doc[]][] = [
  // Manual, $dateAdd "Adjust for Daylight Savings Time": days keep the local time across New York's DST
  // start, hours do not; Mexico City had no DST change that day.
  [
    '$dateAdd across a DST start',
    [
      { _id: 1, location: 'America/New_York', login: date('2021-03-13T15:00:00Z') },
      { _id: 2, location: 'America/Mexico_City', login: date('2021-03-13T10:00:00Z') },
    ],
    [
      {
        $project: {
          _id: 0,
          days: { $dateAdd: { startDate: '$login', unit: 'day', amount: 1, timezone: '$location' } },
          hours: { $dateAdd: { startDate: '$login', unit: 'hour', amount: 24, timezone: '$location' } },
        },
      },
    ],
    [
      { days: date('2021-03-14T14:00:00Z'), hours: date('2021-03-14T15:00:00Z') },
      { days: date('2021-03-14T10:00:00Z'), hours: date('2021-03-14T10:00:00Z') },
    ],
  ],
  // Manual, $dateSubtract "Adjust for Daylight Savings Time" (New York column): 11:00 EDT less a day is
  // 11:00 EST.
  [
    '$dateSubtract across a DST start',
    [{ _id: 1, location: 'America/New_York', login: date('2021-03-14T15:00:00Z') }],
    [
      {
        $project: {
          _id: 0,
          days: { $dateSubtract: { startDate: '$login', unit: 'day', amount: 1, timezone: '$location' } },
          hours: { $dateSubtract: { startDate: '$login', unit: 'hour', amount: 24, timezone: '$location' } },
        },
      },
    ],
    [{ days: date('2021-03-13T16:00:00Z'), hours: date('2021-03-13T15:00:00Z') }],
  ],
  // Manual, $dateDiff "Result Precision" and "Weeks Per Month".
  [
    '$dateDiff in years, months and days',
    [
      { _id: 1, start: date('2010-01-01'), end: date('2011-01-01') },
      { _id: 2, start: date('2010-01-01'), end: date('2011-07-01') },
      { _id: 3, start: date('2010-03-01'), end: date('2010-04-30') },
    ],
    [
      {
        $project: {
          _id: 0,
          years: { $dateDiff: { startDate: '$start', endDate: '$end', unit: 'year' } },
          months: { $dateDiff: { startDate: '$start', endDate: '$end', unit: 'month' } },
          days: { $dateDiff: { startDate: '$start', endDate: '$end', unit: 'day' } },
        },
      },
    ],
    [
      { years: 1, months: 12, days: 365 },
      { years: 1, months: 18, days: 546 },
      { years: 0, months: 1, days: 60 },
    ],
  ],
  [
    '$dateDiff in weeks from Sunday, Monday and Friday',
    [
      { _id: 1, start: date('2021-01-01'), end: date('2021-01-31') },
      { _id: 2, start: date('2021-02-01'), end: date('2021-02-28') },
      { _id: 3, start: date('2021-03-01'), end: date('2021-03-31') },
    ],
    [
      {
        $project: {
          _id: 0,
          sun: { $dateDiff: { startDate: '$start', endDate: '$end', unit: 'week' } },
          mon: { $dateDiff: { startDate: '$start', endDate: '$end', unit: 'week', startOfWeek: 'Monday' } },
          fri: { $dateDiff: { startDate: '$start', endDate: '$end', unit: 'week', startOfWeek: 'fri' } },
        },
      },
    ],
    [
      { sun: 5, mon: 4, fri: 4 },
      { sun: 4, mon: 3, fri: 4 },
      { sun: 4, mon: 4, fri: 4 },
    ],
  ],
  // Manual, $dateTrunc examples on the cakeSales collection.
  [
    '$dateTrunc to two weeks from Monday in Los Angeles',
    [
      { _id: 0, orderDate: date('2020-05-18T14:10:30Z') },
      { _id: 1, orderDate: date('2021-03-20T11:30:05Z') },
      { _id: 2, orderDate: date('2021-01-11T06:31:15Z') },
    ],
    [
      {
        $project: {
          t: {
            $dateTrunc: {
              date: '$orderDate',
              unit: 'week',
              binSize: 2,
              timezone: 'America/Los_Angeles',
              startOfWeek: 'Monday',
            },
          },
        },
      },
    ],
    [
      { _id: 0, t: date('2020-05-11T07:00:00Z') },
      { _id: 1, t: date('2021-03-15T07:00:00Z') },
      { _id: 2, t: date('2021-01-04T08:00:00Z') },
    ],
  ],
];

/** [case, expression, code, message] of arguments MongoDB refuses (jstests and date_time_support.cpp). */
const refusals: [string, unknown, number, string][] = [
  [
    '$dateAdd without amount',
    { $dateAdd: { startDate: date('2020-01-01'), unit: 'day' } },
    5166402,
    '$dateAdd requires startDate, unit, and amount to be present',
  ],
  [
    '$dateAdd with an unknown field',
    { $dateAdd: { startDate: date('2020-01-01'), units: 'day', amount: 1 } },
    5166401,
    'Unrecognized argument to $dateAdd: units',
  ],
  [
    '$dateSubtract of a string',
    { $dateSubtract: { startDate: 'myBirthDate', unit: 'year', amount: 10 } },
    5166403,
    '$dateSubtract requires startDate to be convertible to a date',
  ],
  [
    '$dateAdd with a numeric unit',
    { $dateAdd: { startDate: date('2020-01-01'), unit: 1, amount: 10 } },
    5166404,
    '$dateAdd expects string defining the time unit',
  ],
  [
    '$dateAdd with an unknown unit',
    { $dateAdd: { startDate: date('2020-01-01'), unit: 'epoch', amount: 10 } },
    9,
    'unknown time unit value: epoch',
  ],
  [
    '$dateSubtract of a fraction',
    { $dateSubtract: { startDate: date('2020-01-01'), unit: 'year', amount: 1.001 } },
    5166405,
    '$dateSubtract expects integer amount of time units',
  ],
  [
    '$dateTrunc of a string',
    { $dateTrunc: 'A' },
    5439007,
    '$dateTrunc only supports an object as its argument',
  ],
  [
    '$dateTrunc without unit',
    { $dateTrunc: { date: date('2020-01-01') } },
    5439010,
    "Missing 'unit' parameter to $dateTrunc",
  ],
  [
    '$dateTrunc of a string date',
    { $dateTrunc: { date: 'x', unit: 'hour' } },
    5439012,
    "$dateTrunc requires 'date' to be a date, but got string",
  ],
  [
    '$dateTrunc by a century',
    { $dateTrunc: { date: date('2020-01-01'), unit: 'century' } },
    5439014,
    "$dateTrunc parameter 'unit' value cannot be recognized as a time unit: century",
  ],
  [
    '$dateTrunc by 2.5',
    { $dateTrunc: { date: date('2020-01-01'), unit: 'hour', binSize: 2.5 } },
    5439017,
    "$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '2.5' of type double",
  ],
  [
    '$dateTrunc by 0',
    { $dateTrunc: { date: date('2020-01-01'), unit: 'hour', binSize: 0 } },
    5439018,
    "$dateTrunc requires 'binSize' to be greater than 0, but got value 0",
  ],
  [
    '$dateTrunc from FRIDIE',
    { $dateTrunc: { date: date('2020-01-01'), unit: 'week', startOfWeek: 'FRIDIE' } },
    5439016,
    "$dateTrunc parameter 'startOfWeek' value cannot be recognized as a day of a week: FRIDIE",
  ],
  [
    '$dateDiff of a number',
    { $dateDiff: { startDate: 1, endDate: date('2020-01-01'), unit: 'day' } },
    5166307,
    "$dateDiff requires 'startDate' to be a date, but got int",
  ],
  [
    '$dateDiff without unit',
    { $dateDiff: { startDate: date('2020-01-01'), endDate: date('2020-01-01') } },
    5166305,
    "Missing 'unit' parameter to $dateDiff",
  ],
  [
    '$dateFromParts of a number',
    { $dateFromParts: 5 },
    40519,
    '$dateFromParts only supports an object as its argument',
  ],
  [
    '$dateFromParts without a year',
    { $dateFromParts: { month: 1 } },
    40516,
    "$dateFromParts requires either 'year' or 'isoWeekYear' to be present",
  ],
  [
    '$dateFromParts mixing calendars',
    { $dateFromParts: { year: 2000, isoWeek: 1 } },
    40489,
    '$dateFromParts does not allow mixing natural dates with ISO dates',
  ],
  [
    '$dateFromParts of year 0',
    { $dateFromParts: { year: 0 } },
    40523,
    "'year' must evaluate to an integer in the range 1 to 9999, found 0",
  ],
  [
    '$dateFromParts of a fractional year',
    { $dateFromParts: { year: 2000.5 } },
    40515,
    "'year' must evaluate to an integer, found double with value 2000.5",
  ],
  [
    '$dateFromParts of month 40000',
    { $dateFromParts: { year: 2000, month: 40000 } },
    31034,
    "'month' must evaluate to a value in the range [-32768, 32767]; value 40000 is not in range",
  ],
];

describe.each(drivers)('manual examples: date arithmetic ($name)', (driver) => {
  const t = connect(driver, 'manual_dates');

  const run = (docs: Doc[], pipeline: Doc[]): Promise<Doc[]> => aggregateOn(t.db, docs, pipeline);

  it.each(values)('%s', async (_name, expr, expected) => {
    const [doc] = await run([{ _id: 1 }], [{ $project: { _id: 0, r: expr } }]);
    expect(doc?.['r']).toEqual(expected);
  });

  it.each(pipelines)('%s', async (_name, docs, pipeline, expected) => {
    expect(await run(docs, pipeline)).toEqual(expected);
  });

  it.each(refusals)('refuses %s', async (_name, expr, code, message) => {
    const error = await failure(() => run([{ _id: 1 }], [{ $project: { r: expr } }]));
    expect(error['code']).toBe(code);
    expect(error['message']).toContain(message);
  });
});
