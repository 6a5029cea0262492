/**
 * `$merge` with a pipeline `whenMatched` runs that pipeline as an update of the matched document and
 * reports it as MongoDB 7.0 does. document_source_merge.cpp (mongodb/mongo): the pipeline modes use the
 * update strategy with no batch transform, and `makeBatchUpdateModification` gives the update as
 * `UpdateModification(*_pipeline)`, a pipeline-style update, with the `let` variables resolved against
 * the incoming document (default `{ new: "$$ROOT" }`, SERVER-41383). A pipeline update is logged as the
 * documents' diff, or as a replacement when the diff is not smaller than the new document
 * (pipeline_executor.cpp, document_diff_calculator.cpp), so the change event is an `update` with that
 * diff as its `updateDescription`, or a `replace`. `whenMatched: 'merge'` is `{ $set: <document> }`
 * (makeUpdateTransform("$set")): each top-level field it sets with a new value.
 * Manual: https://www.mongodb.com/docs/manual/reference/operator/aggregation/merge/.
 */
import { describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { connect, drivers } from '../helpers.js';

/** Long enough that a diff of the fields around it is smaller than the fields themselves. */
const BIG = '*'.repeat(128);

const none = { removedFields: [], truncatedArrays: [] };

describe.each(drivers)('$merge change events ($name)', (driver) => {
  const t = connect(driver, 'merge_events');

  /** Merges `incoming` into a target holding `stored`, returning the target's events and documents. */
  async function merge(
    stored: Document,
    incoming: Document,
    stage: Document,
  ): Promise<[Document[], Document[]]> {
    const source = t.db.collection<any>('source');
    const target = t.db.collection<any>('target');
    await source.deleteMany({});
    await target.deleteMany({});
    await source.insertOne({ _id: 1, ...incoming });
    await target.insertOne({ _id: 1, ...stored });
    const stream = target.watch([], { maxAwaitTimeMS: 50 });
    try {
      expect(await stream.tryNext()).toBeNull();
      await source.aggregate([{ $merge: { into: 'target', ...stage } }]).toArray();
      const events: Document[] = [];
      for (let e = await stream.tryNext(); e; e = await stream.tryNext()) events.push(e);
      return [events, await target.find().toArray()];
    } finally {
      await stream.close();
    }
  }

  it('reports a pipeline whenMatched as an update with the documents diff', async () => {
    const [events, docs] = await merge(
      { big: BIG, n: 1, o: { k: 1, big: BIG } },
      { n: 5 },
      { whenMatched: [{ $set: { n: { $add: ['$n', '$$new.n'] }, 'o.k': 2 } }] },
    );
    expect(docs).toEqual([{ _id: 1, big: BIG, n: 6, o: { k: 2, big: BIG } }]);
    expect(events.map((e) => e['operationType'])).toEqual(['update']);
    expect(events[0]!['updateDescription']).toStrictEqual({ updatedFields: { n: 6, 'o.k': 2 }, ...none });
  });

  it('reads the stage let variables, evaluated against the incoming document', async () => {
    const [events, docs] = await merge(
      { big: BIG, total: 10 },
      { add: 3 },
      { let: { inc: '$add' }, whenMatched: [{ $set: { total: { $add: ['$total', '$$inc'] } } }] },
    );
    expect(docs).toEqual([{ _id: 1, big: BIG, total: 13 }]);
    expect(events[0]!['updateDescription']).toStrictEqual({ updatedFields: { total: 13 }, ...none });
  });

  it('reports a pipeline whose diff is not smaller than the new document as a replace', async () => {
    const [events, docs] = await merge({ n: 1 }, { n: 2 }, { whenMatched: [{ $set: { n: '$$new.n' } }] });
    expect(docs).toEqual([{ _id: 1, n: 2 }]);
    expect(events.map((e) => e['operationType'])).toEqual(['replace']);
  });

  it('reports nothing when the pipeline leaves the document as it was', async () => {
    const [events] = await merge({ n: 1 }, { n: 1 }, { whenMatched: [{ $set: { n: '$$new.n' } }] });
    expect(events).toEqual([]);
  });

  it("reports whenMatched: 'merge' as the $set of each changed top-level field", async () => {
    const [events, docs] = await merge(
      { a: 1, o: { x: 1, y: 2 } },
      { a: 1, o: { x: 1 } },
      { whenMatched: 'merge' },
    );
    expect(docs).toEqual([{ _id: 1, a: 1, o: { x: 1 } }]);
    expect(events[0]!['updateDescription']).toStrictEqual({ updatedFields: { o: { x: 1 } }, ...none });
  });
});
