/**
 * find's `returnKey` answers, in place of each document, the key of the index the query reads it
 * through, or `{}` when it reads no index (manual, cursor.returnKey():
 * https://www.mongodb.com/docs/manual/reference/method/cursor.returnKey/ "If the query does not use an
 * index to perform the read operation, the cursor returns empty documents"). A hashed index holds the
 * hash of the value (manual, "Hashed Indexes"), so its key is that long: hasher_test.cpp
 * (mongodb/mongo src/mongo/db/hasher_test.cpp) pins 1 (and 1.987) to 5902408780260971510, "abc" to
 * 8478485326885698097 and null, which a missing field is hashed as, to 2338878944348059895.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, indexedCollection } from '../helpers.js';

/** Each value of each returned key as a string (longs past 2^53 stay exact). */
function texts(keys: Record<string, unknown>[]): Record<string, string>[] {
  return keys.map((key) => Object.fromEntries(Object.entries(key).map(([k, v]) => [k, String(v)])));
}

describe.each(drivers)('returnKey ($name)', (driver) => {
  const t = connect(driver, 'return_key');

  it('answers the key of the index the query reads, and {} for a collection scan', async () => {
    const coll = await indexedCollection(
      t.db,
      'restaurants',
      [
        { _id: 1, borough: 'Brooklyn', cuisine: 'American', name: 'Riviera' },
        { _id: 2, borough: 'Manhattan', cuisine: 'Italian', name: 'Giovanni' },
      ],
      { cuisine: 1 },
      { borough: 1, cuisine: 1 },
    );
    const keys = (filter: object, hint?: object) => {
      const cursor = coll.find(filter).sort({ _id: 1 }).returnKey(true);
      return (hint ? cursor.hint(hint) : cursor).toArray();
    };
    expect(await keys({ name: 'Riviera' })).toEqual([{}]);
    expect(await keys({}, { $natural: 1 })).toEqual([{}, {}]);
    expect(await keys({ _id: 2 })).toEqual([{ _id: 2 }]);
    expect(await keys({ cuisine: 'Italian' }, { cuisine: 1 })).toEqual([{ cuisine: 'Italian' }]);
    expect(await keys({}, { borough: 1, cuisine: 1 })).toEqual([
      { borough: 'Brooklyn', cuisine: 'American' },
      { borough: 'Manhattan', cuisine: 'Italian' },
    ]);
    // The projection is ignored (src/mongo/db/query/planner_analysis.cpp, the ReturnKeyNode).
    expect(
      await coll
        .find({ cuisine: 'Italian' }, { projection: { cuisine: 0 } })
        .hint({ cuisine: 1 })
        .returnKey(true)
        .toArray(),
    ).toEqual([{ cuisine: 'Italian' }]);
  });

  it('answers the hash a hashed index holds, and hashes only the hashed field of a compound one', async () => {
    const coll = await indexedCollection(
      t.db,
      'hashed',
      [{ _id: 1, a: 1, b: 'abc' }, { _id: 2, a: 1.987, b: 'abc' }, { _id: 3, a: 'abc' }, { _id: 4 }],
      { a: 'hashed' },
      { b: 1, a: 'hashed' },
    );
    const keys = async (hint: object) =>
      texts(await coll.find({}).sort({ _id: 1 }).hint(hint).returnKey(true).toArray());
    expect(await keys({ a: 'hashed' })).toEqual([
      { a: '5902408780260971510' },
      { a: '5902408780260971510' },
      { a: '8478485326885698097' },
      { a: '2338878944348059895' },
    ]);
    expect(await keys({ b: 1, a: 'hashed' })).toEqual([
      { b: 'abc', a: '5902408780260971510' },
      { b: 'abc', a: '5902408780260971510' },
      { b: 'null', a: '8478485326885698097' },
      { b: 'null', a: '2338878944348059895' },
    ]);
    // An equality read through the hashed index answers its key too.
    expect(texts(await coll.find({ a: 1 }).returnKey(true).toArray())).toEqual([
      { a: '5902408780260971510' },
    ]);
  });

  it("answers a multikey document's first key in index order among those its equalities select", async () => {
    const coll = await indexedCollection(
      t.db,
      'tags',
      [{ _id: 1, tags: [3, 1, 2] }],
      { tags: 1 },
      { tags: -1 },
    );
    const keys = (filter: object, hint: object) => coll.find(filter).hint(hint).returnKey(true).toArray();
    expect(await keys({ tags: 2 }, { tags: 1 })).toEqual([{ tags: 2 }]);
    expect(await keys({}, { tags: 1 })).toEqual([{ tags: 1 }]);
    expect(await keys({}, { tags: -1 })).toEqual([{ tags: 3 }]);
  });

  it('answers the first key the scan meets within its bounds, in the direction it reads', async () => {
    // The index scan deduplicates a multikey document by record id and keeps its first entry
    // (src/mongo/db/exec/index_scan.cpp), and return_key.cpp answers that entry's key.
    const coll = await indexedCollection(
      t.db,
      'bounded',
      [{ _id: 1, tags: [3, 1, 2] }],
      { tags: 1 },
      { tags: -1 },
    );
    const keys = (filter: object, hint: object, sort?: Record<string, 1 | -1>) => {
      const cursor = coll.find(filter).hint(hint).returnKey(true);
      return (sort ? cursor.sort(sort) : cursor).toArray();
    };
    // Ranges: bounds (1, MaxKey] meet 2 first going up; [2, MinKey] meet 2 first going down.
    expect(await keys({ tags: { $gt: 1 } }, { tags: 1 })).toEqual([{ tags: 2 }]);
    expect(await keys({ tags: { $lte: 2 } }, { tags: -1 })).toEqual([{ tags: 2 }]);
    expect(await keys({ tags: { $in: [3, 2] } }, { tags: -1 })).toEqual([{ tags: 3 }]);
    expect(await keys({ tags: { $in: [3, 1] } }, { tags: 1 })).toEqual([{ tags: 1 }]);
    // min/max bound the scan: [2, MaxKey] meets 2 first.
    expect(await coll.find({}).hint({ tags: 1 }).min({ tags: 2 }).returnKey(true).toArray()).toEqual([
      { tags: 2 },
    ]);
    // A multikey index provides a sort on its field only over [MinKey, MaxKey] (query_solution.cpp,
    // confirmBoundsProvideSortComponentGivenMultikeyness): the scan then reads backwards for a
    // reversed sort and meets 3 first; with other bounds a sort stage follows a forward scan.
    expect(await keys({}, { tags: 1 }, { tags: -1 })).toEqual([{ tags: 3 }]);
    expect(await keys({}, { tags: 1 }, { tags: 1 })).toEqual([{ tags: 1 }]);
    expect(await keys({}, { tags: 1 }, { _id: -1 })).toEqual([{ tags: 1 }]);
    expect(await keys({ tags: { $gte: 2 } }, { tags: 1 }, { tags: -1 })).toEqual([{ tags: 2 }]);
  });
});
