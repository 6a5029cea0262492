/**
 * find's `min` (inclusive) and `max` (exclusive) bound a scan of the hinted index, in its key order
 * (manual, cursor.min(): https://www.mongodb.com/docs/manual/reference/method/cursor.min/ "the
 * inclusive lower bound for a specific index"; the counts are those of MongoDB's jstests/minmax.js).
 * MongoDB 7.0's planner (src/mongo/db/query/query_planner.cpp) refuses them without a hint (51173),
 * with fields other than the key pattern's, in its order (51174), and with a min not before the max
 * (51175). A hashed index holds hashes, so its bounds are hashes: hasher_test.cpp pins 1 to
 * 5902408780260971510, "abc" to 8478485326885698097 and 42 to -944302157085130861.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure, indexedCollection } from '../helpers.js';

type Row = { _id: number; [field: string]: unknown };

describe.each(drivers)('min and max ($name)', (driver) => {
  const t = connect(driver, 'min_max');
  const { Long } = driver.bson;

  const pairs: Row[] = [
    { _id: 1, a: 1, b: 1 },
    { _id: 2, a: 1, b: 2 },
    { _id: 3, a: 2, b: 1 },
    { _id: 4, a: 2, b: 2 },
  ];

  it('reads the keys from min up to (not including) max of the hinted index, in its order', async () => {
    const coll = await indexedCollection(t.db, 'pairs', pairs, { a: 1, b: 1 }, { a: 1, b: -1 });
    const ids = async (hint: object, min?: object, max?: object, filter: object = {}) => {
      let cursor = coll.find(filter).hint(hint);
      if (min) cursor = cursor.min(min);
      if (max) cursor = cursor.max(max);
      return (await cursor.toArray()).map((doc) => doc._id);
    };
    const up = { a: 1, b: 1 };
    expect(await ids(up, { a: 1, b: 2 }, { a: 2, b: 1 })).toEqual([2]);
    expect(await ids(up, { a: 1, b: 2 }, { a: 2, b: 1.5 })).toEqual([2, 3]);
    expect(await ids(up, { a: 1, b: 2 })).toEqual([2, 3, 4]);
    expect(await ids(up, undefined, { a: 2, b: 1.5 })).toEqual([1, 2, 3]);
    const down = { a: 1, b: -1 };
    expect(await ids(down, { a: 1, b: 2 })).toEqual([2, 1, 4, 3]);
    expect(await ids(down, { a: 2, b: 1 })).toEqual([3]);
    expect(await ids(down, undefined, { a: 1, b: 1.5 })).toEqual([2]);
    // The filter still applies to what the bounds hold.
    expect(await ids(up, { a: 1, b: 2 }, undefined, { b: 2 })).toEqual([2, 4]);
    expect(await ids({ _id: 1 }, { _id: 2 }, { _id: 4 })).toEqual([2, 3]);
  });

  it("bounds a hashed index's scan by the hashes it holds", async () => {
    const coll = await indexedCollection(
      t.db,
      'hashed',
      [
        { _id: 1, a: 'abc' },
        { _id: 2, a: 42 },
        { _id: 3, a: 1 },
      ],
      { a: 'hashed' },
    );
    const ids = async (bounds: { min?: object; max?: object }) => {
      let cursor = coll.find({}).hint({ a: 'hashed' });
      if (bounds.min) cursor = cursor.min(bounds.min);
      if (bounds.max) cursor = cursor.max(bounds.max);
      return (await cursor.toArray()).map((doc) => doc._id);
    };
    expect(await ids({ min: { a: Long.fromString('5000000000000000000') } })).toEqual([3, 1]);
    expect(await ids({ max: { a: new Long(0) } })).toEqual([2]);
    expect(
      await ids({ min: { a: new Long(0) }, max: { a: Long.fromString('8478485326885698097') } }),
    ).toEqual([3]);
  });

  it("compares string _id bounds as the _id index holds them, under the collection's collation", async () => {
    // The _id index of a collection with a default collation holds its strings under it
    // (https://jira.mongodb.org/browse/SERVER-26514: "If "collation" is not present, the _id index
    // inherits the collection default collation"), and min/max compare as the index does; a query
    // under another collation cannot use it for string bounds (51174; manual, Case-Insensitive Indexes:
    // "To use an index that specifies a collation, query and sort operations must specify the same
    // collation as the index").
    await t.db.dropCollection('fruit').catch(() => undefined);
    const coll = await t.db.createCollection<{ _id: string }>('fruit', {
      collation: { locale: 'en', strength: 2 },
    });
    await coll.insertMany([{ _id: 'apple' }, { _id: 'Banana' }, { _id: 'cherry' }, { _id: 'Date' }]);
    const ids = async (bounds: { min?: object; max?: object }) => {
      let cursor = coll.find({}).hint({ _id: 1 });
      if (bounds.min) cursor = cursor.min(bounds.min);
      if (bounds.max) cursor = cursor.max(bounds.max);
      return (await cursor.toArray()).map((doc) => doc._id);
    };
    // Binary order would be 'Banana', 'Date', 'apple', 'cherry'.
    expect(await ids({})).toEqual(['apple', 'Banana', 'cherry', 'Date']);
    expect(await ids({ min: { _id: 'b' } })).toEqual(['Banana', 'cherry', 'Date']);
    expect(await ids({ max: { _id: 'C' } })).toEqual(['apple', 'Banana']);
    expect(await ids({ min: { _id: 'BANANA' }, max: { _id: 'date' } })).toEqual(['Banana', 'cherry']);
    const simple = coll.find({}).hint({ _id: 1 }).min({ _id: 'b' }).collation({ locale: 'simple' });
    expect((await failure(() => simple.toArray()))['code']).toBe(51174);
  });

  it('refuses bounds without a hint, on other fields than the index, or with min not before max', async () => {
    const coll = await indexedCollection(t.db, 'refusals', pairs, { a: 1, b: 1 });
    const code = async (cursor: { toArray(): Promise<unknown> }) =>
      (await failure(() => cursor.toArray()))['code'];
    expect(await code(coll.find({}).min({ a: 1, b: 1 }))).toBe(51173);
    expect(await code(coll.find({}).hint({ a: 1, b: 1 }).min({ a: 1 }))).toBe(51174);
    expect(await code(coll.find({}).hint({ a: 1, b: 1 }).max({ b: 1, a: 1 }))).toBe(51174);
    expect(await code(coll.find({}).hint({ a: 1, b: 1 }).min({ a: 2, b: 1 }).max({ a: 1, b: 2 }))).toBe(
      51175,
    );
    expect(await code(coll.find({}).hint({ a: 1, b: 1 }).min({ a: 1, b: 1 }).max({ a: 1, b: 1 }))).toBe(
      51175,
    );
  });
});
