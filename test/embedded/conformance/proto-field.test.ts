/**
 * A field named `__proto__` is an ordinary field to MongoDB: the driver sends it (BSON.serialize writes
 * every own key) and MongoDB stores and returns it. The embedded database acknowledged such an insert
 * and dropped the field, because copying the document by assignment set the copy's prototype instead;
 * then it refused every path through it ("Accessing __proto__ is not allowed"), and a filter naming it
 * alone matched every document. (MongoDB manual, "Field Names": only `$`-prefixed, dotted and
 * NUL-containing names are restricted; "Dot Notation": a path is field names joined by dots.)
 */
import { describe, expect, it } from 'vitest';
import { acrossRestarts, connect, drivers, external } from '../helpers.js';

/** A document from JSON, so that `__proto__` is an own field (an object literal would set the prototype). */
const json = <T = Record<string, unknown>>(text: string): T => JSON.parse(text) as T;

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

  it('is matched, updated, projected, sorted, grouped and computed by paths through it', async () => {
    const coll = state.db.collection<{ _id: number; b?: number }>('paths');
    await coll.insertMany([
      json('{ "_id": 1, "__proto__": { "a": 1 }, "x": { "__proto__": { "y": 2 } } }'),
      { _id: 2, b: 1 },
      json('{ "_id": 3, "__proto__": 5 }'),
    ]);
    const ids = async (filter: object) => (await coll.find(filter).toArray()).map((d) => d._id);
    expect(await ids({ '__proto__.a': 1 })).toEqual([1]);
    expect(await ids({ 'x.__proto__.y': 2 })).toEqual([1]);
    expect(await ids(json('{ "__proto__": 5 }'))).toEqual([3]);
    expect(await ids(json('{ "__proto__": { "$exists": true } }'))).toEqual([1, 3]);
    // Object.prototype's own names are not fields of any document.
    expect(await ids({ '__proto__.toString': { $exists: true } })).toEqual([]);
    expect(await ids({ $expr: { $eq: ['$__proto__.a', 1] } })).toEqual([1]);
    expect(await coll.find({}, { projection: { '__proto__.a': 1 } }).toArray()).toEqual([
      json('{ "_id": 1, "__proto__": { "a": 1 } }'),
      { _id: 2 },
      { _id: 3 },
    ]);
    expect((await coll.find().sort({ '__proto__.a': -1, _id: 1 }).toArray()).map((d) => d._id)).toEqual([
      1, 2, 3,
    ]);
    expect(await coll.distinct('__proto__.a')).toEqual([1]);
    expect(await coll.createIndex({ '__proto__.a': 1 })).toBe('__proto__.a_1');
    expect((await coll.find({ '__proto__.a': 1 }).hint('__proto__.a_1').toArray()).map((d) => d._id)).toEqual(
      [1],
    );
    const computed = await coll
      .aggregate([
        { $project: { v: '$__proto__.a', g: { $getField: '__proto__' } } },
        { $group: { _id: '$v', ids: { $push: '$_id' } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(computed).toEqual([
      { _id: null, ids: [2, 3] },
      { _id: 1, ids: [1] },
    ]);
    const fields = await coll.aggregate([{ $project: { g: { $getField: '__proto__' } } }]).toArray();
    expect(fields).toEqual([{ _id: 1, g: { a: 1 } }, { _id: 2 }, { _id: 3, g: 5 }]);

    await coll.updateOne({ _id: 2 }, { $set: { '__proto__.a': 7 } });
    await coll.updateOne({ _id: 1 }, { $inc: { '__proto__.a': 1 }, $unset: { 'x.__proto__': '' } });
    await coll.updateOne({ _id: 2 }, { $rename: { b: '__proto__.b' } });
    expect(JSON.stringify(await coll.find().toArray())).toBe(
      '[{"_id":1,"__proto__":{"a":2},"x":{}},{"_id":2,"__proto__":{"a":7,"b":1}},{"_id":3,"__proto__":5}]',
    );
    // A delete by the name alone removes only the documents that have it with that value.
    await coll.deleteMany(json('{ "__proto__": 5 }'));
    expect(await coll.countDocuments()).toBe(2);
  });

  it('is the name __proto__ to the expressions that turn names into strings and back', async () => {
    // $objectToArray's k is each field's name; $getField, $setField and $unsetField read their constant
    // `field` ({ $literal: … }) as one field's name (manual pages of these operators).
    const coll = state.db.collection<{ _id: number }>('names');
    await coll.insertOne(json('{ "_id": 1, "__proto__": { "a": 1 }, "b": 2 }'));
    const proto = { $literal: '__proto__' };
    const [row] = await coll
      .aggregate([
        {
          $project: {
            _id: 0,
            keys: {
              $map: { input: { $objectToArray: '$$ROOT' }, in: ['$$this.k', { $strLenCP: '$$this.k' }] },
            },
            named: {
              $filter: { input: { $objectToArray: '$$ROOT' }, cond: { $eq: ['$$this.k', '__proto__'] } },
            },
            got: { $getField: { field: proto, input: '$$ROOT' } },
            set: { $setField: { field: proto, input: { b: 1 }, value: 3 } },
            unset: { $unsetField: { field: proto, input: '$$ROOT' } },
            built: {
              $map: {
                input: { $objectToArray: { $arrayToObject: [[[{ $concat: ['__pro', 'to__'] }, 4]]] } },
                in: { $strLenCP: '$$this.k' },
              },
            },
          },
        },
      ])
      .toArray();
    expect(JSON.stringify(row)).toBe(
      JSON.stringify({
        keys: [
          ['_id', 3],
          ['__proto__', 9],
          ['b', 1],
        ],
        named: [{ k: '__proto__', v: { a: 1 } }],
        got: { a: 1 },
        set: json('{ "b": 1, "__proto__": 3 }'),
        unset: { _id: 1, b: 2 },
        built: [9],
      }),
    );
    // The names stored as strings by $out are the string '__proto__' that a filter names.
    await coll
      .aggregate([{ $project: { pairs: { $objectToArray: '$$ROOT' } } }, { $out: 'names_out' }])
      .toArray();
    expect(await state.db.collection('names_out').countDocuments({ 'pairs.k': '__proto__' })).toBe(1);
  });

  it('counts 9 bytes in the 16 MiB limit of a stored document', async () => {
    // MongoDB measures the document's BSON size (manual, "MongoDB Limits": "The maximum BSON document
    // size is 16 mebibytes"); the name __proto__ takes 9 bytes there, as any 9-character name.
    const coll = state.db.collection<{ _id: number }>('size');
    await coll.deleteMany({});
    const exact = (id: number): Record<string, unknown> => {
      const doc = json(`{ "_id": ${id}, "__proto__": 1, "s": "" }`);
      doc['s'] = 'x'.repeat(16 * 1024 * 1024 - driver.bson.BSON.calculateObjectSize(doc));
      return doc;
    };
    const inserted = exact(1);
    expect(driver.bson.BSON.calculateObjectSize(inserted)).toBe(16 * 1024 * 1024);
    await coll.insertOne(inserted as { _id: number });
    await coll.insertOne(json('{ "_id": 2, "__proto__": 1, "s": "" }'));
    await coll.updateOne({ _id: 2 }, { $set: { s: exact(2)['s'] } });
    const sizes = await coll.aggregate([{ $project: { n: { $strLenBytes: '$s' } } }]).toArray();
    expect(sizes.map((d) => d['n'])).toEqual([
      (inserted['s'] as string).length,
      (inserted['s'] as string).length,
    ]);
    await expect(coll.updateOne({ _id: 2 }, { $set: { t: 1 } })).rejects.toMatchObject({ code: 17419 });
  });

  it('leaves a string value "__proto__" as it is, also under option-like names', async () => {
    const coll = state.db.collection<{ _id: number; key?: string; field?: string; as?: string }>('values');
    await coll.insertOne({ _id: 1, key: '__proto__', field: '__proto__', as: 'x.__proto__' });
    const found = await coll
      .find({ key: { $regex: '^__proto__$' }, field: '__proto__', as: { $regex: '^x\\.__proto__$' } })
      .toArray();
    expect(found).toEqual([{ _id: 1, key: '__proto__', field: '__proto__', as: 'x.__proto__' }]);
    expect(await coll.distinct('key')).toEqual(['__proto__']);
  });

  it("keeps a string value '$__proto__' as written, and reads it as a path only in expressions", async () => {
    // A string in a document is data (manual, "BSON Types"): its length, order and regex matches are
    // those of the text sent. In an expression a "$"-prefixed string is a field path (manual,
    // "Expressions": "$<field>"), and { $literal: … } is the text again. The embedded database held
    // the stored text under its internal name for __proto__ (11 code points, sorted after "$_a").
    const coll = state.db.collection<{ _id: number; s?: string }>('dollar_values');
    await coll.insertMany([
      json('{ "_id": 1, "s": "$__proto__", "__proto__": 5, "a": { "__proto__": 6 } }'),
      { _id: 2, s: '$_a' },
    ]);
    await coll.updateOne({ _id: 2 }, { $set: { u: '$a.__proto__' }, $push: { l: '$__proto__' } });
    await coll.updateOne({ _id: 1 }, [{ $set: { u: { $literal: '$a.__proto__' } } }]);
    const rows = await coll
      .aggregate([
        { $sort: { _id: 1 } },
        {
          $project: {
            lengths: {
              $map: {
                input: ['$s', '$u', { $first: { $ifNull: ['$l', ['']] } }],
                in: { $strLenCP: { $ifNull: ['$$this', ''] } },
              },
            },
            built: { $eq: ['$s', { $concat: [{ $literal: '$' }, '__proto__'] }] },
            literal: { $eq: ['$s', { $literal: '$__proto__' }] },
            path: '$__proto__',
            nested: '$a.__proto__',
          },
        },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: 1, lengths: [10, 12, 0], built: true, literal: true, path: 5, nested: 6 },
      { _id: 2, lengths: [3, 12, 10], built: false, literal: false },
    ]);
    const ids = async (filter: object, sort: object = { _id: 1 }) =>
      (
        await coll
          .find(filter)
          .sort(sort as never)
          .toArray()
      ).map((d) => d._id);
    expect(await ids({}, { s: 1 })).toEqual([1, 2]); // '_' (0x5F) before 'a'
    expect(await ids({ s: /^\$__proto__$/ })).toEqual([1]);
    expect(await ids({ s: '$__proto__' })).toEqual([1]);
    expect(await ids({ u: '$a.__proto__', l: '$__proto__' })).toEqual([2]);
    expect(await ids({ $expr: { $eq: ['$__proto__', 5] } })).toEqual([1]);
    // The update created l and u, in name order (MongoDB 5.0+ applies an update's paths sorted).
    expect(JSON.stringify(await coll.find({ _id: 2 }).toArray())).toBe(
      '[{"_id":2,"s":"$_a","l":["$__proto__"],"u":"$a.__proto__"}]',
    );
  });
});

describe.skipIf(external)('a field named __proto__ in the data files', () => {
  it('is read back after a restart and still found by its paths', async () => {
    await acrossRestarts('proto', 2, async (db, round) => {
      const coll = db.collection<{ _id: number }>('p');
      if (round === 1) await coll.insertOne(json('{ "_id": 1, "__proto__": { "a": 1 }, "s": "$__proto__" }'));
      else {
        expect(JSON.stringify(await coll.find({ '__proto__.a': 1 }).toArray())).toBe(
          '[{"_id":1,"__proto__":{"a":1},"s":"$__proto__"}]',
        );
        // A stored string is read back as the text it was, not as a path.
        expect(await coll.countDocuments({ s: /^\$__proto__$/ })).toBe(1);
      }
    });
  });
});
