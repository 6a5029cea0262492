/**
 * A field named `__proto__` is an ordinary field to MongoDB: the driver sends it (BSON.serialize writes
 * every own key) and MongoDB stores and returns it. The embedded database acknowledged such an insert
 * and dropped the field, because copying the document by assignment set the copy's prototype instead.
 * (MongoDB manual, "Field Names": only `$`-prefixed, dotted and NUL-containing names are restricted.)
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('a field named __proto__ ($name)', (driver) => {
  const state = connect(driver, 'proto_field');

  it('is stored, updated around, replaced and returned as an own field', async () => {
    const coll = state.db.collection<{ _id: number }>('p');
    await coll.insertOne(JSON.parse('{ "_id": 1, "__proto__": { "p": 1 }, "b": 2 }') as { _id: number });
    await coll.updateOne({ _id: 1 }, { $set: { b: 3 } });
    const updated = await coll.findOne({ _id: 1 });
    expect(Object.keys(updated!)).toEqual(['_id', '__proto__', 'b']);
    expect(JSON.stringify(updated)).toBe('{"_id":1,"__proto__":{"p":1},"b":3}');
    expect(Object.getPrototypeOf(updated)).toBe(Object.prototype);

    await coll.replaceOne({ _id: 1 }, JSON.parse('{ "__proto__": 5, "b": 4 }') as object);
    const [replaced] = await coll.aggregate([{ $addFields: { z: 1 } }]).toArray();
    expect(JSON.stringify(replaced)).toBe('{"_id":1,"__proto__":5,"b":4,"z":1}');
  });
});
