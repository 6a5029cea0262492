/**
 * Colliding paths in one `$addFields`/`$set` or `$project` are refused when the stage is parsed, so on an
 * empty collection too, in `aggregate` (and its `$facet`, `$lookup` and `$unionWith` sub-pipelines) and
 * in pipeline-style updates. The expected answers come from MongoDB's server source (mongodb/mongo):
 * - src/mongo/db/exec/add_fields_projection_executor.cpp, ProjectionSpecValidator (run by
 *   AddFieldsProjectionExecutor::create before `parse`/`parseSubObject` read any expression):
 *   ensurePathDoesNotConflictOrThrow refuses a path equal to, under or above one already set with 40176
 *   "specification contains two conflicting paths. Cannot specify both '<this path>' and '<the earlier
 *   one>': <the spec>"; the earlier one is found in an OrderedPathSet, whose PathComparator
 *   (src/mongo/db/pipeline/dependencies.cpp) sorts `.` before every other character. parseNestedObject
 *   refuses an expression object with more fields than its operator (40181) and a dotted name in a
 *   sub-object (40183); an expression `{ a: { $op: … } }` sets `a`, an empty object sets nothing;
 * - src/mongo/db/pipeline/document_source_add_fields.cpp, DocumentSourceAddFields::create: every error of
 *   that parse gets the context "Invalid $addFields" (or "$set"), which reads
 *   `Invalid $set :: caused by :: …`;
 * - src/mongo/db/query/projection_parser.cpp, addNodeAtPath: a `$project` field at a path already taken
 *   is 31250 "Path collision at <path>", one under a field already taken is 31249 "Path collision at
 *   <path> remaining portion <the path without its first part>", the path being the field's name in its
 *   (sub-)projection; a sub-projection reuses the node already at its path (findLastInnerNodeOnPath).
 *   The message gets "Invalid $project" (document_source_project.h, DocumentSourceProject::create);
 * - jstests/core/projection_conflicts.js, whose `$project` cases are reused below.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

/** [case, stage, code, message]: refused when parsed. */
const collisions: [string, Doc, number, string][] = [
  [
    'a path, then its parent',
    { $addFields: { 'a.b': 1, a: 2 } },
    40176,
    "Invalid $addFields :: caused by :: specification contains two conflicting paths. Cannot specify both 'a' and 'a.b': { a.b: 1, a: 2 }",
  ],
  [
    'a path, then one under it',
    { $set: { a: 2, 'a.b': 1 } },
    40176,
    "Invalid $set :: caused by :: specification contains two conflicting paths. Cannot specify both 'a.b' and 'a': { a: 2, a.b: 1 }",
  ],
  [
    'a nested field and the same dotted path',
    { $set: { a: { b: 1 }, 'a.b': 2 } },
    40176,
    "Invalid $set :: caused by :: specification contains two conflicting paths. Cannot specify both 'a.b' and 'a.b': { a: { b: 1 }, a.b: 2 }",
  ],
  [
    'a dotted path under a nested field',
    { $set: { a: { b: 'x', c: 1 }, 'a.c.d': 2 } },
    40176,
    "Invalid $set :: caused by :: specification contains two conflicting paths. Cannot specify both 'a.c.d' and 'a.c': { a: { b: \"x\", c: 1 }, a.c.d: 2 }",
  ],
  [
    'an expression object, then a path under it',
    { $set: { a: { $add: [1, 2] }, 'a.x': 2 } },
    40176,
    "Invalid $set :: caused by :: specification contains two conflicting paths. Cannot specify both 'a.x' and 'a': { a: { $add: [ 1, 2 ] }, a.x: 2 }",
  ],
  [
    // The collision is found before the expressions are parsed: the unknown operator goes unnoticed.
    'a collision before an unknown expression',
    { $set: { a: { $nope: 1 }, 'a.b': 1 } },
    40176,
    "Invalid $set :: caused by :: specification contains two conflicting paths. Cannot specify both 'a.b' and 'a': { a: { $nope: 1 }, a.b: 1 }",
  ],
  [
    // Of the paths under `a`, the first in PathComparator order: `.` sorts before `-`.
    'a parent of several paths names the first of them',
    { $set: { 'a.b-c': 1, 'a.c': 2, 'a.b.c': 3, a: 4 } },
    40176,
    "Invalid $set :: caused by :: specification contains two conflicting paths. Cannot specify both 'a' and 'a.b.c': { a.b-c: 1, a.c: 2, a.b.c: 3, a: 4 }",
  ],
  [
    'an expression object with a second field',
    { $set: { a: { $add: [1, 2], b: 1 } } },
    40181,
    'Invalid $set :: caused by :: an expression specification must contain exactly one field, the name of the expression. Found 2 fields in { $add: [ 1, 2 ], b: 1 }, while parsing object { a: { $add: [ 1, 2 ], b: 1 } }',
  ],
  [
    'a dotted name in a sub-object',
    { $addFields: { a: { 'b.c': 1 } } },
    40183,
    "Invalid $addFields :: caused by :: cannot use dotted field name 'b.c' in a sub object: { a: { b.c: 1 } }",
  ],
  // jstests/core/projection_conflicts.js.
  ['$project a path, then its parent', { $project: { 'a.b': 1, a: 1 } }, 31250, 'Path collision at a'],
  [
    '$project a path, then one under it',
    { $project: { a: 1, 'a.b': 1 } },
    31249,
    'Path collision at a.b remaining portion b',
  ],
  [
    '$project a path, then one two levels under it',
    { $project: { 'a.b': 0, 'a.b.c': 0 } },
    31249,
    'Path collision at a.b.c remaining portion b.c',
  ],
  [
    '$project a sub-projection that repeats a path (named in the sub-projection)',
    { $project: { 'a.b': 1, a: { b: '$$REMOVE' } } },
    31250,
    'Path collision at b',
  ],
  [
    '$project a path a sub-projection already holds',
    { $project: { a: { b: { c: 1 } }, 'a.b': 1 } },
    31250,
    'Path collision at a.b',
  ],
  [
    '$project computed fields at colliding paths',
    { $project: { 'a.b': '$x', a: { $add: [1, 2] } } },
    31250,
    'Path collision at a',
  ],
];

/** Stages whose paths do not collide, with what they make of `{ _id: 1, a: { x: 0 } }`. */
const accepted: [string, Doc, Doc][] = [
  ['sibling dotted paths', { $set: { 'a.b': 1, 'a.c': 2 } }, { _id: 1, a: { x: 0, b: 1, c: 2 } }],
  ['a nested field spec', { $addFields: { a: { b: 1 } } }, { _id: 1, a: { x: 0, b: 1 } }],
  [
    'paths that only share a prefix string',
    { $set: { a: 1, ab: 2, 'a-b': 3 } },
    { _id: 1, a: 1, ab: 2, 'a-b': 3 },
  ],
  ['$project sibling paths', { $project: { 'a.x': 1, 'a.y': 1 } }, { _id: 1, a: { x: 0 } }],
  // The sub-projection adds its fields to the node `a.b` made (findLastInnerNodeOnPath).
  [
    '$project a sub-projection beside a dotted path',
    { $project: { 'a.x': 1, a: { y: 1 } } },
    { _id: 1, a: { x: 0 } },
  ],
];

describe.each(drivers)('colliding paths in $addFields/$set and $project ($name)', (driver) => {
  const t = connect(driver, 'add_fields_collisions');
  let counter = 0;

  async function emptyCollection() {
    counter++;
    const name = `collisions_${counter}`;
    await t.db.createCollection(name);
    return t.db.collection<any>(name);
  }

  it.each(collisions)('aggregate refuses %s', async (_case, stage, code, message) => {
    const coll = await emptyCollection();
    const error = await failure(() => coll.aggregate([stage]).toArray());
    expect({ code: error['code'], message: error['message'] }).toEqual({
      code,
      message: expectedMessage(stage, message),
    });
  });

  it.each(collisions)(
    'a $facet, $lookup or $unionWith sub-pipeline refuses %s',
    async (_case, stage, code, message) => {
      const coll = await emptyCollection();
      const expected = { code, message: expectedMessage(stage, message) };
      for (const outer of [
        { $facet: { out: [stage] } },
        { $lookup: { from: coll.collectionName, pipeline: [stage], as: 'joined' } },
        { $unionWith: { coll: coll.collectionName, pipeline: [stage] } },
      ]) {
        const error = await failure(() => coll.aggregate([outer]).toArray());
        expect({ code: error['code'], message: error['message'] }).toEqual(expected);
      }
    },
  );

  it.each(collisions.filter(([, stage]) => !('$project' in stage)))(
    'a pipeline-style updateOne refuses %s, matching a document or not',
    async (_case, stage, code, message) => {
      const coll = await emptyCollection();
      const refusal = async () => {
        const error = await failure(() => coll.updateOne({}, [stage]));
        return { code: error['code'], message: error['message'] };
      };
      expect(await refusal()).toEqual({ code, message });
      await coll.insertOne({ _id: 1, a: { x: 0 } });
      expect(await refusal()).toEqual({ code, message });
      expect(await coll.find().toArray()).toEqual([{ _id: 1, a: { x: 0 } }]);
    },
  );

  it.each(accepted)('accepts %s', async (_case, stage, expected) => {
    const coll = await emptyCollection();
    await coll.insertOne({ _id: 1, a: { x: 0 } });
    expect(await coll.aggregate([stage]).toArray()).toEqual([expected]);
    if ('$project' in stage) return;
    await coll.updateOne({ _id: 1 }, [stage]);
    expect(await coll.find().toArray()).toEqual([expected]);
  });
});

/** `$project` messages carry the stage's context too (DocumentSourceProject::create). */
function expectedMessage(stage: Doc, message: string): string {
  return '$project' in stage ? `Invalid $project :: caused by :: ${message}` : message;
}
