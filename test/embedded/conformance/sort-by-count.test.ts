/**
 * `$sortByCount`, as MongoDB 7.0 parses it (src/mongo/db/pipeline/document_source_sort_by_count.cpp):
 * an alias for `{ $group: { _id: <expression>, count: { $sum: 1 } } }` followed by
 * `{ $sort: { count: -1 } }`, whose argument must be a `$`-prefixed path (else 40148), an object whose
 * first field starts with `$` (else 40147), and nothing else (40149); the expression is then parsed as
 * the `$group` key it becomes. The embedded database ran mingo's own stage, unchecked: the wire fuzzer
 * (seed 7351, case 1100) got "Cannot convert undefined or null to object" for a `$let` with unknown
 * fields, and `{ a: 1 }` grouped by the literal document.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('sortByCount ($name)', (driver) => {
  const t = connect(driver, 'sort_by_count');
  const rows = [{ s: 'a' }, { s: 'b' }, { s: 'b' }, { s: 'c' }, { s: 'b' }, { s: 'c' }];

  it.each([
    [{ a: 1 }, 40147],
    [{}, 40147],
    ['s', 40148],
    [1, 40149],
    [null, 40149],
    [{ $let: { date: '$a.b', amount: '$a' } }, 16875],
  ])('refuses %j with %i, at the top level and in a sub-pipeline', async (spec, code) => {
    for (const pipeline of [[{ $sortByCount: spec }], [{ $facet: { f: [{ $sortByCount: spec }] } }]]) {
      const error = await failure(() => aggregateOn(t.db, rows, pipeline));
      expect(error['code']).toBe(code);
    }
  });

  it('groups by the expression and sorts by the count, most first', async () => {
    const counted = await aggregateOn(t.db, rows, [{ $sortByCount: '$s' }]);
    expect(counted).toEqual([
      { _id: 'b', count: 3 },
      { _id: 'c', count: 2 },
      { _id: 'a', count: 1 },
    ]);
    const [faceted] = await aggregateOn(t.db, rows, [
      { $facet: { f: [{ $sortByCount: { $toUpper: '$s' } }, { $limit: 1 }] } },
    ]);
    expect(faceted!['f']).toEqual([{ _id: 'B', count: 3 }]);
  });
});
