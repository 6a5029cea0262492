/**
 * Update paths with positional parts (`a.$`, `a.$[]`, `a.$[x]`) that do not resolve, for every update
 * operator, as MongoDB 7.0's update tree applies them (src/mongo/db/update/):
 *
 * - `$[]` and `$[x]` make the node at `a` an UpdateArrayNode, which runs before the operator's own
 *   leaf: UpdateArrayNode::apply (update_array_node.cpp) fails with BadValue "The path 'a' must exist
 *   in the document in order to apply array updates." when `a` is missing and "Cannot apply array
 *   updates to non-array element a: 5" when it holds anything but an array (null included), whatever
 *   the operator — `$unset`, `$pull`, `$pullAll` and `$pop` too.
 * - `$` is a child of an UpdateObjectNode, whose apply (update_object_node.cpp) fails with "The
 *   positional operator did not find the match needed from the query." when the query recorded no
 *   array position (update_stage.cpp passes MatchDetails::elemMatchKey as matchedField; an upsert's
 *   insert passes none), whatever the operator. Otherwise `$` is that position used as a field name,
 *   in whichever array or document the update's path names: applyChild then goes on as for any path,
 *   so a missing field is created by `$set` (PathCreatingNode) and left alone by `$unset`, `$pull`,
 *   `$pop` (ModifierNode::applyToNonexistentElement without allowCreation), and a scalar there is
 *   PathNotViable for `$set` but nothing for `$unset` (unset_node.cpp).
 * - Each element a positional part names then meets the operator's own checks: `$pull` of a non-array
 *   is "Cannot apply $pull to a non-array value" (array_culling_node.cpp), `$pop` of one is
 *   TypeMismatch (pop_node.cpp).
 * - `$` resolved to an index another path of the update also names is a merge conflict,
 *   "Update created a conflict at 'a.1'" (update_node.cpp, createUpdateNodeByMerging).
 *
 * The embedded engine acknowledged `$unset`/`$pull`/`$pullAll`/`$pop` of an unresolved `$[]` as no-ops,
 * refused `$` on an array the query did not name although MongoDB uses the position recorded on
 * another one, and treated a null array as missing.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

/** One valid operand per operator, so that only the path decides the answer. */
const OPERANDS: Doc = {
  $set: 0,
  $unset: '',
  $inc: 1,
  $mul: 2,
  $min: 0,
  $max: 9,
  $push: 1,
  $addToSet: 1,
  $pull: 1,
  $pullAll: [1],
  $pop: 1,
  $bit: { and: 1 },
  $currentDate: true,
};

const MISSING = "The path 'a' must exist in the document in order to apply array updates.";
const NO_MATCH = 'The positional operator did not find the match needed from the query.';

/** [stored document, filter (besides _id: 1), path, expected error message (all BadValue, 2)] */
const UNRESOLVED: [Doc, Doc, string, string][] = [
  [{}, {}, 'a.$[]', MISSING],
  [{ b: [1] }, {}, 'a.$[x]', MISSING],
  [{ a: 5 }, {}, 'a.$[]', 'Cannot apply array updates to non-array element a: 5'],
  [{ a: null }, {}, 'a.$[]', 'Cannot apply array updates to non-array element a: null'],
  [{ a: { b: 'x' } }, {}, 'a.b.$[x]', 'Cannot apply array updates to non-array element b: "x"'],
  [
    { a: [{ b: [1] }, { c: 1 }] },
    {},
    'a.$[].b.$[]',
    "The path 'a.1.b' must exist in the document in order to apply array updates.",
  ],
  [{ a: [1, 2] }, {}, 'a.$', NO_MATCH],
  // Only `$or` names the array: it matches its clauses without recording a position.
  [{ a: [1, 2] }, { $or: [{ a: 2 }, { b: 1 }] }, 'a.$', NO_MATCH],
  [{ a: [1, 2] }, { a: { $ne: 5 } }, 'a.$', NO_MATCH],
];

describe.each(drivers)('positional update paths ($name)', (driver) => {
  const t = connect(driver, 'positional_update');

  async function stored(doc: Doc): Promise<ReturnType<typeof t.db.collection<any>>> {
    const coll = t.db.collection<any>('c');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, ...doc });
    return coll;
  }

  it('refuses a positional path that does not resolve, whatever the operator, changing nothing', async () => {
    for (const [doc, filter, path, message] of UNRESOLVED) {
      for (const [op, operand] of Object.entries(OPERANDS)) {
        const coll = await stored(doc);
        const options = path.includes('$[x]') ? { arrayFilters: [{ x: 1 }] } : {};
        const error = await failure(() =>
          coll.updateOne({ _id: 1, ...filter }, { [op]: { [path]: operand } }, options),
        );
        const label = `${op} ${path} on ${JSON.stringify(doc)}`;
        expect([error['code'], error['message']], label).toEqual([2, message]);
        expect(await coll.findOne({ _id: 1 }), label).toEqual({ _id: 1, ...doc });
      }
    }
  });

  it('refuses $ in an upsert that inserts, where the query matched no document', async () => {
    const coll = await stored({});
    const error = await failure(() =>
      coll.updateOne({ _id: 2, a: 1 }, { $set: { 'a.$': 5 } }, { upsert: true }),
    );
    expect([error['code'], error['message']]).toEqual([2, NO_MATCH]);
    expect(await coll.countDocuments()).toBe(1);
  });

  // [stored, filter, update, stored afterwards, or [code, message]]
  const RESOLVED: [Doc, Doc, Doc, Doc | [number, string]][] = [
    // `$` is the position recorded on `a`, used in `b`.
    [{ a: [1, 2], b: [10, 20] }, { a: 2 }, { $set: { 'b.$': 0 } }, { a: [1, 2], b: [10, 0] }],
    [{ a: [1, 2], b: [10, 20] }, { a: 2 }, { $inc: { 'b.$': 1 } }, { a: [1, 2], b: [10, 21] }],
    [{ a: [1, 2] }, { a: 2 }, { $set: { 'b.$': 0 } }, { a: [1, 2], b: { '1': 0 } }],
    [
      { a: [1, 2], b: 5 },
      { a: 2 },
      { $set: { 'b.$': 0 } },
      [28, "Cannot create field '1' in element {b: 5}"],
    ],
    [{ a: [1, 2] }, { a: 2 }, { $unset: { 'b.$': '' } }, { a: [1, 2] }],
    [{ a: [1, 2], b: 5 }, { a: 2 }, { $unset: { 'b.$': '' } }, { a: [1, 2], b: 5 }],
    [{ a: [1, 2] }, { a: 2 }, { $pull: { 'b.$': 1 } }, { a: [1, 2] }],
    [{ a: [1, 2] }, { a: 2 }, { $pop: { 'b.$': 1 } }, { a: [1, 2] }],
    // An `$or` of equalities on one path is an `$in` (7.0's optimizer), which records the position.
    [{ a: [5, 2] }, { $or: [{ a: 2 }, { a: 3 }] }, { $set: { 'a.$': 0 } }, { a: [5, 0] }],
    [{ a: [5, 2] }, { $and: [{ a: 2 }, { b: { $exists: false } }] }, { $set: { 'a.$': 0 } }, { a: [5, 0] }],
    // Two conditions on the array record one after the other in the canonical query's order (by
    // kind: $lt before $gt), so the last, $gt, names the first element above 1.
    [{ a: [5, 2] }, { a: { $gt: 1, $lt: 4 } }, { $set: { 'a.$': 0 } }, { a: [0, 2] }],
    [{ a: [5, 2] }, { a: 2 }, { $set: { 'a.$': 0, 'a.1': 3 } }, [40, "Update created a conflict at 'a.1'"]],
    // Elements a positional part names meet the operator's checks; missing fields in them do not.
    [{ a: [1, 2] }, {}, { $unset: { 'a.$[]': '' } }, { a: [null, null] }],
    [{ a: [{ b: 1 }, 2] }, {}, { $unset: { 'a.$[].b': '' } }, { a: [{}, 2] }],
    [{ a: [[1, 2], 3] }, {}, { $pull: { 'a.$[]': 1 } }, [2, 'Cannot apply $pull to a non-array value']],
    [
      { a: [[1, 2], 3] },
      {},
      { $pullAll: { 'a.$[]': [1] } },
      [2, 'Cannot apply $pullAll to a non-array value'],
    ],
    [
      { a: [[1, 2], 3] },
      {},
      { $pop: { 'a.$[]': 1 } },
      [14, "Path 'a.1' contains an element of non-array type 'int'"],
    ],
    [{ a: [[1, 2], [1]] }, {}, { $pull: { 'a.$[]': 1 } }, { a: [[2], []] }],
  ];

  it('applies $ as the position the query recorded, then as any other path', async () => {
    for (const [doc, filter, update, expected] of RESOLVED) {
      const coll = await stored(doc);
      const label = `${JSON.stringify(update)} on ${JSON.stringify(doc)}`;
      if (Array.isArray(expected)) {
        const error = await failure(() => coll.updateOne({ _id: 1, ...filter }, update));
        expect([error['code'], error['message']], label).toEqual(expected);
        expect(await coll.findOne({ _id: 1 }), label).toEqual({ _id: 1, ...doc });
      } else {
        const result = await coll.updateOne({ _id: 1, ...filter }, update);
        expect(result.matchedCount, label).toBe(1);
        expect(await coll.findOne({ _id: 1 }), label).toEqual({ _id: 1, ...expected });
      }
    }
  });
});
