/**
 * Updates through more than one `$[]`/`$[x]`, and several such paths in one update, as MongoDB 7.0's
 * update tree applies them (src/mongo/db/update/):
 *
 * - Each `$[]`/`$[x]` is an UpdateArrayNode (update_array_node.cpp) that applies its child to every
 *   element it names, so `a.$[].$[]` reaches each element of each inner array and leaves the nesting as
 *   it is; `$unset` of an array element sets it to null (unset_node.cpp). The embedded database
 *   flattened `[[1, 2], [3]]` into `[5, 5]` for a `$set` of `a.$[].$[]`, did nothing for `a.$[].$[].b`
 *   or `a.$[x].$[y]`, and `$unset`, `$pull` and `$pop` through two levels replaced or emptied the outer
 *   elements.
 * - Paths meet when the update is parsed (UpdateObjectNode::parseAndMerge, update_object_node.cpp):
 *   `a.$[]` makes `a` an array node and `a.0` an object node, "Updating the path 'a.0' would create a
 *   conflict at 'a'". Two array filters under one array node are fine, `a.$[].c` beside `a.$[x].b`
 *   (the embedded database refused this), until an element both name gets the same field twice: then
 *   merging them fails with "Update created a conflict at 'a.0.b'" (UpdateNode::createUpdateNodeByMerging).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('updates through nested array operators ($name)', (driver) => {
  const t = connect(driver, 'nested_positional');

  async function after(doc: any, update: any, arrayFilters?: any[]): Promise<any> {
    const coll = t.db.collection<any>('nested');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, ...doc });
    const result = await coll.updateOne({ _id: 1 }, update, arrayFilters ? { arrayFilters } : {});
    const { _id, ...rest } = (await coll.findOne({ _id: 1 }))!;
    return { modified: result.modifiedCount, ...rest };
  }

  it('applies $set through every level it names, keeping the nesting', async () => {
    expect(await after({ a: [[1, 2], [3]] }, { $set: { 'a.$[].$[]': 5 } })).toEqual({
      modified: 1,
      a: [[5, 5], [5]],
    });
    expect(await after({ a: [[], [1]] }, { $set: { 'a.$[].$[]': 0 } })).toEqual({
      modified: 1,
      a: [[], [0]],
    });
    expect(await after({ a: [[{ b: 1 }, { c: 1 }]] }, { $set: { 'a.$[].$[].b': 2 } })).toEqual({
      modified: 1,
      a: [[{ b: 2 }, { c: 1, b: 2 }]],
    });
    expect(
      await after(
        {
          a: [
            [1, 2],
            [3, 4],
          ],
        },
        { $set: { 'a.$[x].$[y]': 0 } },
        [{ x: 3 }, { y: { $gt: 3 } }],
      ),
    ).toEqual({
      modified: 1,
      a: [
        [1, 2],
        [3, 0],
      ],
    });
  });

  it('applies $unset, $pull and $pop to each inner element', async () => {
    expect(await after({ a: [[1, 2], [3]] }, { $unset: { 'a.$[].$[]': '' } })).toEqual({
      modified: 1,
      a: [[null, null], [null]],
    });
    expect(await after({ a: [[[1, 2]], [[2]]] }, { $pull: { 'a.$[].$[]': 2 } })).toEqual({
      modified: 1,
      a: [[[1]], [[]]],
    });
    expect(await after({ a: [[[1, 2]], [[3]]] }, { $pop: { 'a.$[].$[]': -1 } })).toEqual({
      modified: 1,
      a: [[[2]], [[]]],
    });
  });

  it('applies two array filters under one array to different fields of an element', async () => {
    expect(
      await after({ a: [{ b: 1 }, { b: 2 }] }, { $set: { 'a.$[].c': 5, 'a.$[x].b': 6 } }, [{ 'x.b': 1 }]),
    ).toEqual({
      modified: 1,
      a: [
        { b: 6, c: 5 },
        { b: 2, c: 5 },
      ],
    });
  });

  it('refuses paths that meet, when parsed or on an element two array filters name', async () => {
    const error = await failure(() =>
      after({ a: [{ b: 1 }] }, { $set: { 'a.$[].b': 5, 'a.$[x].b': 6 } }, [{ 'x.b': 1 }]),
    );
    expect([error.code, error.message]).toEqual([40, "Update created a conflict at 'a.0.b'"]);
    const parsed = await failure(() => after({ a: [1, 2] }, { $set: { 'a.$[]': 5, 'a.0': 6 } }));
    expect([parsed.code, parsed.message]).toEqual([
      40,
      "Updating the path 'a.0' would create a conflict at 'a'",
    ]);
    // No element is named by both filters: no conflict.
    expect(
      await after({ a: [{ b: 1 }, { b: 2 }] }, { $set: { 'a.$[x].b': 5, 'a.$[y].b': 6 } }, [
        { 'x.b': 1 },
        { 'y.b': 2 },
      ]),
    ).toEqual({ modified: 1, a: [{ b: 5 }, { b: 6 }] });
  });
});
