/**
 * Computed fields at dotted paths that meet arrays, scalars or nothing: `$addFields`/`$set` in `aggregate`
 * and in pipeline-style updates, and `$project`. The expected answers come from MongoDB's server source
 * (mongodb/mongo, the 7.0 line):
 * - src/mongo/db/exec/projection_node.cpp, ProjectionNode::applyExpressionsToValue: a document gets the
 *   rest of the path set in it, an array gets it set in each element (recursing into nested arrays), and
 *   any other value (a scalar, null, missing) is replaced by a new document of the computed fields;
 * - src/mongo/db/exec/add_fields_projection_executor.cpp, AddFieldsProjectionExecutor::parse and
 *   parseSubObject: every path component is a field name, a nested object spec adds its fields under the
 *   path, an empty object is the literal `{}`;
 * - src/mongo/db/exec/add_fields_projection_executor_test.cpp and inclusion_projection_executor_test.cpp,
 *   whose cases the tests below reuse where they can (named in each test);
 * - the MongoDB manual, $addFields (https://www.mongodb.com/docs/manual/reference/operator/aggregation/addFields/):
 *   "To add field or fields to embedded documents (including documents in arrays) use the dot notation",
 *   and `$addFields` "accepts the embedding of objects" such as `{ $addFields: { a: { b: {} } } }`.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

type Doc = Record<string, any>;

describe.each(drivers)('computed fields at paths through arrays ($name)', (driver) => {
  const t = connect(driver, 'add_fields_paths');
  let counter = 0;

  async function collection(docs: Doc[]) {
    counter++;
    const coll = t.db.collection<any>(`paths_${counter}`);
    await coll.insertMany(docs);
    return coll;
  }

  /** The documents of `docs` after the one `stage`, in `_id` order. */
  async function run(docs: Doc[], stage: Doc): Promise<Doc[]> {
    const coll = await collection(docs);
    return coll.aggregate([stage, { $sort: { _id: 1 } }]).toArray();
  }

  // add_fields_projection_executor_test.cpp, AppliesDottedAdditionToEachElementInArray.
  it.each(['$addFields', '$set'])(
    '%s a.b sets b in every element: documents keep their fields, scalars become {b}, nested arrays are walked',
    async (stage) => {
      const out = await run([{ _id: 1, a: [1, {}, { b: 1 }, { b: 1, c: 2 }, [], [1, { c: 1 }]] }], {
        [stage]: { 'a.b': true },
      });
      expect(out).toEqual([
        {
          _id: 1,
          a: [{ b: true }, { b: true }, { b: true }, { b: true, c: 2 }, [], [{ b: true }, { c: 1, b: true }]],
        },
      ]);
    },
  );

  // projection_node.cpp, applyExpressionsToValue: the expression is evaluated against the input document
  // (the root), once per element; a missing result leaves the field out of every element.
  it('the expression reads the whole document, and $$REMOVE removes the field from each element', async () => {
    const docs = [{ _id: 1, qty: 3, items: [{ p: 1, total: 0 }, { p: 2 }, 'x'] }];
    expect(await run(docs, { $set: { 'items.total': { $multiply: ['$qty', 2] } } })).toEqual([
      { _id: 1, qty: 3, items: [{ p: 1, total: 6 }, { p: 2, total: 6 }, { total: 6 }] },
    ]);
    expect(await run(docs, { $set: { 'items.total': '$$REMOVE' } })).toEqual([
      { _id: 1, qty: 3, items: [{ p: 1 }, { p: 2 }, {}] },
    ]);
  });

  // AddFieldsProjectionExecutor::parse: `0` in `a.0` is a field name (MongoDB's update operators read it
  // as an index, aggregation paths never do); an array is not padded.
  it('a numeric component a.0 is a field name in each element, not an index', async () => {
    const out = await run(
      [
        { _id: 1, a: [{ v: 1 }, 7, [{ v: 2 }]] },
        { _id: 2, a: [] },
        { _id: 3, a: { v: 3 } },
        { _id: 4, a: [10, 20, 30], b: [[5]] },
      ],
      { $addFields: { 'a.0': 'x', 'b.5.c': 1 } },
    );
    expect(out).toEqual([
      { _id: 1, a: [{ v: 1, 0: 'x' }, { 0: 'x' }, [{ v: 2, 0: 'x' }]], b: { 5: { c: 1 } } },
      { _id: 2, a: [], b: { 5: { c: 1 } } },
      { _id: 3, a: { v: 3, 0: 'x' }, b: { 5: { c: 1 } } },
      { _id: 4, a: [{ 0: 'x' }, { 0: 'x' }, { 0: 'x' }], b: [[{ 5: { c: 1 } }]] },
    ]);
  });

  // add_fields_projection_executor_test.cpp, CreatesSubDocIfDottedAddedFieldDoesNotExist and
  // CreatesNestedSubDocumentsAllTheWayToAddedField: a missing, null or scalar parent becomes a document.
  it('a missing, null or scalar parent is replaced by a document holding the path', async () => {
    const out = await run(
      [
        { _id: 1 },
        { _id: 2, a: null },
        { _id: 3, a: 'notADocument' },
        { _id: 4, a: { b: 'other', keep: 1 } },
        { _id: 5, a: { b: [{ c: { z: 1 } }, 2] } },
      ],
      { $set: { 'a.b.c.d': 'v' } },
    );
    expect(out).toEqual([
      { _id: 1, a: { b: { c: { d: 'v' } } } },
      { _id: 2, a: { b: { c: { d: 'v' } } } },
      { _id: 3, a: { b: { c: { d: 'v' } } } },
      { _id: 4, a: { b: { c: { d: 'v' } }, keep: 1 } },
      { _id: 5, a: { b: [{ c: { z: 1, d: 'v' } }, { c: { d: 'v' } }] } },
    ]);
  });

  // add_fields_projection_executor_test.cpp, ShouldAllowMixedNestedAndDottedFields and
  // AddsNestedAddedFieldsInOrderSpecified; parseSubObject: an empty object is the literal {}.
  it('a nested spec { a: { b: … } } merges into a (into each element of an array) like a.b', async () => {
    const out = await run(
      [
        { _id: 1, a: { b: 'b', f: 'f' } },
        { _id: 2, a: [{ f: 1 }, 2] },
      ],
      { $addFields: { a: { b: true, e: {}, y: { $literal: 'Y' } }, 'a.x': 'X' } },
    );
    expect(out).toEqual([
      { _id: 1, a: { b: true, f: 'f', e: {}, y: 'Y', x: 'X' } },
      {
        _id: 2,
        a: [
          { f: 1, b: true, e: {}, y: 'Y', x: 'X' },
          { b: true, e: {}, y: 'Y', x: 'X' },
        ],
      },
    ]);
    expect(Object.keys(out[0]!['a'] as Doc)).toEqual(['b', 'f', 'e', 'y', 'x']);
  });

  // The same stage in a pipeline-style update (UpdateDriver runs the pipeline's $set with the same
  // executor): the stored document is MongoDB's result.
  it('updateOne with a pipeline [{ $set: { a.b } }] stores the field in every element', async () => {
    const coll = await collection([
      { _id: 1, a: [{ x: 1 }, 5, [{ x: 2 }]], n: 4 },
      { _id: 2, a: [{ x: 1 }, { x: 2 }] },
    ]);
    const r = await coll.updateOne({ _id: 1 }, [{ $set: { 'a.b': { $add: ['$n', 1] }, 'a.0': 0 } }]);
    expect(r.modifiedCount).toBe(1);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      a: [{ x: 1, b: 5, 0: 0 }, { b: 5, 0: 0 }, [{ x: 2, b: 5, 0: 0 }]],
      n: 4,
    });
    // The update operator $set reads `0` as an index instead (update/path_support.cpp): not changed.
    await coll.updateOne({ _id: 2 }, { $set: { 'a.0': { x: 0 } } });
    await coll.updateMany({ _id: 2 }, [{ $addFields: { 'a.y': '$_id' } }]);
    expect(await coll.findOne({ _id: 2 })).toEqual({
      _id: 2,
      a: [
        { x: 0, y: 2 },
        { x: 2, y: 2 },
      ],
    });
  });

  // inclusion_projection_executor_test.cpp, ComputedFieldIsAddedToNestedArrayElementsForRecursePolicy
  // and ShouldRecurseNestedArraysByDefault: $project copies the included fields (scalars in arrays are
  // dropped), then sets the computed ones as $addFields does, so a dropped element comes back as {b}.
  it('$project with a computed a.b sets it in every element after the inclusions', async () => {
    const docs = [
      { _id: 1, a: [1, {}, { b: 1 }, { b: 1, c: 2 }, [], [1, { c: 1 }]], z: 1 },
      { _id: 2, a: 'scalar', z: 2 },
      { _id: 3, z: 3 },
    ];
    expect(await run(docs, { $project: { 'a.b': { $literal: 'COMPUTED' } } })).toEqual([
      {
        _id: 1,
        a: [
          { b: 'COMPUTED' },
          { b: 'COMPUTED' },
          { b: 'COMPUTED' },
          { b: 'COMPUTED' },
          [],
          [{ b: 'COMPUTED' }, { b: 'COMPUTED' }],
        ],
      },
      { _id: 2, a: { b: 'COMPUTED' } },
      { _id: 3, a: { b: 'COMPUTED' } },
    ]);
    expect(await run(docs, { $project: { _id: 0, 'a.c': 1, 'a.b': '$z' } })).toEqual([
      { a: [{ b: 1 }, { b: 1 }, { b: 1 }, { c: 2, b: 1 }, [], [{ b: 1 }, { c: 1, b: 1 }]] },
      { a: { b: 2 } },
      { a: { b: 3 } },
    ]);
  });
});
