/**
 * Updates given as an aggregation pipeline (`update` and `findAndModify`). Each case names where the
 * expected answer comes from.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('pipeline-style update conformance ($name)', (driver) => {
  const t = connect(driver, 'pipeupd');
  let counter = 0;

  async function collection(docs: Record<string, any>[]) {
    counter++;
    const coll = t.db.collection<any>(`pipe_${counter}`);
    await coll.insertMany(docs);
    return coll;
  }

  // Source: driver spec crud/tests/unified/updateWithPipelines.yml, "UpdateOne using pipelines" and
  // "UpdateOne in bulk write using pipelines": $replaceRoot to a document without _id keeps the _id.
  it('$replaceRoot / $replaceWith keep the original _id when the new root omits it', async () => {
    const coll = await collection([
      { _id: 1, x: 1, y: 1, t: { u: { v: 1 } } },
      { _id: 2, x: 2, y: 1 },
    ]);
    const r = await coll.updateOne({ _id: 1 }, [
      { $replaceRoot: { newRoot: '$t' } },
      { $addFields: { foo: 1 } },
    ]);
    expect(r.modifiedCount).toBe(1);
    await coll.bulkWrite([{ updateOne: { filter: { _id: 2 }, update: [{ $replaceWith: { z: '$x' } }] } }]);
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, u: { v: 1 }, foo: 1 },
      { _id: 2, z: 2 },
    ]);
  });

  // Source: driver spec crud/tests/unified/updateWithPipelines.yml, "FindOneAndUpdate using pipelines".
  it('findAndModify with a pipeline, $replaceWith included', async () => {
    const coll = await collection([{ _id: 1, x: 1, y: 1 }]);
    const before = await coll.findOneAndUpdate({ _id: 1 }, [
      { $project: { x: 1 } },
      { $addFields: { foo: 1 } },
    ]);
    expect(before).toEqual({ _id: 1, x: 1, y: 1 });
    const after = await coll.findOneAndUpdate({ _id: 1 }, [{ $replaceWith: { w: '$foo' } }], {
      returnDocument: 'after',
    });
    expect(after).toEqual({ _id: 1, w: 1 });
  });

  // Source: MongoDB manual, $setField (https://www.mongodb.com/docs/manual/reference/operator/aggregation/setField/),
  // "Add Fields that Contain Periods" / "Add Fields that Start with a Dollar Sign" / "Remove Fields that
  // Start with a Dollar Sign", and $getField / $unsetField, used in update pipelines with $replaceWith.
  it('$setField / $getField / $unsetField with $literal names containing $ and .', async () => {
    const coll = await collection([{ _id: 1, item: 'sweatshirt', qty: 300 }]);
    await coll.updateOne({ _id: 1 }, [
      {
        $replaceWith: {
          $setField: {
            field: { $literal: '$price' },
            input: { $setField: { field: 'price.usd', input: '$$ROOT', value: 45.5 } },
            value: 30,
          },
        },
      },
    ]);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      item: 'sweatshirt',
      qty: 300,
      'price.usd': 45.5,
      $price: 30,
    });
    await coll.updateOne({ _id: 1 }, [
      { $set: { both: { $add: [{ $getField: { $literal: '$price' } }, { $getField: 'price.usd' }] } } },
      { $replaceWith: { $unsetField: { field: { $literal: '$price' }, input: '$$ROOT' } } },
    ]);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      item: 'sweatshirt',
      qty: 300,
      'price.usd': 45.5,
      both: 75.5,
    });
  });

  // Source: MongoDB manual, "Variables in Aggregation Expressions"
  // (https://www.mongodb.com/docs/manual/reference/aggregation-variables/): $$NOW (a Date), $$CLUSTER_TIME
  // (a Timestamp, on replica sets) and $$ROOT are available, update pipelines included.
  it('$$NOW, $$CLUSTER_TIME and $$ROOT are available in update pipelines', async () => {
    const coll = await collection([{ _id: 1, a: 1 }]);
    const started = Date.now();
    await coll.updateOne({ _id: 1 }, [{ $set: { at: '$$NOW', ct: '$$CLUSTER_TIME', copy: '$$ROOT' } }]);
    const doc = (await coll.findOne({ _id: 1 }))!;
    expect(doc['at']).toBeInstanceOf(Date);
    expect(doc['at'].getTime()).toBeGreaterThanOrEqual(started - 1000);
    expect(doc['ct']._bsontype).toBe('Timestamp');
    expect(doc['copy']).toEqual({ _id: 1, a: 1 });
    const found = await coll.findOneAndUpdate({ _id: 1 }, [{ $set: { again: '$$NOW' } }], {
      returnDocument: 'after',
    });
    expect(found!['again']).toBeInstanceOf(Date);
  });
});
