/**
 * A hashed index holds one key per document and cannot hash an array. MongoDB 7.0's
 * ExpressionKeysPrivate::getHashKeys (src/mongo/db/index/expression_keys_private.cpp) reads each path
 * of the key pattern, hashed or not, down through embedded documents and stops at the first array
 * (dotted_path_support's extractElementAtPathOrArrayAlongPath); any array it stops at is uassert 16766
 * "Error: hashed indexes do not currently support array values. Found array at path: <path up to the
 * array>". A path that reaches nothing is hashed as null.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Row = { _id: number; [field: string]: unknown };

const refusal = (path: string) =>
  new RegExp(
    `^Error: hashed indexes do not currently support array values\\. Found array at path: ${path.replace('.', '\\.')}$`,
  );

describe.each(drivers)('hashed indexes and arrays ($name)', (driver) => {
  const t = connect(driver, 'hashed_arrays');

  /** A fresh collection `name` with an index on `key`. */
  async function indexedOn(name: string, key: Record<string, 1 | 'hashed'>) {
    const coll = t.db.collection<Row>(name);
    await coll.drop().catch(() => undefined);
    await coll.createIndex(key);
    return coll;
  }

  it('refuses a document with an array at or along a hashed path, and keeps the others', async () => {
    const coll = await indexedOn('single', { 'a.b': 'hashed' });
    const refused: [Row, string][] = [
      [{ _id: 1, a: { b: [1] } }, 'a.b'],
      [{ _id: 2, a: { b: [] } }, 'a.b'],
      // The array along the path is named, not the whole path.
      [{ _id: 3, a: [{ b: 1 }] }, 'a'],
      [{ _id: 4, a: [] }, 'a'],
    ];
    for (const [doc, path] of refused) {
      const error = await failure(() => coll.insertOne(doc));
      expect(error).toMatchObject({ code: 16766 });
      expect(error['message']).toMatch(refusal(path));
    }
    // A document, a scalar where the path goes on, and a missing path are hashed (the last two as null).
    await coll.insertMany([{ _id: 5, a: { b: { c: [1] } } }, { _id: 6, a: 1 }, { _id: 7 }]);
    expect(await coll.find({}, { projection: { _id: 1 } }).toArray()).toEqual([
      { _id: 5 },
      { _id: 6 },
      { _id: 7 },
    ]);
    // An update that would make the path an array is refused too, and the document stays as it was.
    expect(await failure(() => coll.updateOne({ _id: 6 }, { $set: { a: { b: [2] } } }))).toMatchObject({
      code: 16766,
    });
    expect(await coll.findOne({ _id: 6 })).toEqual({ _id: 6, a: 1 });
  });

  it("refuses an array on a numeric path: 'a.0' stops at the array a", async () => {
    const coll = await indexedOn('numeric', { 'a.0': 'hashed' });
    const error = await failure(() => coll.insertOne({ _id: 1, a: [1] }));
    expect(error['message']).toMatch(refusal('a'));
    await coll.insertOne({ _id: 2, a: { 0: 1 } });
  });

  it('refuses an array on the non-hashed fields of a compound hashed index too', async () => {
    const coll = await indexedOn('compound', { a: 'hashed', b: 1 });
    const error = await failure(() => coll.insertOne({ _id: 1, a: 1, b: [1, 2] }));
    expect(error).toMatchObject({ code: 16766 });
    expect(error['message']).toMatch(refusal('b'));
    await coll.insertOne({ _id: 2, a: 1, b: 2 });
    expect(await coll.find({ a: 1, b: 2 }).hint('a_hashed_b_1').toArray()).toEqual([{ _id: 2, a: 1, b: 2 }]);
  });

  it('refuses a unique hashed index and two hashed fields', async () => {
    // hash_access_method.cpp (16764: two values may share a hash) and index_key_validate.cpp (31303).
    const coll = t.db.collection<Row>('specs');
    const unique = await failure(() => coll.createIndex({ a: 'hashed' }, { unique: true }));
    expect(unique).toMatchObject({
      code: 16764,
      message: 'Currently hashed indexes cannot guarantee uniqueness. Use a regular index.',
    });
    const two = await failure(() => coll.createIndex({ a: 'hashed', b: 'hashed' }));
    expect(two).toMatchObject({
      code: 31303,
      message: `A maximum of one index field is allowed to be hashed but found 2 for 'key' { a: "hashed", b: "hashed" }`,
    });
    expect((await coll.indexes().catch(() => [])).map((index) => index.name)).not.toContain('a_hashed');
  });

  it('fails to build a hashed index over a document holding an array, and leaves no index', async () => {
    const coll = t.db.collection<Row>('build');
    await coll.drop().catch(() => undefined);
    await coll.insertMany([
      { _id: 1, a: 1 },
      { _id: 2, a: [1, 2] },
    ]);
    const error = await failure(() => coll.createIndex({ a: 'hashed' }));
    expect(error).toMatchObject({ code: 16766 });
    expect(error['message']).toMatch(/Found array at path: a$/);
    expect((await coll.indexes()).map((index) => index.name)).toEqual(['_id_']);
  });
});
