/**
 * When an update through an array writes, and which array elements equal a value, as MongoDB 7.0's
 * update nodes decide (src/mongo/db/update/):
 *
 * - `$set` through `a.$`, `a.$[]` and `a.$[x]` writes unless the new value is the same BSON as the
 *   element (SetNode, set_node.cpp: `binaryEqualValues`), as a plain `$set` does: a document with its
 *   fields in another order, a number of another type, or -0.0 over 0 is a change. The embedded
 *   database acknowledged these as no change (nModified 0) and kept the old element.
 * - `$inc` (arithmetic_node.cpp) writes the promoted type even when the value is equal: int 1 plus
 *   NumberLong(0) is NumberLong(1), plus -0.0 is the double 1.0.
 * - `$max`/`$min` (compare_node.cpp) write only when the value compares greater or less, so an equal
 *   number of another type leaves the stored type.
 * - `$addToSet` (addtoset_node.cpp) and `$pullAll` (pullall_node.cpp) compare elements as BSON values
 *   (`compareWithBSONElement`, woCompare): numbers of any type by value (1 equals NumberLong(1)), and
 *   documents field by field in their order ({ x: 1, y: 2 } is not { y: 2, x: 1 }), as the manual's
 *   "Comparison/Sort Order" says objects compare ("recursively compare key-value pairs in the order that
 *   they appear within the BSON object"). `$pull` (pull_node.cpp) reads a document as a query on the
 *   element's fields (ObjectMatcher, order irrelevant), and any other value, an array included, as an
 *   equality with the whole element (EqualityMatcher, woCompare again): the embedded database pulled
 *   an array holding a reordered document.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, typed } from '../helpers.js';

describe.each(drivers)('updates through arrays that change only types or field order ($name)', (driver) => {
  const t = connect(driver, 'update_positional_same');
  const { Decimal128, Double, Long } = driver.bson;

  async function stored(id: number): Promise<any> {
    return t.db.collection<any>('values').findOne({ _id: id }, { promoteValues: false });
  }

  /** nModified of `update` on document `id` (the driver's types refuse some operands MongoDB takes). */
  async function modified(id: number, update: Record<string, unknown>): Promise<number> {
    return (await t.db.collection<any>('values').updateOne({ _id: id }, update)).modifiedCount;
  }

  async function fresh(docs: any[]) {
    const coll = t.db.collection<any>('values');
    await coll.deleteMany({});
    await coll.insertMany(docs);
    return coll;
  }

  it('writes a $set through $, $[] and $[x] of a document with its fields in another order', async () => {
    const coll = await fresh([
      { _id: 1, a: [{ x: 1, y: 2 }] },
      { _id: 2, a: [{ x: 1, y: 2 }] },
      { _id: 3, a: [{ x: 1, y: 2 }, { x: 2 }] },
      { _id: 4, a: [{ b: { x: 1, y: 2 } }] },
      { _id: 5, a: [{ x: 1, y: 2 }] },
    ]);
    const reordered = { y: 2, x: 1 };
    expect((await coll.updateOne({ _id: 1, 'a.x': 1 }, { $set: { 'a.$': reordered } })).modifiedCount).toBe(
      1,
    );
    expect((await coll.updateOne({ _id: 2 }, { $set: { 'a.$[]': reordered } })).modifiedCount).toBe(1);
    const filtered = await coll.updateOne(
      { _id: 3 },
      { $set: { 'a.$[e]': reordered } },
      { arrayFilters: [{ 'e.x': 1 }] },
    );
    expect(filtered.modifiedCount).toBe(1);
    expect((await coll.updateOne({ _id: 4 }, { $set: { 'a.$[].b': reordered } })).modifiedCount).toBe(1);
    for (const id of [1, 2, 3]) expect(Object.keys((await stored(id)).a[0])).toEqual(['y', 'x']);
    expect(Object.keys((await stored(3)).a[1])).toEqual(['x']);
    expect(Object.keys((await stored(4)).a[0].b)).toEqual(['y', 'x']);
    // The same document in the same order is no change.
    expect((await coll.updateOne({ _id: 5 }, { $set: { 'a.$[]': { x: 1, y: 2 } } })).modifiedCount).toBe(0);
  });

  it('writes a $set through $[] and $[x] of an equal number of another type, or of -0.0 over 0', async () => {
    const coll = await fresh([
      { _id: 1, a: [1, 2] },
      { _id: 2, a: [1, 2] },
      { _id: 3, a: [{ b: 1 }] },
      { _id: 4, a: [0] },
      { _id: 5, a: 0 },
      { _id: 6, a: [new Double(0)] },
    ]);
    await coll.updateOne({ _id: 1 }, { $set: { 'a.$[]': Long.fromNumber(1) } });
    expect(typed((await stored(1)).a)).toEqual(['Long 1', 'Long 1']);
    const filtered = await coll.updateOne(
      { _id: 2 },
      { $set: { 'a.$[e]': new Double(1) } },
      { arrayFilters: [{ e: 1 }] },
    );
    expect(filtered.modifiedCount).toBe(1);
    expect(typed((await stored(2)).a)).toEqual(['Double 1', 'Int32 2']);
    await coll.updateOne({ _id: 3 }, { $set: { 'a.$[].b': Decimal128.fromString('1') } });
    expect(typed((await stored(3)).a[0].b)).toBe('Decimal128 1');
    expect((await coll.updateOne({ _id: 4 }, { $set: { 'a.$[]': -0 } })).modifiedCount).toBe(1);
    expect((await coll.updateOne({ _id: 5 }, { $set: { a: -0 } })).modifiedCount).toBe(1);
    for (const value of [(await stored(4)).a[0], (await stored(5)).a]) {
      expect(value._bsontype).toBe('Double');
      expect(Object.is(value.value, -0)).toBe(true);
    }
    // The same double 0 is no change.
    expect((await coll.updateOne({ _id: 6 }, { $set: { 'a.$[]': new Double(0) } })).modifiedCount).toBe(0);
  });

  it('writes the promoted type of $inc and $mul through arrays, and keeps the type on an equal $max/$min', async () => {
    const coll = await fresh([
      { _id: 1, a: [1], b: 1 },
      { _id: 2, a: [new Double(0)] },
      { _id: 3, a: [1], b: 1 },
    ]);
    expect(
      (await coll.updateOne({ _id: 1 }, { $inc: { 'a.$[]': Long.fromNumber(0), b: -0 } })).modifiedCount,
    ).toBe(1);
    expect(typed((await stored(1)).a)).toEqual(['Long 1']);
    expect(typed((await stored(1)).b)).toBe('Double 1');
    expect((await coll.updateOne({ _id: 2 }, { $mul: { 'a.$[]': -1 } })).modifiedCount).toBe(1);
    expect(Object.is((await stored(2)).a[0].value, -0)).toBe(true);
    const equal = await coll.updateOne(
      { _id: 3 },
      { $max: { 'a.$[]': Long.fromNumber(1) }, $min: { b: new Double(1) } },
    );
    expect(equal.modifiedCount).toBe(0);
    expect(typed((await stored(3)).a)).toEqual(['Int32 1']);
  });

  it('compares array elements as BSON values in $addToSet, $pullAll and an array $pull, as queries in a document $pull', async () => {
    const coll = await fresh([
      { _id: 1, a: [{ x: 1, y: 2 }, 1] },
      { _id: 2, a: [{ x: 1, y: 2 }, 1] },
      { _id: 3, a: [{ x: 1, y: 2 }, 3] },
      { _id: 4, a: [[{ x: 1, y: 2 }], [1], 3] },
    ]);
    await coll.updateOne({ _id: 1 }, { $addToSet: { a: { $each: [{ y: 2, x: 1 }, Long.fromNumber(1)] } } });
    expect(
      (await stored(1)).a.map((v: any) =>
        typeof v === 'object' && !v._bsontype ? Object.keys(v) : typed(v),
      ),
    ).toEqual([['x', 'y'], 'Int32 1', ['y', 'x']]);
    expect(await modified(2, { $pullAll: { a: [{ y: 2, x: 1 }] } })).toBe(0);
    expect(await modified(2, { $pullAll: { a: [Long.fromNumber(1)] } })).toBe(1);
    expect((await stored(2)).a).toHaveLength(1);
    expect(await modified(3, { $pull: { a: { y: 2, x: 1 } } })).toBe(1);
    expect(typed((await stored(3)).a)).toEqual(['Int32 3']);
    expect(await modified(4, { $pull: { a: [{ y: 2, x: 1 }] } })).toBe(0);
    expect(await modified(4, { $pull: { a: [Long.fromNumber(1)] } })).toBe(1);
    expect((await stored(4)).a).toHaveLength(2);
  });
});
