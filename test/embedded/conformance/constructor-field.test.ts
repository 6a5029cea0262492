/**
 * A field named `constructor` is an ordinary field to MongoDB (manual, "Field Names": only `$`-prefixed,
 * dotted and NUL-containing names are restricted), and a group key holding one groups as any other
 * document: `$group` compares keys as BSON values (document_source_group.cpp). mingo's hash of a group
 * key reads `key.constructor.name`, taking such a field for the object's class: `$group`, `$sortByCount`
 * and `$bucket` by a document with a `constructor` field failed with "Cannot read properties of
 * undefined (reading 'length')" (found by the wire fuzzer, seed 7351 case 1058, after an earlier case
 * stored `{ constructor: { prototype: [Infinity] } }`). A racing-teams collection with
 * `{ constructor: 'Ferrari' }` is all it takes.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers } from '../helpers.js';

describe.each(drivers)('a field named constructor in group keys ($name)', (driver) => {
  const t = connect(driver, 'constructor_field');
  const rows: Record<string, unknown>[] = [
    { _id: 1, team: { constructor: 'Ferrari' }, points: 10 },
    { _id: 2, team: { constructor: 'Ferrari' }, points: 5 },
    { _id: 3, team: { constructor: { prototype: [1] } }, points: 1 },
    { _id: 4, constructor: 'McLaren', points: 7 },
  ];

  it('groups, counts and buckets by documents holding it', async () => {
    expect(
      await aggregateOn(t.db, rows, [
        { $group: { _id: '$team', points: { $sum: '$points' } } },
        { $sort: { points: -1 } },
      ]),
    ).toEqual([
      { _id: { constructor: 'Ferrari' }, points: 15 },
      { _id: null, points: 7 },
      { _id: { constructor: { prototype: [1] } }, points: 1 },
    ]);
    expect(await aggregateOn(t.db, rows, [{ $sortByCount: '$team' }, { $limit: 1 }])).toEqual([
      { _id: { constructor: 'Ferrari' }, count: 2 },
    ]);
    const byRoot = await aggregateOn(t.db, rows, [{ $group: { _id: '$$ROOT' } }, { $count: 'n' }]);
    expect(byRoot).toEqual([{ n: 4 }]);
    expect(
      await aggregateOn(t.db, rows, [
        {
          $bucket: { groupBy: '$points', boundaries: [0, 6, 100], output: { teams: { $push: '$team' } } },
        },
      ]),
    ).toEqual([
      { _id: 0, teams: [{ constructor: 'Ferrari' }, { constructor: { prototype: [1] } }] },
      { _id: 6, teams: [{ constructor: 'Ferrari' }] },
    ]);
  });

  it('groups by the field itself', async () => {
    const grouped = await aggregateOn(t.db, rows, [
      { $group: { _id: '$constructor', n: { $sum: 1 } } },
      { $sort: { _id: 1 } },
    ]);
    expect(grouped).toEqual([
      { _id: null, n: 3 },
      { _id: 'McLaren', n: 1 },
    ]);
  });
});
