/**
 * The keys an index holds, seen through unique indexes: which documents MongoDB 7.0 refuses as
 * duplicates (E11000, code 11000), which it accepts, and which it cannot index at all. Every expectation
 * follows BtreeKeyGenerator (src/mongo/db/index/btree_key_generator.cpp): a key path stops at the first
 * array and expands it element by element; a numeric part right after an array is the element at that
 * position (`positionallyIndexedElt`), kept whole when it is an array and the path ends there
 * (`mayExpandArrayUnembedded`); an empty array is undefined at the end of a path, a missing value null;
 * paths through two different arrays are 171, and an array element that is a document with the
 * positional field is 16746.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Row = { _id: number; [field: string]: unknown };

describe.each(drivers)('index keys on paths with numeric parts ($name)', (driver) => {
  const t = connect(driver, 'index_keys');

  /** A fresh collection `name` with a unique index on `key`. */
  async function uniqueOn(name: string, key: Record<string, 1>) {
    const coll = t.db.collection<Row>(name);
    await coll.drop().catch(() => undefined);
    await coll.createIndex(key, { unique: true });
    return coll;
  }

  /** Inserts each document in turn: 'ok', or the error code it fails with. */
  async function outcomes(name: string, key: Record<string, 1>, docs: Row[]): Promise<(string | number)[]> {
    const coll = await uniqueOn(name, key);
    const out: (string | number)[] = [];
    for (const doc of docs) {
      try {
        await coll.insertOne(doc);
        out.push('ok');
      } catch (error) {
        out.push((error as { code: number }).code);
      }
    }
    return out;
  }

  it('\'a.0\' is the element at position 0, the field "0" of a document, or null', async () => {
    expect(
      await outcomes('a0', { 'a.0': 1 }, [
        { _id: 1, a: [1] },
        // Key 1 again: the field "0" of a document.
        { _id: 2, a: { 0: 1 } },
        // The element at position 0 is an array and the path ends: key [1], whole.
        { _id: 3, a: [[1]] },
        { _id: 4, a: [[1], 5] },
        // The element is 2, not 1.
        { _id: 5, a: [2, 1] },
        // A scalar with path left: null.
        { _id: 6, a: 1 },
        // Missing: null again.
        { _id: 7 },
        // An empty array has no element 0: null again.
        { _id: 8, a: [] },
        // The element at position 0 is an empty array: undefined, not null.
        { _id: 9, a: [[]] },
        { _id: 10, a: [[], 3] },
      ]),
    ).toEqual(['ok', 11000, 'ok', 11000, 'ok', 'ok', 11000, 11000, 'ok', 11000]);
  });

  it("'a.0.b' reads the rest of the path in the element at position 0", async () => {
    expect(
      await outcomes('a0b', { 'a.0.b': 1 }, [
        { _id: 1, a: [{ b: 1 }, { b: 2 }] },
        { _id: 2, a: { 0: { b: 1 } } },
        // Position 0 is an array: 'b' goes into its documents.
        { _id: 3, a: [[{ b: 1 }]] },
        // Position 0 has no 'b': null (the second element is not read).
        { _id: 4, a: [{ c: 1 }, { b: 3 }] },
        { _id: 5, a: [{ b: [3, 4] }] },
        { _id: 6, a: [{ b: 4 }] },
        { _id: 7, a: [{ b: [] }] },
      ]),
    ).toEqual(['ok', 11000, 11000, 'ok', 'ok', 11000, 'ok']);
  });

  it('refuses a document whose array elements hold the positional field (16746)', async () => {
    const coll = await uniqueOn('ambiguous', { 'a.0': 1 });
    const error = await failure(() => coll.insertOne({ _id: 1, a: [5, { 0: 7 }] }));
    expect(error).toMatchObject({ code: 16746 });
    expect(error['message']).toBe(
      'Ambiguous field name found in array (do not use numeric field names in embedded elements in an ' +
        "array), field: '0' for array: { 0: 5, 1: { 0: 7 } }",
    );
    // No element at position 3: the documents' field "3" is read instead.
    const other = await uniqueOn('ambiguous3', { 'a.3': 1 });
    await other.insertOne({ _id: 1, a: [{ 3: 7 }] });
    expect((await failure(() => other.insertOne({ _id: 2, a: { 3: 7 } })))['code']).toBe(11000);
    expect(await coll.countDocuments()).toBe(0);
  });

  it('a nested array is not entered by a field name: null', async () => {
    expect(
      await outcomes('nested', { 'a.b': 1 }, [
        { _id: 1, a: [[{ b: 1 }]] },
        { _id: 2, a: [{ b: 1 }] },
        { _id: 3 },
      ]),
    ).toEqual(['ok', 'ok', 11000]);
  });

  it('a compound key pairs the values of one array element by element; two arrays are 171', async () => {
    expect(
      await outcomes('pairs', { 'a.b': 1, 'a.c': 1 }, [
        {
          _id: 1,
          a: [
            { b: 1, c: 2 },
            { b: 3, c: 4 },
          ],
        },
        // (1, 4) is no key of _id 1.
        { _id: 2, a: [{ b: 1, c: 4 }] },
        { _id: 3, a: { b: 3, c: 4 } },
      ]),
    ).toEqual(['ok', 'ok', 11000]);
    const coll = await uniqueOn('parallel', { a: 1, b: 1 });
    const error = await failure(() => coll.insertOne({ _id: 1, a: [1, 2], b: [3, 4] }));
    expect(error).toMatchObject({ code: 171, message: 'cannot index parallel arrays [b] [a]' });
    // Two arrays, whatever their lengths (arrays are told apart by identity, not by size).
    expect((await failure(() => coll.insertOne({ _id: 2, a: [1], b: [] })))['code']).toBe(171);
    await coll.insertOne({ _id: 3, a: [1, 2], b: 3 });
  });

  it('a sparse index leaves out the keys whose paths reach nothing, not an empty array', async () => {
    // `_isSparse && numNotFound == fieldNames->size()`: the element { c: 2 } gives no key, so neither
    // document has a null key; an empty array is undefined, which is something.
    const sparse = async (name: string, key: Record<string, 1>, docs: Row[]) => {
      const coll = t.db.collection<Row>(name);
      await coll.drop().catch(() => undefined);
      await coll.createIndex(key, { unique: true, sparse: true });
      const out: (string | number)[] = [];
      for (const doc of docs)
        out.push(
          await coll.insertOne(doc).then(
            () => 'ok',
            (e: { code: number }) => e.code,
          ),
        );
      return out;
    };
    expect(
      await sparse('sparse_ab', { 'a.b': 1 }, [
        { _id: 1, a: [{ b: 1 }, { c: 2 }] },
        { _id: 2, a: [{ b: 2 }, { c: 3 }] },
        { _id: 3, a: [{ b: 2 }] },
      ]),
    ).toEqual(['ok', 'ok', 11000]);
    expect(
      await sparse('sparse_a', { a: 1 }, [{ _id: 1, a: [] }, { _id: 2 }, { _id: 3 }, { _id: 4, a: [] }]),
    ).toEqual(['ok', 'ok', 'ok', 11000]);
    // The duplicate key is BSON undefined, which the message prints as such.
    const error = await failure(() => t.db.collection<Row>('sparse_a').insertOne({ _id: 5, a: [] }));
    expect(error['message']).toMatch(/dup key: \{ a: undefined \}$/);
  });

  it("a duplicate key's keyValue holds null for a path that reaches nothing", async () => {
    // buildDupKeyErrorStatus (src/mongo/db/storage/index_entry_comparison.cpp) names each part of
    // the key by its key pattern field: a missing path is null in the key (btree_key_generator.cpp),
    // so null in keyValue, in a sparse compound index too. An empty array's key part is BSON undefined, which MongoDB sends as such; the embedded
    // server's encoder (js-bson) cannot write BSON undefined, so that field is left out of keyValue
    // while the message names it `undefined`, as MongoDB's does.
    const coll = t.db.collection<Row>('key_value');
    await coll.drop().catch(() => undefined);
    await coll.createIndex({ a: 1, b: 1 }, { unique: true, sparse: true });
    await coll.insertOne({ _id: 1, a: 1 });
    const missing = await failure(() => coll.insertOne({ _id: 2, a: 1 }));
    expect(missing).toMatchObject({ code: 11000, keyValue: { a: 1, b: null } });
    expect(missing['message']).toMatch(/dup key: \{ a: 1, b: null \}$/);
    await coll.insertOne({ _id: 3, a: 2, b: [] });
    const empty = await failure(() => coll.insertOne({ _id: 4, a: 2, b: [] }));
    expect(empty['message']).toMatch(/dup key: \{ a: 2, b: undefined \}$/);
    expect(empty['keyValue']['a']).toBe(2);
    expect(empty['keyValue']['b']).toBeUndefined();
  });

  it('finds through such indexes answer as a scan does', async () => {
    const coll = t.db.collection<Row>('finds');
    await coll.drop().catch(() => undefined);
    await coll.insertMany([
      { _id: 1, a: [1, 2] },
      { _id: 2, a: { 0: 1 } },
      { _id: 3, a: [[1, 2]] },
      {
        _id: 4,
        a: [
          { b: 1, c: 4 },
          { b: 3, c: 2 },
        ],
      },
      { _id: 5, a: [{ b: 1, c: 2 }] },
    ]);
    const ids = async (filter: Record<string, unknown>) =>
      (await coll.find(filter).toArray()).map((d) => d._id).sort((x, y) => x - y);
    const queries = [{ 'a.0': 1 }, { 'a.0': { $in: [2, 1] } }, { 'a.b': 1, 'a.c': 2 }, { 'a.0.b': 1 }];
    const scanned = await Promise.all(queries.map(ids));
    expect(scanned).toEqual([
      [1, 2],
      [1, 2],
      [4, 5],
      [4, 5],
    ]);
    await coll.createIndex({ 'a.0': 1 });
    await coll.createIndex({ 'a.b': 1, 'a.c': 1 });
    await coll.createIndex({ 'a.0.b': 1 });
    expect(await Promise.all(queries.map(ids))).toEqual(scanned);
  });
});
