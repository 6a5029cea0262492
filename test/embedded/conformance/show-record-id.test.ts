/**
 * find's `showRecordId` adds `$recordId`, the record's id, to each document it answers (manual,
 * cursor.showRecordId(): https://www.mongodb.com/docs/manual/reference/method/cursor.showRecordId/
 * "adding a field $recordId to matching documents. $recordId is the internal key which uniquely
 * identifies a document in a collection"). MongoDB 7.0 appends `$recordId: { $meta: 'recordId' }` to
 * the find's projection (src/mongo/db/query/query_request_helper.cpp, addShowRecordIdMetaProj), so the
 * field comes last, after an inclusion or an exclusion projection alike. A collection that is not
 * clustered numbers its records with longs, given on insert in increasing order; an update rewrites the
 * record in place (same RecordId), and a delete does not give its id to a later insert
 * (src/mongo/db/storage/wiredtiger/wiredtiger_record_store.cpp: _nextId takes each from an increasing
 * counter).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, indexedCollection } from '../helpers.js';

describe.each(drivers)('showRecordId ($name)', (driver) => {
  const t = connect(driver, 'show_record_id');
  const { Long } = driver.bson;

  /** The documents of `cursor` (read without promoting longs), each with its `$recordId` as a number. */
  async function read(cursor: { toArray(): Promise<Record<string, unknown>[]> }) {
    const docs = await cursor.toArray();
    for (const doc of docs) expect(doc['$recordId']).toBeInstanceOf(Long);
    return docs.map((doc) => ({ ...doc, $recordId: Number(doc['$recordId']) }));
  }

  it('adds $recordId, a long increasing in insertion order, as the last field', async () => {
    const coll = await indexedCollection(t.db, 'added', [
      { _id: 2, a: 1, b: 1 },
      { _id: 1, a: 2, b: 2 },
      { _id: 3, a: 3, b: 3 },
    ]);
    const docs = await read(coll.find({}, { promoteLongs: false }).showRecordId(true));
    expect(docs.map((doc) => Object.keys(doc))).toEqual([
      ['_id', 'a', 'b', '$recordId'],
      ['_id', 'a', 'b', '$recordId'],
      ['_id', 'a', 'b', '$recordId'],
    ]);
    const [first, second, third] = docs.map((doc) => doc.$recordId);
    expect(first! < second! && second! < third!).toBe(true);
    // Sorted, limited and projected documents carry it too, after the projection's fields.
    const sorted = await read(
      coll
        .find({}, { projection: { a: 1 }, promoteLongs: false })
        .sort({ _id: 1 })
        .limit(2)
        .showRecordId(true),
    );
    expect(sorted).toEqual([
      { _id: 1, a: 2, $recordId: second },
      { _id: 2, a: 1, $recordId: first },
    ]);
    const excluded = await read(
      coll.find({ _id: 3 }, { projection: { a: 0 }, promoteLongs: false }).showRecordId(true),
    );
    expect(excluded).toEqual([{ _id: 3, b: 3, $recordId: third }]);
    const withoutId = await read(
      coll.find({ _id: 3 }, { projection: { _id: 0 }, promoteLongs: false }).showRecordId(true),
    );
    expect(withoutId).toEqual([{ a: 3, b: 3, $recordId: third }]);
    // A projection may ask for the id by its metadata name, as showRecordId does (an aggregation has
    // it too in MongoDB; the embedded database answers it in a find only).
    const projected = await coll
      .find({ _id: 3 }, { projection: { a: 1, r: { $meta: 'recordId' } }, promoteLongs: false })
      .toArray();
    expect(projected).toEqual([{ _id: 3, a: 3, r: new Long(third!) }]);
    const added = await coll
      .find({ _id: 3 }, { projection: { r: { $meta: 'recordId' } }, promoteLongs: false })
      .toArray();
    expect(added).toEqual([{ _id: 3, a: 3, b: 3, r: new Long(third!) }]);
    // Without the option, no document has it.
    expect(await coll.find({ _id: 3 }).toArray()).toEqual([{ _id: 3, a: 3, b: 3 }]);
  });

  it('keeps a record id across updates and never gives a deleted one again', async () => {
    const coll = await indexedCollection(
      t.db,
      'kept',
      [
        { _id: 1, a: 1 },
        { _id: 2, a: 2 },
      ],
      { a: 1 },
    );
    const ids = async () =>
      (await read(coll.find({}, { promoteLongs: false }).sort({ _id: 1 }).showRecordId(true))).map(
        (doc) => doc.$recordId,
      );
    const [one, two] = await ids();
    await coll.updateOne({ _id: 1 }, { $set: { a: 5, b: 'x'.repeat(100) } });
    await coll.replaceOne({ _id: 2 }, { a: 0 });
    expect(await ids()).toEqual([one, two]);
    await coll.deleteOne({ _id: 2 });
    await coll.insertOne({ _id: 3, a: 3 });
    const [, three] = await ids();
    expect(three! > two!).toBe(true);
    // Read through an index, the document carries the same id.
    const hinted = await read(coll.find({ a: 5 }, { promoteLongs: false }).hint({ a: 1 }).showRecordId(true));
    expect(hinted).toEqual([{ _id: 1, a: 5, b: 'x'.repeat(100), $recordId: one }]);
  });
});
