/**
 * findAndModify's `fields` (the driver's findOneAndUpdate/Delete/Replace `projection`) with the positional
 * `.$` projection. MongoDB 7.0 parses the projection with the query before it reads or writes anything
 * (src/mongo/db/query/projection_parser.cpp, parseInclusion: code 31277 when no query path starts with
 * the projected field; src/mongo/db/query/get_executor.cpp: BadValue when the command returns the new
 * document, whose array need not match the query any more); jstests/core/find_and_modify_server6865.js
 * lists which combinations work. Whatever fails, the stored document stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = { _id: number } & Record<string, any>;

const NO_MATCH = "Positional projection 'arr.$' does not match the query document.";
const NEW_DOCUMENT = 'cannot use a positional projection and return the new document';

describe.each(drivers)('findAndModify with a positional projection ($name)', (driver) => {
  const t = connect(driver, 'famproj');
  let n = 0;
  async function seeded(): Promise<{ coll: ReturnType<typeof t.db.collection<Doc>>; before: Doc[] }> {
    n++;
    const coll = t.db.collection<Doc>(`c${n}`);
    await coll.insertOne({ _id: 1, a: 1, arr: [1, 2, 3] });
    return { coll, before: await coll.find().toArray() };
  }

  it('refuses a positional field the query does not name, before writing', async () => {
    for (const extra of [{}, { new: true }, { upsert: true }, { remove: true }]) {
      const { coll, before } = await seeded();
      const command: Record<string, any> = {
        findAndModify: coll.collectionName,
        query: { a: 1 },
        fields: { 'arr.$': 1 },
      };
      if (!('remove' in extra)) command['update'] = { $set: { b: 1 } };
      const error = await failure(() => t.db.command({ ...command, ...extra }));
      expect(error['code'], JSON.stringify(extra)).toBe(31277);
      expect(error['errmsg'] ?? error['message']).toBe(NO_MATCH);
      expect(await coll.find().toArray()).toEqual(before);
    }
  });

  it('is the same check as find makes', async () => {
    const { coll } = await seeded();
    const error = await failure(() => coll.find({ a: 1 }, { projection: { 'arr.$': 1 } }).toArray());
    expect(error['code']).toBe(31277);
    expect(error['errmsg'] ?? error['message']).toBe(NO_MATCH);
    // Through $and/$or/$nor too (hasPositionalOperatorMatch); the query's own field picks the element.
    const found = await coll.findOne(
      { $and: [{ a: 1 }, { arr: { $gt: 1 } }] },
      { projection: { 'arr.$': 1 } },
    );
    expect(found).toEqual({ _id: 1, arr: [2] });
  });

  it('refuses it with nothing matched, so an upsert inserts nothing', async () => {
    const { coll, before } = await seeded();
    const error = await failure(() =>
      coll.findOneAndUpdate({ a: 2 }, { $set: { b: 1 } }, { upsert: true, projection: { 'arr.$': 1 } }),
    );
    expect(error['code']).toBe(31277);
    expect(await coll.find().toArray()).toEqual(before);
  });

  it('refuses it through findOneAndUpdate, findOneAndReplace and findOneAndDelete', async () => {
    const { coll, before } = await seeded();
    const projection = { 'arr.$': 1 };
    for (const run of [
      () => coll.findOneAndUpdate({ a: 1 }, { $set: { b: 1 } }, { projection }),
      () => coll.findOneAndReplace({ a: 1 }, { c: 1 }, { projection }),
      () => coll.findOneAndDelete({ a: 1 }, { projection }),
    ]) {
      const error = await failure(run);
      expect(error['code']).toBe(31277);
      expect(await coll.find().toArray()).toEqual(before);
    }
  });

  it('refuses a positional projection of the new document, before writing', async () => {
    for (const query of [{ arr: 2 }, { arr: 9 }]) {
      const { coll, before } = await seeded();
      const error = await failure(() =>
        coll.findOneAndUpdate(
          query,
          { $set: { b: 1 } },
          {
            returnDocument: 'after',
            upsert: true,
            projection: { 'arr.$': 1 },
          },
        ),
      );
      expect(error['code']).toBe(2);
      expect(error['errmsg'] ?? error['message']).toBe(NEW_DOCUMENT);
      expect(await coll.find().toArray()).toEqual(before);
    }
  });

  it('projects the matched element of the document before the update or delete', async () => {
    const { coll } = await seeded();
    const old = await coll.findOneAndUpdate({ arr: 2 }, { $set: { b: 1 } }, { projection: { 'arr.$': 1 } });
    expect(old).toEqual({ _id: 1, arr: [2] });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1, arr: [1, 2, 3], b: 1 });
    const removed = await coll.findOneAndDelete({ arr: { $gt: 2 } }, { projection: { 'arr.$': 1 } });
    expect(removed).toEqual({ _id: 1, arr: [3] });
    expect(await coll.countDocuments()).toBe(0);
  });

  it('fails without writing when the array has no element the query matched', async () => {
    // projection_executor_utils.cpp, applyFindPositionalProjection: 51246 when the query matched the
    // document without recording an array position. MongoDB 7.0 raises it after its update stage has
    // written; the embedded database projects before it writes, so the failed command changes nothing.
    const { coll, before } = await seeded();
    const error = await failure(() =>
      coll.findOneAndUpdate({ arr: { $size: 3 } }, { $set: { b: 1 } }, { projection: { 'arr.$': 1 } }),
    );
    expect(error['code']).toBe(51246);
    expect(error['errmsg'] ?? error['message']).toBe(
      "positional operator '.$' couldn't find a matching element in the array",
    );
    expect(await coll.find().toArray()).toEqual(before);
  });

  it('aborts a transaction, whose writes are dropped, and leaves the document unchanged', async () => {
    const { coll, before } = await seeded();
    const session = t.client.startSession();
    try {
      session.startTransaction();
      await coll.insertOne({ _id: 2 }, { session });
      const error = await failure(() =>
        coll.findOneAndUpdate({ a: 1 }, { $set: { b: 1 } }, { session, projection: { 'arr.$': 1 } }),
      );
      expect(error['code']).toBe(31277);
      // A failed statement aborts the transaction (NoSuchTransaction for what follows).
      expect((await failure(() => coll.findOne({}, { session })))['code']).toBe(251);
      await session.abortTransaction().catch(() => undefined);
    } finally {
      await session.endSession();
    }
    expect(await coll.find().toArray()).toEqual(before);
  });
});
