/**
 * `$redact` as MongoDB 7.0 runs it (src/mongo/db/pipeline/document_source_redact.cpp): `$$DESCEND` keeps
 * a document's plain fields and decides again for every embedded document, in arrays at any depth, and
 * any answer other than `$$KEEP`, `$$PRUNE` or `$$DESCEND` is error 17053. The first case is the
 * manual's example: https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/redact/
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('$redact ($name)', (driver) => {
  const t = connect(driver, 'redact');

  it("gives the manual's forecasts output for a user with access to G and STLW", async () => {
    const forecast = {
      _id: 1,
      title: '123 Department Report',
      tags: ['G', 'STLW'],
      year: 2014,
      subsections: [
        {
          subtitle: 'Section 1: Overview',
          tags: ['SI', 'G'],
          content: 'Section 1: This is the content of section 1.',
        },
        {
          subtitle: 'Section 2: Analysis',
          tags: ['STLW'],
          content: 'Section 2: This is the content of section 2.',
        },
        {
          subtitle: 'Section 3: Budgeting',
          tags: ['TK'],
          content: { text: 'Section 3: This is the content of section 3.', tags: ['HCS'] },
        },
      ],
    };
    const access = {
      $cond: {
        if: { $gt: [{ $size: { $setIntersection: ['$tags', ['STLW', 'G']] } }, 0] },
        then: '$$DESCEND',
        else: '$$PRUNE',
      },
    };
    const result = await aggregateOn(t.db, [forecast], [{ $match: { year: 2014 } }, { $redact: access }]);
    expect(result).toEqual([{ ...forecast, subsections: forecast.subsections.slice(0, 2) }]);
  });

  it('descends into every embedded document, arrays of arrays included, whatever the expression', async () => {
    const doc = {
      _id: 1,
      level: 1,
      inner: { level: 5, secret: true },
      list: [{ level: 1, note: 'a' }, [{ level: 5 }, { level: 2 }], 7],
    };
    const result = await aggregateOn(
      t.db,
      [doc],
      [
        {
          $redact: {
            $switch: { branches: [{ case: { $eq: ['$level', 5] }, then: '$$PRUNE' }], default: '$$DESCEND' },
          },
        },
      ],
    );
    expect(result).toEqual([{ _id: 1, level: 1, list: [{ level: 1, note: 'a' }, [{ level: 2 }], 7] }]);
  });

  it('refuses an answer other than $$KEEP, $$PRUNE and $$DESCEND with 17053', async () => {
    const error = await failure(() => aggregateOn(t.db, [{ _id: 1, a: 1 }], [{ $redact: '$a' }]));
    expect([error['code'], error['message']]).toEqual([
      17053,
      "$redact's expression should not return anything aside from the variables $$KEEP, $$DESCEND, and $$PRUNE, but returned 1",
    ]);
    const missing = await failure(() => aggregateOn(t.db, [{ _id: 1 }], [{ $redact: '$a' }]));
    expect(missing['code']).toBe(17053);
  });
});
