/**
 * When an update writes. MongoDB 7.0 skips a write only when the new value is the same BSON as the
 * stored one: SetNode and ArithmeticNode compare with `binaryEqualValues` (src/mongo/db/update/
 * set_node.cpp, arithmetic_node.cpp), which compares the type and the bytes, so the field order of an
 * embedded document counts, and a replacement is a no-op only when `binaryEqual` to the stored document
 * (object_replace_executor.cpp). The manual's `nModified` ("the number of documents updated; if the
 * update operation results in no change to the document, nModified can be less than n") counts them.
 * The embedded database compared values as equal numbers and equal fields, so each of these updates was
 * acknowledged, reported as no change, and lost.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('updates that change only types or field order ($name)', (driver) => {
  const t = connect(driver, 'update_same_value');
  const { Decimal128, Double, Long } = driver.bson;

  async function stored(id: number): Promise<any> {
    return t.db.collection<any>('values').findOne({ _id: id }, { promoteValues: false });
  }

  it('writes a $set of an equal number of another type, or of -0.0 over 0.0', async () => {
    const coll = t.db.collection<any>('values');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, a: 1 },
      { _id: 2, a: 1 },
      { _id: 3, a: 1 },
      { _id: 4, a: new Double(0) },
      { _id: 5, a: new Double(0) },
    ]);
    expect((await coll.updateOne({ _id: 1 }, { $set: { a: Long.fromNumber(1) } })).modifiedCount).toBe(1);
    expect((await stored(1)).a._bsontype).toBe('Long');
    expect((await coll.updateOne({ _id: 2 }, { $set: { a: new Double(1) } })).modifiedCount).toBe(1);
    expect((await stored(2)).a._bsontype).toBe('Double');
    expect(
      (await coll.updateOne({ _id: 3 }, { $set: { a: Decimal128.fromString('1') } })).modifiedCount,
    ).toBe(1);
    expect((await stored(3)).a._bsontype).toBe('Decimal128');
    expect((await coll.updateOne({ _id: 4 }, { $mul: { a: -1 } })).modifiedCount).toBe(1);
    expect(Object.is((await stored(4)).a.value, -0)).toBe(true);
    // The same value of the same type is no change.
    expect((await coll.updateOne({ _id: 5 }, { $set: { a: new Double(0) } })).modifiedCount).toBe(0);
  });

  it('writes a document whose fields come in another order, at any depth', async () => {
    const coll = t.db.collection<any>('values');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, a: { x: 1, y: 2 }, b: 1 },
      { _id: 2, a: { o: { x: 1, y: 2 } } },
      { _id: 3, a: [{ x: 1, y: 2 }] },
      { _id: 4, a: { x: 1, y: 2 } },
    ]);
    expect((await coll.updateOne({ _id: 1 }, { $set: { a: { y: 2, x: 1 } } })).modifiedCount).toBe(1);
    expect(Object.keys((await stored(1)).a)).toEqual(['y', 'x']);
    expect(Object.keys(await stored(1))).toEqual(['_id', 'a', 'b']);
    expect((await coll.updateOne({ _id: 2 }, { $set: { 'a.o': { y: 2, x: 1 } } })).modifiedCount).toBe(1);
    expect(Object.keys((await stored(2)).a.o)).toEqual(['y', 'x']);
    expect((await coll.updateOne({ _id: 3 }, { $set: { a: [{ y: 2, x: 1 }] } })).modifiedCount).toBe(1);
    expect(Object.keys((await stored(3)).a[0])).toEqual(['y', 'x']);
    expect((await coll.updateOne({ _id: 4 }, { $set: { a: { x: 1, y: 2 } } })).modifiedCount).toBe(0);
  });

  it('writes a replacement that differs only in types or field order', async () => {
    const coll = t.db.collection<any>('values');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, a: 1, b: 2 },
      { _id: 2, a: 1, b: 2 },
      { _id: 3, a: 1, b: 2 },
    ]);
    expect((await coll.replaceOne({ _id: 1 }, { a: new Double(1), b: 2 })).modifiedCount).toBe(1);
    expect((await stored(1)).a._bsontype).toBe('Double');
    expect((await coll.replaceOne({ _id: 2 }, { b: 2, a: 1 })).modifiedCount).toBe(1);
    expect(Object.keys(await stored(2))).toEqual(['_id', 'b', 'a']);
    expect((await coll.replaceOne({ _id: 3 }, { a: 1, b: 2 })).modifiedCount).toBe(0);
  });
});
