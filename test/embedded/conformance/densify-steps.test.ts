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
