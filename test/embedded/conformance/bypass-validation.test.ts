/**
 * `bypassDocumentValidation: true` lets insert, update, findAndModify and an aggregate's `$out`/`$merge`
 * store documents the collection's validator refuses (MongoDB manual, "Schema Validation > Bypass
 * Document Validation": "the following commands can bypass validation per operation using the new
 * option bypassDocumentValidation"; the server turns validation off for the whole operation,
 * DisableDocumentValidation in src/mongo/db/catalog/document_validation.h). Without it they fail with
 * DocumentValidationFailure (121) and store nothing.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = { _id: number } & Record<string, any>;

describe.each(drivers)('bypassDocumentValidation ($name)', (driver) => {
  const t = connect(driver, 'bypass');
  let n = 0;
  /** A fresh collection whose validator wants a numeric `x`, holding `{ _id: 1, x: 1 }`. */
  async function validated(options: Record<string, unknown> = {}) {
    n++;
    const coll = await t.db.createCollection<Doc>(`v${n}`, {
      validator: { x: { $type: 'number' } },
      ...options,
    });
    await coll.insertOne({ _id: 1, x: 1 });
    return coll;
  }
  const bypass = { bypassDocumentValidation: true };

  it('lets insert and bulk writes store an invalid document', async () => {
    const coll = await validated();
    expect((await failure(() => coll.insertOne({ _id: 2, x: 'a' })))['code']).toBe(121);
    await coll.insertOne({ _id: 2, x: 'a' }, bypass);
    await coll.insertMany([{ _id: 3, x: 'b' }], bypass);
    await coll.bulkWrite([{ insertOne: { document: { _id: 4, x: 'c' } } }], bypass);
    expect(await coll.countDocuments()).toBe(4);
  });

  it('lets update, replace and findAndModify store an invalid document', async () => {
    const coll = await validated();
    expect((await failure(() => coll.updateOne({ _id: 1 }, { $set: { x: 'a' } })))['code']).toBe(121);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, x: 1 });
    await coll.updateOne({ _id: 1 }, { $set: { x: 'a' } }, bypass);
    await coll.replaceOne({ _id: 1 }, { x: 'b' }, bypass);
    await coll.updateOne({ _id: 2 }, { $set: { x: 'u' } }, { ...bypass, upsert: true });
    expect(await coll.find().toArray()).toEqual([
      { _id: 1, x: 'b' },
      { _id: 2, x: 'u' },
    ]);
    const error = await failure(() => coll.findOneAndUpdate({ _id: 1 }, { $set: { x: 'c' } }));
    expect(error['code']).toBe(121);
    await coll.findOneAndUpdate({ _id: 1 }, { $set: { x: 'c' } }, bypass);
    await coll.findOneAndReplace({ _id: 1 }, { x: 'd' }, bypass);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, x: 'd' });
  });

  it('lets $out and $merge write invalid documents', async () => {
    const source = t.db.collection<Doc>(`src${++n}`);
    await source.insertMany([
      { _id: 1, x: 'one' },
      { _id: 2, x: 'two' },
    ]);
    const out = await validated();
    expect((await failure(() => source.aggregate([{ $out: out.collectionName }]).toArray()))['code']).toBe(
      121,
    );
    expect(await out.find().toArray()).toEqual([{ _id: 1, x: 1 }]);
    await source.aggregate([{ $out: out.collectionName }], bypass).toArray();
    expect(await out.countDocuments({ x: { $type: 'string' } })).toBe(2);

    const merged = await validated();
    const merge = [{ $merge: { into: merged.collectionName } }];
    expect((await failure(() => source.aggregate(merge).toArray()))['code']).toBe(121);
    expect(await merged.find().toArray()).toEqual([{ _id: 1, x: 1 }]);
    await source.aggregate(merge, bypass).toArray();
    expect(await merged.find().toArray()).toEqual([
      { _id: 1, x: 'one' },
      { _id: 2, x: 'two' },
    ]);
  });

  it('lets an aggregate on a view write invalid documents with $out', async () => {
    const source = t.db.collection<Doc>(`src${++n}`);
    await source.insertOne({ _id: 1, x: 'one' });
    const view = `view${n}`;
    await t.db.createCollection(view, { viewOn: source.collectionName, pipeline: [] });
    const out = await validated();
    const pipeline = [{ $out: out.collectionName }];
    expect((await failure(() => t.db.collection(view).aggregate(pipeline).toArray()))['code']).toBe(121);
    await t.db.collection(view).aggregate(pipeline, bypass).toArray();
    expect(await out.find().toArray()).toEqual([{ _id: 1, x: 'one' }]);
  });

  it('validates the documents $merge updates when not bypassed', async () => {
    const source = t.db.collection<Doc>(`src${++n}`);
    await source.insertOne({ _id: 1, x: 'one' });
    const merged = await validated();
    const error = await failure(() =>
      source.aggregate([{ $merge: { into: merged.collectionName, whenNotMatched: 'discard' } }]).toArray(),
    );
    expect(error['code']).toBe(121);
    expect(await merged.find().toArray()).toEqual([{ _id: 1, x: 1 }]);
  });

  it('still validates writes that do not ask, and warn/moderate work as before', async () => {
    const coll = await validated({ validationAction: 'warn' });
    await coll.insertOne({ _id: 2, x: 'a' });
    const moderate = await validated({ validationLevel: 'moderate' });
    await moderate.insertOne({ _id: 2, x: 'a' }, bypass);
    await moderate.updateOne({ _id: 2 }, { $set: { y: 1 } });
    expect((await failure(() => moderate.updateOne({ _id: 1 }, { $set: { x: 'b' } })))['code']).toBe(121);
    expect((await failure(() => moderate.insertOne({ _id: 3, x: 'c' })))['code']).toBe(121);
  });
});
