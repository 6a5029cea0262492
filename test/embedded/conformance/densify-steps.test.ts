/**
 * `$densify`'s added values as MongoDB 7.0 steps them: document_source_densify.cpp's
 * `DensifyValue::increment` adds the step to the previous value (`dateAdd(date, unit, step, UTC)` for
 * dates, date_time_support.cpp, which clamps a month to its last day), so after 31 January come 29
 * February, 29 March …; and numbers of every BSON type step with `ExpressionAdd`.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const date = (iso: string): Date => new Date(iso);

describe.each(drivers)('densify steps ($name)', (driver) => {
  const t = connect(driver, 'densify_steps');
  const { Long } = driver.bson;

  const densified = async (docs: Doc[], stage: Doc): Promise<unknown[]> => {
    const result = await aggregateOn(t.db, docs, [{ $densify: stage }, { $project: { _id: 0 } }]);
    return result.map((doc) => (doc['d'] instanceof Date ? doc['d'].toISOString().slice(0, 10) : doc));
  };

  it('a month after the 31st is the last day of the next month, and later steps add to it', async () => {
    const result = await densified([{ d: date('2024-01-31') }, { d: date('2024-05-31') }], {
      field: 'd',
      range: { step: 1, unit: 'month', bounds: 'full' },
    });
    // 29 April + 1 month is 29 May, below 31 May: it is added; 31 May is not on the step.
    expect(result).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-29',
      '2024-04-29',
      '2024-05-29',
      '2024-05-31',
    ]);
  });

  it('quarters step from the lower bound through the range, then past the last document', async () => {
    const result = await densified([{ d: date('2024-05-31') }], {
      field: 'd',
      range: { step: 1, unit: 'quarter', bounds: [date('2023-11-30'), date('2024-09-01')] },
    });
    expect(result).toEqual(['2023-11-30', '2024-02-29', '2024-05-29', '2024-05-31', '2024-08-29']);
  });

  it('a year after 29 February is 28 February', async () => {
    const result = await densified([{ d: date('2024-02-29') }, { d: date('2026-03-01') }], {
      field: 'd',
      range: { step: 1, unit: 'year', bounds: 'full' },
    });
    expect(result).toEqual(['2024-02-29', '2025-02-28', '2026-02-28', '2026-03-01']);
  });

  // Manual, $densify "Densify Time Series Data": hourly within [00:00, 08:00), the upper bound exclusive.
  it("the manual's time series example", async () => {
    const hours = [0, 4, 8, 12].map((h) => ({ d: new Date(Date.UTC(2021, 4, 18, h)), temp: h }));
    const result = await aggregateOn(t.db, hours, [
      {
        $densify: {
          field: 'd',
          range: { step: 1, unit: 'hour', bounds: [hours[0]!.d, hours[2]!.d] },
        },
      },
    ]);
    expect(result.map((doc) => [doc['d'].getUTCHours(), doc['temp']])).toEqual([
      [0, 0],
      [1, undefined],
      [2, undefined],
      [3, undefined],
      [4, 4],
      [5, undefined],
      [6, undefined],
      [7, undefined],
      [8, 8],
      [12, 12],
    ]);
  });

  // Manual, $densify "Densify the Full Range of Values": each variety from the smallest altitude of all
  // to the largest, in the documented output order (the other partition's tail comes last).
  it("the manual's full range example with partitions", async () => {
    const coffee = [
      [600, 'Arabica Typica'],
      [750, 'Arabica Typica'],
      [950, 'Arabica Typica'],
      [1250, 'Gesha'],
      [1700, 'Gesha'],
    ].map(([altitude, variety]) => ({ altitude, variety }));
    const result = await aggregateOn(t.db, coffee, [
      {
        $densify: { field: 'altitude', partitionByFields: ['variety'], range: { bounds: 'full', step: 200 } },
      },
    ]);
    const typica = (altitude: number): [string, number] => ['Arabica Typica', altitude];
    const gesha = (altitude: number): [string, number] => ['Gesha', altitude];
    expect(result.map((doc) => [doc['variety'], doc['altitude']])).toEqual([
      typica(600),
      typica(750),
      typica(800),
      typica(950),
      ...[600, 800, 1000, 1200, 1250, 1400, 1600, 1700].map(gesha),
      ...[1000, 1200, 1400, 1600].map(typica),
    ]);
  });

  it('int64 values step as int64', async () => {
    const docs = [{ d: Long.fromNumber(1) }, { d: Long.fromNumber(4) }];
    const result = await aggregateOn(t.db, docs, [
      { $densify: { field: 'd', range: { step: Long.fromNumber(1), bounds: 'full' } } },
      { $project: { _id: 0, d: 1, type: { $type: '$d' } } },
    ]);
    expect(result.map((doc) => [Number(doc['d']), doc['type']])).toEqual([
      [1, 'long'],
      [2, 'long'],
      [3, 'long'],
      [4, 'long'],
    ]);
  });

  it('partition values need not be strings', async () => {
    const docs = [
      { p: 1, d: 0 },
      { p: 1, d: 2 },
      { p: 2, d: 0 },
    ];
    const result = await aggregateOn(t.db, docs, [
      { $densify: { field: 'd', partitionByFields: ['p'], range: { step: 1, bounds: 'partition' } } },
      { $project: { _id: 0 } },
    ]);
    expect(result).toEqual([
      { p: 1, d: 0 },
      { p: 1, d: 1 },
      { p: 1, d: 2 },
      { p: 2, d: 0 },
    ]);
  });

  // DensifyValue::getFromDocument (5733201) and getDensifyValue (6053600), document_source_densify.h.
  it.each([
    ['a string value', [{ d: 'x' }, { d: 2 }], { step: 1, bounds: 'full' }, 5733201],
    ['a date without a unit', [{ d: date('2024-01-01') }], { step: 1, bounds: 'full' }, 6053600],
    ['a number with a unit', [{ d: 1 }], { step: 1, unit: 'day', bounds: 'full' }, 6053600],
  ])('refuses %s', async (_name, docs, range, code) => {
    const error = await failure(() => aggregateOn(t.db, docs, [{ $densify: { field: 'd', range } }]));
    expect(error['code']).toBe(code);
  });
});
