/**
 * `$documents` as MongoDB 7.0 runs and refuses it, pinned by jstests/aggregation/sources/documents.js:
 * it runs in a database-level aggregate (`{ aggregate: 1 }`) and as the first stage of a `$lookup` or
 * `$unionWith` pipeline without a collection; on a collection it is "'$documents' can only be run with
 * {aggregate: 1}" (InvalidNamespace, 73: Pipeline::validateTopLevelPipeline, pipeline.cpp), a
 * database-level aggregate starting with another stage is "{aggregate: 1} is not valid for '<stage>'; a
 * collection is required." (73), and anywhere but first it is 40602 ("$documents is only valid as the
 * first stage in a pipeline", PositionRequirement::kFirst of its queue, document_source_queue.h), in a
 * `$facet` 40600 (FacetRequirement::kNotAllowed). A `$lookup` or `$unionWith` without a collection must
 * start its pipeline with `$documents` (FailedToParse, 9: validateLookupCollectionlessPipeline in
 * document_source_lookup.cpp, validateUnionWithCollectionlessPipeline in
 * document_source_union_with.cpp). Its argument is desugared into `$project: { f: <argument> }`,
 * `$unwind: '$f'` and `$replaceRoot: { newRoot: '$f' }` over one empty document
 * (document_source_documents.cpp): an element that is not a document is 40228 (the jstest's
 * `[1, 2, 3]`, `[{ a: 1 }, 2]` and `'string'`), and what `$unwind` drops (null, a path to nothing, a
 * number or boolean, which project a field the empty document lacks) gives no documents.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('the documents stage ($name)', (driver) => {
  const t = connect(driver, 'documents_stage');

  async function collections() {
    const coll = t.db.collection<any>('documents');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, a: 1 });
    const names = t.db.collection<any>('lookup_coll');
    await names.deleteMany({});
    await names.insertMany([0, 1, 2, 3].map((i) => ({ _id: i, id_name: i, name: `name_${i}` })));
    return { coll, names };
  }

  /** The code and message `run` fails with. */
  async function refusal(run: () => Promise<unknown>) {
    const error = await failure(run);
    return [error['code'], error['errmsg']];
  }

  it('produces its documents in a database-level aggregate, from an array or an expression', async () => {
    expect(await t.db.aggregate([{ $documents: [{ a1: 1 }, { a1: 2 }] }]).toArray()).toEqual([
      { a1: 1 },
      { a1: 2 },
    ]);
    const mapped = await t.db
      .aggregate([{ $documents: { $map: { input: { $range: [0, 3] }, in: { x: '$$this' } } } }])
      .toArray();
    expect(mapped).toEqual([{ x: 0 }, { x: 1 }, { x: 2 }]);
    expect(await t.db.aggregate([{ $documents: '$$docs' }], { let: { docs: [{ v: 1 }] } }).toArray()).toEqual(
      [{ v: 1 }],
    );
    // A document value is unwound as itself; what $unwind drops gives no documents.
    expect(await t.db.aggregate([{ $documents: { $literal: { a: 1 } } }]).toArray()).toEqual([{ a: 1 }]);
    for (const nothing of [[], null, '$missing', 1, true])
      expect(await t.db.aggregate([{ $documents: nothing }]).toArray()).toEqual([]);
  });

  it('runs first in a $lookup or $unionWith pipeline that names no collection', async () => {
    const { coll, names } = await collections();
    const unioned = await coll
      .aggregate([
        { $unionWith: { pipeline: [{ $documents: [{ xx: 1 }, { xx: 2 }] }] } },
        { $project: { _id: 0 } },
      ])
      .toArray();
    expect(unioned).toEqual([{ a: 1 }, { xx: 1 }, { xx: 2 }]);
    const joined = await names
      .aggregate([
        {
          $lookup: {
            let: { id: '$id_name' },
            pipeline: [
              { $documents: [{ xx: 1 }, { xx: 2 }] },
              { $match: { $expr: { $eq: ['$$id', '$xx'] } } },
            ],
            as: 'names',
          },
        },
        { $match: { names: { $ne: [] } } },
        { $project: { _id: 0, names: 1 } },
      ])
      .toArray();
    expect(joined).toEqual([{ names: [{ xx: 1 }] }, { names: [{ xx: 2 }] }]);
    // The pipeline runs for each document, so $documents reads the let variables, and a join filters
    // its documents; it stands for the collection even when one is named.
    const each = await names
      .aggregate([
        { $match: { id_name: { $lt: 2 } } },
        {
          $lookup: {
            from: 'documents',
            let: { id: '$id_name' },
            localField: 'id_name',
            foreignField: 'k',
            pipeline: [{ $documents: [{ k: '$$id' }, { k: 1 }] }],
            as: 'names',
          },
        },
        { $project: { _id: 0, id_name: 1, names: 1 } },
      ])
      .toArray();
    expect(each).toEqual([
      { id_name: 0, names: [{ k: 0 }] },
      { id_name: 1, names: [{ k: 1 }, { k: 1 }] },
    ]);
  });

  it('is refused on a collection, anywhere but first, and in $facet', async () => {
    const { coll } = await collections();
    expect(await refusal(() => coll.aggregate([{ $documents: [{ x: 1 }] }]).toArray())).toEqual([
      73,
      "'$documents' can only be run with {aggregate: 1}",
    ]);
    const misplaced = [40602, '$documents is only valid as the first stage in a pipeline'];
    expect(
      await refusal(() => coll.aggregate([{ $project: { a: 1 } }, { $documents: [{ a: 1 }] }]).toArray()),
    ).toEqual(misplaced);
    const late = { pipeline: [{ $documents: [{ x: 1 }] }, { $documents: [{ x: 2 }] }] };
    expect(await refusal(() => coll.aggregate([{ $unionWith: late }]).toArray())).toEqual(misplaced);
    expect(await refusal(() => coll.aggregate([{ $lookup: { ...late, as: 'j' } }]).toArray())).toEqual(
      misplaced,
    );
    expect(
      await refusal(() => coll.aggregate([{ $facet: { f: [{ $documents: [{ x: 1 }] }] } }]).toArray()),
    ).toEqual([40600, '$documents is not allowed to be used within a $facet stage']);
  });

  it('a database-level aggregate must start with it', async () => {
    expect(
      await refusal(() => t.db.aggregate([{ $project: { a: 1 } }, { $documents: [{ a: 1 }] }]).toArray()),
    ).toEqual([73, "{aggregate: 1} is not valid for '$project'; a collection is required."]);
    expect(
      await refusal(() => t.db.aggregate([{ $unionWith: { pipeline: [{ $documents: [] }] } }]).toArray()),
    ).toEqual([73, "{aggregate: 1} is not valid for '$unionWith'; a collection is required."]);
    expect(await refusal(() => t.db.aggregate([{ $match: {} }]).toArray())).toEqual([
      73,
      "{aggregate: 1} is not valid for '$match'; a collection is required.",
    ]);
    expect(await refusal(() => t.db.aggregate([]).toArray())).toEqual([
      73,
      '{aggregate: 1} is not valid for an empty pipeline.',
    ]);
  });

  it('a $lookup or $unionWith without a collection needs a pipeline starting with it (9)', async () => {
    const { coll } = await collections();
    expect(
      await refusal(() => coll.aggregate([{ $unionWith: { pipeline: [{ $project: { a: 1 } }] } }]).toArray()),
    ).toEqual([
      9,
      '$unionWith stage without explicit collection must have a pipeline with $documents as first stage',
    ]);
    expect(await refusal(() => coll.aggregate([{ $unionWith: { pipeline: [] } }]).toArray())).toEqual([
      9,
      '$unionWith stage without explicit collection must have a pipeline with $documents as first stage',
    ]);
    expect(
      await refusal(() =>
        coll.aggregate([{ $lookup: { let: {}, as: 'aa', pipeline: [{ $project: { a: 1 } }] } }]).toArray(),
      ),
    ).toEqual([
      9,
      '$lookup stage without explicit collection must have a pipeline with $documents as first stage',
    ]);
  });

  it('refuses elements that are not documents (40228)', async () => {
    for (const spec of [[1, 2, 3], [{ a: 1 }, 2], 'string', [null], [[{ a: 1 }]]]) {
      const error = await failure(() => t.db.aggregate([{ $documents: spec }]).toArray());
      expect(error['code']).toBe(40228);
      expect(error['errmsg']).toMatch(
        /^'newRoot' expression must evaluate to an object, but resulting value was: /,
      );
    }
  });

  it('reads a document argument as the sub-projection it desugars into', async () => {
    // document_source_documents.cpp builds { $project: { <uuid>: <argument> } } (DocumentSourceProject::
    // create, whose errors read "Invalid $documents :: caused by :: "): {} is an empty sub-projection
    // (51270, projection_parser.cpp), and over the empty document only its computed fields give values.
    expect(await refusal(() => t.db.aggregate([{ $documents: {} }]).toArray())).toEqual([
      51270,
      'Invalid $documents :: caused by :: An empty sub-projection is not a valid value. Found empty object at path',
    ]);
    expect(await t.db.aggregate([{ $documents: { a: 'x', b: 1, c: { $add: [1, 2] } } }]).toArray()).toEqual([
      { a: 'x', c: 3 },
    ]);
    expect(await t.db.aggregate([{ $documents: { a: 1 } }]).toArray()).toEqual([]);
    expect(await t.db.aggregate([{ $documents: { a: 0 } }]).toArray()).toEqual([]);
  });
});
