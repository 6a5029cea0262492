/**
 * The `updateDescription` of update change events, read through the official drivers. MongoDB 7.0
 * builds it from the update's `$v: 2` oplog delta (mongodb/mongo
 * src/mongo/db/pipeline/change_stream_document_diff_parser.cpp): for an operator update the delta is
 * what each modifier logs for the path it names (src/mongo/db/update/modifier_node.cpp `logUpdate`,
 * push_node.cpp, unset_node.cpp, v2_log_builder.cpp); for a pipeline update it is the diff of the two
 * documents (document_diff_calculator.cpp `computeOplogDiff`, called by pipeline_executor.cpp, which
 * logs a replacement when the diff is not smaller than the new document). `disambiguatedPaths` is
 * added with `showExpandedEvents` (change_stream_event_transform.cpp; the driver specification's
 * source/change-streams/tests/unified/change-streams-disambiguatedPaths.yml; the server's
 * jstests/change_streams/expanded_update_description.js). Manual:
 * https://www.mongodb.com/docs/manual/reference/change-events/update/.
 */
import { describe, expect, it } from 'vitest';
import type { Document } from 'mongodb';
import { connect, drivers } from '../helpers.js';

/** Long enough that a diff of the fields around it is smaller than the fields themselves. */
const BIG = '*'.repeat(128);

interface Case {
  name: string;
  doc: Document;
  update: Document | Document[];
  /** The expected updateDescription, or 'replace' when the update is reported as a replace event. */
  expected: Document | 'replace';
  expanded?: boolean;
}

const none = { removedFields: [], truncatedArrays: [] };

const cases: Case[] = [
  // modifier_node.cpp: a modifier logs the path it names with its whole new value.
  {
    name: '$set of a sub-document lists the $set path, not the fields that changed in it',
    doc: { a: { b: 0, c: 1 } },
    update: { $set: { a: { b: 1 } } },
    expected: { updatedFields: { a: { b: 1 } }, ...none },
  },
  {
    name: '$set of a whole array lists the array, even when it only grew',
    doc: { arr: [1, 2, 3] },
    update: { $set: { arr: [1, 2, 3, 4] } },
    expected: { updatedFields: { arr: [1, 2, 3, 4] }, ...none },
  },
  {
    name: '$set of a value equal to the stored one is not listed',
    doc: { a: 1, b: 1 },
    update: { $set: { a: 1, b: 2 } },
    expected: { updatedFields: { b: 2 }, ...none },
  },
  {
    // v2_log_builder.cpp: a created path is logged at its first new component.
    name: '$set creating a nested path lists its first new field with the created document',
    doc: { a: {} },
    update: { $set: { 'a.b.c': 1 } },
    expected: { updatedFields: { 'a.b': { c: 1 } }, ...none },
  },
  {
    name: '$set past the end of an array lists the element, not the nulls padding up to it',
    doc: { arr: [1, 2, 3] },
    update: { $set: { 'arr.5': 9 } },
    expected: { updatedFields: { 'arr.5': 9 }, ...none },
  },
  {
    name: '$set through an all-elements positional path lists each element changed',
    doc: { arr: [{ x: 1 }, { x: 0 }, { x: 2 }] },
    update: { $set: { 'arr.$[].x': 0 } },
    expected: { updatedFields: { 'arr.0.x': 0, 'arr.2.x': 0 }, ...none },
  },
  {
    name: '$inc on a nested path lists that path',
    doc: { a: { b: { c: 1 } } },
    update: { $inc: { 'a.b.c': 2 } },
    expected: { updatedFields: { 'a.b.c': 3 }, ...none },
  },
  // push_node.cpp: appending to a non-empty array logs each new element; anything else the array.
  {
    name: '$push appending to an array lists the new element by index',
    doc: { arr: [1, 2, 3] },
    update: { $push: { arr: 4 } },
    expected: { updatedFields: { 'arr.3': 4 }, ...none },
  },
  {
    name: '$push $each appending lists each new element by index',
    doc: { arr: [1, 2, 3] },
    update: { $push: { arr: { $each: [4, 5] } } },
    expected: { updatedFields: { 'arr.3': 4, 'arr.4': 5 }, ...none },
  },
  {
    name: '$push onto an empty array lists the whole array',
    doc: { arr: [] },
    update: { $push: { arr: 4 } },
    expected: { updatedFields: { arr: [4] }, ...none },
  },
  {
    name: '$push creating the field lists the whole array',
    doc: {},
    update: { $push: { arr: 4 } },
    expected: { updatedFields: { arr: [4] }, ...none },
  },
  {
    name: '$push with $sort lists the whole array',
    doc: { arr: [3, 1] },
    update: { $push: { arr: { $each: [2], $sort: 1 } } },
    expected: { updatedFields: { arr: [1, 2, 3] }, ...none },
  },
  {
    name: '$push with $position inside the array lists the whole array',
    doc: { arr: [1, 2] },
    update: { $push: { arr: { $each: [0], $position: 0 } } },
    expected: { updatedFields: { arr: [0, 1, 2] }, ...none },
  },
  {
    name: '$push whose $slice drops elements lists the whole array',
    doc: { arr: [1, 2] },
    update: { $push: { arr: { $each: [3], $slice: -2 } } },
    expected: { updatedFields: { arr: [2, 3] }, ...none },
  },
  // AddToSetNode (addtoset_node.cpp) keeps ModifierNode's logUpdate in 7.0: the whole array, as its
  // addtoset_node_test.cpp of that era expects (`{$v: 2, diff: {u: {a: [0, 1]}}}` for [0] + 1). Logging
  // only the appended elements (`sa: {a: true, u1: 1}`) is SERVER-72941, which came after 7.0.
  {
    name: '$addToSet lists the whole array',
    doc: { arr: [1, 2, 3] },
    update: { $addToSet: { arr: 4 } },
    expected: { updatedFields: { arr: [1, 2, 3, 4] }, ...none },
  },
  {
    name: '$addToSet with $each lists the whole array, also when it was empty',
    doc: { arr: [] },
    update: { $addToSet: { arr: { $each: [1, 2, 1] } } },
    expected: { updatedFields: { arr: [1, 2] }, ...none },
  },
  {
    name: '$addToSet on a nested array lists that array',
    doc: { o: { tags: ['a'] } },
    update: { $addToSet: { 'o.tags': 'b' } },
    expected: { updatedFields: { 'o.tags': ['a', 'b'] }, ...none },
  },
  // $pop and $pull keep ModifierNode's logUpdate: the whole array, never truncatedArrays.
  {
    name: '$pop lists the whole array, not a truncation',
    doc: { arr: [1, 2, 3] },
    update: { $pop: { arr: 1 } },
    expected: { updatedFields: { arr: [1, 2] }, ...none },
  },
  {
    name: '$pull lists the whole array',
    doc: { arr: [1, 2, 3] },
    update: { $pull: { arr: 2 } },
    expected: { updatedFields: { arr: [1, 3] }, ...none },
  },
  // unset_node.cpp: a deleted field, or the null left in an array element.
  {
    name: '$unset lists the removed field',
    doc: { a: 1, b: { c: 1, d: 2 } },
    update: { $unset: { a: '', 'b.c': '' } },
    expected: { updatedFields: {}, removedFields: ['a', 'b.c'], truncatedArrays: [] },
  },
  {
    name: '$unset of an array element lists the null it leaves',
    doc: { arr: [1, 2, 3] },
    update: { $unset: { 'arr.1': '' } },
    expected: { updatedFields: { 'arr.1': null }, ...none },
  },
  {
    name: '$rename lists the destination as updated and the source as removed',
    doc: { a: 1 },
    update: { $rename: { a: 'b' } },
    expected: { updatedFields: { b: 1 }, removedFields: ['a'], truncatedArrays: [] },
  },
  {
    name: 'a replacement update is a replace event',
    doc: { a: 1 },
    update: { b: 2 },
    expected: 'replace',
  },
  // document_diff_calculator.cpp: pipeline updates diff the documents.
  {
    name: 'a pipeline cutting an array short lists a truncated array',
    doc: { arr: [BIG, 1] },
    update: [{ $set: { arr: { $slice: ['$arr', 1] } } }],
    expected: { updatedFields: {}, removedFields: [], truncatedArrays: [{ field: 'arr', newSize: 1 }] },
  },
  {
    name: 'a pipeline changing one field of a sub-document lists that field',
    doc: { o: { big: BIG, n: 1 } },
    update: [{ $set: { 'o.n': 2 } }],
    expected: { updatedFields: { 'o.n': 2 }, ...none },
  },
  {
    name: 'a pipeline lists a sub-diff smaller than the value as the whole value',
    doc: { big: BIG, arr: [1, 2, 3] },
    update: [{ $set: { arr: { $slice: ['$arr', 1] } } }],
    expected: { updatedFields: { arr: [1] }, ...none },
  },
  {
    name: 'a pipeline $unset lists the removed field',
    doc: { big: BIG, gone: 1 },
    update: [{ $unset: ['gone'] }],
    expected: { updatedFields: {}, removedFields: ['gone'], truncatedArrays: [] },
  },
  {
    name: 'a pipeline whose diff is not smaller than the new document is a replace event',
    doc: { a: 1 },
    update: [{ $set: { a: 2 } }],
    expected: 'replace',
  },
  // change_stream_document_diff_parser.cpp: disambiguatedPaths, with showExpandedEvents only.
  {
    name: 'showExpandedEvents adds an empty disambiguatedPaths when no path is ambiguous',
    doc: { arr: [1, { b: 1 }] },
    update: { $set: { a: 2, 'arr.1.b': 3 } },
    expected: { updatedFields: { a: 2, 'arr.1.b': 3 }, ...none, disambiguatedPaths: {} },
    expanded: true,
  },
  {
    name: 'a numeric field name below the top level is disambiguated as a string',
    doc: { a: { '1': 1 } },
    update: { $set: { 'a.1': 2 } },
    expected: { updatedFields: { 'a.1': 2 }, ...none, disambiguatedPaths: { 'a.1': ['a', '1'] } },
    expanded: true,
  },
  {
    name: 'array indexes in a disambiguated path are numbers',
    doc: { a: [{ '1': 1 }] },
    update: { $set: { 'a.0.1': 2 } },
    expected: { updatedFields: { 'a.0.1': 2 }, ...none, disambiguatedPaths: { 'a.0.1': ['a', 0, '1'] } },
    expanded: true,
  },
  {
    name: 'a dotted field name is disambiguated',
    doc: { big: BIG },
    update: [{ $replaceWith: { $setField: { field: 'x.y', input: '$$ROOT', value: 1 } } }],
    expected: { updatedFields: { 'x.y': 1 }, ...none, disambiguatedPaths: { 'x.y': ['x.y'] } },
    expanded: true,
  },
  {
    name: 'without showExpandedEvents there is no disambiguatedPaths',
    doc: { a: { '1': 1 } },
    update: { $set: { 'a.1': 2 } },
    expected: { updatedFields: { 'a.1': 2 }, ...none },
  },
];

describe.each(drivers)('update event updateDescription ($name)', (driver) => {
  const t = connect(driver, 'ud');

  it.each(cases)('$name', async ({ doc, update, expected, expanded }) => {
    const coll = t.db.collection<any>('updates');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, ...doc });
    const stream = coll.watch([], { maxAwaitTimeMS: 50, ...(expanded ? { showExpandedEvents: true } : {}) });
    try {
      expect(await stream.tryNext()).toBeNull();
      const result =
        Array.isArray(update) || Object.keys(update)[0]!.startsWith('$')
          ? await coll.updateOne({ _id: 1 }, update)
          : await coll.replaceOne({ _id: 1 }, update);
      expect(result.modifiedCount).toBe(1);
      const event = await stream.next();
      if (expected === 'replace') {
        expect(event.operationType).toBe('replace');
        return;
      }
      expect(event.operationType).toBe('update');
      expect((event as Document)['updateDescription']).toStrictEqual(expected);
    } finally {
      await stream.close();
    }
  });
});
