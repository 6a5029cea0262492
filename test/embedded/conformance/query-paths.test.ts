/**
 * Filter paths through arrays as MongoDB 7.0's matcher walks them (ElementPath, BSONElementIterator in
 * src/mongo/db/matcher/path.cpp, getFieldDottedOrArray in path_internal.cpp): a field name steps through
 * one array level into its documents and never into an array nested in an array; a numeric part both
 * indexes an array and names a field of its documents; an array at the end of the path is tried element
 * by element (nested arrays whole) and whole, except by `$size` and `$elemMatch`, which take it whole
 * (ArrayMatchingMatchExpression: LeafArrayBehavior::kNoTraversal, expression_array.h). Negations
 * (`$ne`, `$nin`, `$not`, `$nor`, `$exists: false`) are the exact complements.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Row = { _id: number; [field: string]: unknown };

describe.each(drivers)('filter paths through nested arrays ($name)', (driver) => {
  const t = connect(driver, 'query_paths');
  const coll = (name: string) => t.db.collection<Row>(name);
  /** `$pull` of `condition` from `a` in document `_id`, then that document's `a`. */
  async function pulled(id: number, condition: unknown): Promise<unknown> {
    const update: Record<string, unknown> = { $pull: { a: condition } };
    await coll('pull').updateOne({ _id: id }, update);
    return (await coll('pull').findOne({ _id: id }))?.['a'];
  }

  /** The sorted `_id`s of `name`'s documents that `filter` matches. */
  async function ids(name: string, filter: Record<string, unknown>, strength?: number): Promise<number[]> {
    const options = strength ? { collation: { locale: 'en', strength } } : {};
    const docs = await coll(name).find(filter, options).toArray();
    return docs.map((d) => d._id).sort((a, b) => a - b);
  }

  /** Documents whose arrays hold arrays, beside the ordinary shapes the same paths reach. */
  const NESTED: Row[] = [
    { _id: 1, a: [[1, 2], 3] },
    { _id: 2, a: [{ b: 2 }] },
    { _id: 3, a: [[{ b: 2 }]] },
    { _id: 4, a: [[5]] },
    { _id: 5, a: { b: 2 } },
    { _id: 6, a: [{ b: [2, 3] }] },
  ];
  const ALL = NESTED.map((d) => d._id);
  const without = (matched: number[]): number[] => ALL.filter((id) => !matched.includes(id));

  async function nested(name: string): Promise<void> {
    await coll(name).insertMany(NESTED.map((d) => ({ ...d })));
  }

  it('does not enter an array nested in an array for a field name', async () => {
    await nested('field');
    // path.cpp: the array at `a` is stepped through once; its element [1, 2] (or [{ b: 2 }]) is an
    // array, not a document, so 'a.b' reaches nothing in it; { b: 2 }, a: { b: 2 } and b's [2, 3] do.
    expect(await ids('field', { 'a.b': 2 })).toEqual([2, 5, 6]);
    expect(await ids('field', { 'a.b': { $gt: 0 } })).toEqual([2, 5, 6]);
    expect(await ids('field', { 'a.b': { $gte: 2, $lte: 2 } })).toEqual([2, 5, 6]);
    expect(await ids('field', { 'a.b': { $in: [2, 99] } })).toEqual([2, 5, 6]);
    expect(await ids('field', { 'a.b': { $all: [2] } })).toEqual([2, 5, 6]);
    expect(await ids('field', { 'a.b': { $type: 'number' } })).toEqual([2, 5, 6]);
    expect(await ids('field', { 'a.b': { $mod: [2, 0] } })).toEqual([2, 5, 6]);
    expect(await ids('field', { 'a.b': { $bitsAllSet: 2 } })).toEqual([2, 5, 6]);
    // ExistsMatchExpression matches any element the path yields: none comes out of [[5]] for 'a.x'.
    expect(await ids('field', { 'a.x': { $exists: true } })).toEqual([]);
    expect(await ids('field', { 'a.b': { $exists: true } })).toEqual([2, 5, 6]);
    // Only stored fields: an array's length and an object's inherited names are none.
    expect(await ids('field', { 'a.length': 2 })).toEqual([]);
    expect(await ids('field', { 'a.constructor': { $exists: true } })).toEqual([]);
    // Manual, "$size": the array the path reaches; b's [2, 3] in 6, nothing in 3's [[{ b: 2 }]].
    expect(await ids('field', { 'a.b': { $size: 2 } })).toEqual([6]);
    expect(await ids('field', { 'a.b': { $elemMatch: { $eq: 3 } } })).toEqual([6]);
    // A $match after another stage is run by the aggregation, with the same paths.
    const matched = await coll('field')
      .aggregate<Row>([{ $sort: { _id: 1 } }, { $match: { 'a.b': 2 } }])
      .toArray();
    expect(matched.map((d) => d._id)).toEqual([2, 5, 6]);
  });

  it('negates exactly: $ne, $nin, $not, $nor and $exists: false are the complements', async () => {
    await nested('negations');
    const equal = await ids('negations', { 'a.b': 2 });
    // Manual, "$ne": "documents where the value of the field is not equal to the specified value",
    // including documents that do not contain the field; $nin and $not are NOT of $in and the operator.
    expect(await ids('negations', { 'a.b': { $ne: 2 } })).toEqual(without(equal));
    expect(await ids('negations', { 'a.b': { $nin: [2] } })).toEqual(without(equal));
    expect(await ids('negations', { 'a.b': { $not: { $gt: 0 } } })).toEqual(without(equal));
    expect(await ids('negations', { $nor: [{ 'a.b': 2 }] })).toEqual(without(equal));
    expect(await ids('negations', { 'a.x': { $exists: false } })).toEqual(ALL);
    expect(await ids('negations', { 'a.b': { $not: { $size: 2 } } })).toEqual(without([6]));
  });

  it('counts, deletes and updates only the documents MongoDB matches', async () => {
    await nested('writes');
    expect(await coll('writes').countDocuments({ 'a.b': 2 })).toBe(3);
    expect(await coll('writes').countDocuments({ 'a.x': { $exists: true } })).toBe(0);
    const updated = await coll('writes').updateMany({ 'a.b': { $gt: 0 } }, { $set: { hit: true } });
    expect(updated.matchedCount).toBe(3);
    expect(await ids('writes', { hit: true })).toEqual([2, 5, 6]);
    const none = await coll('writes').updateMany({ 'a.x': { $exists: true } }, { $set: { x: 1 } });
    expect(none.matchedCount).toBe(0);
    const deleted = await coll('writes').deleteMany({ 'a.b': 2 });
    expect(deleted.deletedCount).toBe(3);
    expect(await ids('writes', {})).toEqual([1, 3, 4]);
    expect((await coll('writes').findOne({ _id: 1 }))?.['a']).toEqual([[1, 2], 3]);
  });

  it('matches an array at the end of the path by its elements and whole, nested arrays only whole', async () => {
    await nested('leaf');
    // Manual, "Query an Array": { tags: "red" } matches an array holding "red", { tags: [...] } the
    // whole array; path.cpp yields each element of the leaf array, then the array, and no deeper.
    expect(await ids('leaf', { a: 3 })).toEqual([1]);
    expect(await ids('leaf', { a: 1 })).toEqual([]);
    expect(await ids('leaf', { a: [1, 2] })).toEqual([1]);
    expect(await ids('leaf', { a: [[1, 2], 3] })).toEqual([1]);
    expect(await ids('leaf', { a: { $in: [[5], 7] } })).toEqual([4]);
    expect(await ids('leaf', { a: { $gt: 4 } })).toEqual([]);
    expect(await ids('leaf', { a: { $type: 'array' } })).toEqual([1, 2, 3, 4, 6]);
    // $size and $elemMatch take the leaf array whole: [[1, 2], 3] has two elements, [[5]] one.
    expect(await ids('leaf', { a: { $size: 2 } })).toEqual([1]);
    expect(await ids('leaf', { a: { $size: 1 } })).toEqual([2, 3, 4, 6]);
    // ElemMatchValueMatchExpression tests each element itself (matchesSingleElement): [5] is not > 4.
    expect(await ids('leaf', { a: { $elemMatch: { $gt: 4 } } })).toEqual([]);
    expect(await ids('leaf', { a: { $elemMatch: { $gte: 3 } } })).toEqual([1]);
    // ElemMatchObjectMatchExpression tests elements that are documents or arrays (isABSONObj): [{ b: 2 }]
    // in 3 has no field b, [5] in 4 has a field "0".
    expect(await ids('leaf', { a: { $elemMatch: { b: 2 } } })).toEqual([2, 6]);
    expect(await ids('leaf', { a: { $elemMatch: { 0: 5 } } })).toEqual([4]);
  });

  it('reads a numeric part as an index and as a field name of the array documents', async () => {
    await coll('index').insertMany([
      { _id: 1, a: [{ b: 1 }, { b: 2 }] },
      { _id: 2, a: [{ 0: 'x' }] },
      { _id: 3, a: [5, { 0: 7 }] },
      { _id: 4, a: [[{ b: 1 }]] },
      { _id: 5, a: [[1, 2], 3] },
      { _id: 6, a: [1, 2] },
      { _id: 7, a: { 0: { b: 2 } } },
    ]);
    // Manual, "Query an Array of Embedded Documents", "Use the Array Index to Query for a Field in the
    // Embedded Document": 'instock.0.qty' reads the first element's field only.
    expect(await ids('index', { 'a.0.b': 1 })).toEqual([1, 4]);
    expect(await ids('index', { 'a.0.b': 2 })).toEqual([7]);
    expect(await ids('index', { 'a.1.b': 2 })).toEqual([1]);
    // Manual, "Query an Array", "Query for an Element by the Array Index Position".
    expect(await ids('index', { 'a.1': 2 })).toEqual([6]);
    // path.cpp: a document element is walked with the numeric part as a field name, and the element at
    // that index is the value itself: 'a.0' reaches 'x' in 2, 5 and { 0: 7 } in 3.
    expect(await ids('index', { 'a.0': 'x' })).toEqual([2]);
    expect(await ids('index', { 'a.0': 7 })).toEqual([3]);
    expect(await ids('index', { 'a.0': 5 })).toEqual([3]);
    expect(await ids('index', { 'a.0': { 0: 'x' } })).toEqual([2]);
    // The element an index reaches is taken whole, even an array: [1, 2] is not 1.
    expect(await ids('index', { 'a.0': 1 })).toEqual([6]);
    expect(await ids('index', { 'a.0': [1, 2] })).toEqual([5]);
    expect(await ids('index', { 'a.0': { $size: 2 } })).toEqual([5]);
    expect(await ids('index', { 'a.0.1': 2 })).toEqual([5]);
    // MongoDB cannot index 'a.0' while an array holds both an element 0 and a document with a field "0"
    // (16746, btree_key_generator.cpp _extractNextElement); without those, the index changes no answer.
    expect((await failure(() => coll('index').createIndex({ 'a.0': 1 })))['code']).toBe(16746);
    await coll('index').deleteMany({ _id: { $in: [2, 3] } });
    await coll('index').createIndex({ 'a.0': 1 });
    expect(await ids('index', { 'a.0': 1 })).toEqual([6]);
    expect(await ids('index', { 'a.0': { $in: [1, [1, 2]] } })).toEqual([5, 6]);
    expect(await ids('index', { 'a.0.b': 2 })).toEqual([7]);
  });

  it('answers jstests/core/match_numeric_components.js: numeric parts over every nesting of 42', async () => {
    // The test's documents: `a` is 42 under every combination of arrays and fields named "0".
    const shapes = [
      42,
      [42],
      { 0: 42 },
      [[42]],
      [{ 0: 42 }],
      { 0: [42] },
      { 0: { 0: 42 } },
      [[[42]]],
      [[{ 0: 42 }]],
      [{ 0: [42] }],
      [{ 0: { 0: 42 } }],
      { 0: [[42]] },
      { 0: [{ 0: 42 }] },
      { 0: { 0: [42] } },
      { 0: { 0: { 0: 42 } } },
      [[[[42]]]],
      [[[{ 0: 42 }]]],
      [[{ 0: [42] }]],
      [[{ 0: { 0: 42 } }]],
      [{ 0: [[42]] }],
      [{ 0: [{ 0: 42 }] }],
      [{ 0: { 0: [42] } }],
      [{ 0: { 0: { 0: 42 } } }],
      { 0: [[[42]]] },
      { 0: [[{ 0: 42 }]] },
      { 0: [{ 0: [42] }] },
      { 0: [{ 0: { 0: 42 } }] },
      { 0: { 0: [[42]] } },
      { 0: { 0: [{ 0: 42 }] } },
      { 0: { 0: { 0: [42] } } },
      { 0: { 0: { 0: { 0: 42 } } } },
    ];
    await coll('numeric').insertMany(shapes.map((a, _id) => ({ _id, a })));
    const every = shapes.map((_, id) => id);
    // The answers the jstest asserts for each query.
    const first = [1, 2, 4, 5, 9];
    expect(await ids('numeric', { 'a.0': 42 })).toEqual(first);
    expect(await ids('numeric', { 'a.0': { $gt: 41 } })).toEqual(first);
    expect(await ids('numeric', { 'a.0': { $in: [41, 42, 43] } })).toEqual(first);
    expect(await ids('numeric', { 'a.0': { $all: [42] } })).toEqual(first);
    expect(await ids('numeric', { 'a.0': { $type: 'number' } })).toEqual(first);
    expect(await ids('numeric', { 'a.0': { $mod: [42, 0] } })).toEqual(first);
    expect(await ids('numeric', { $or: [{ 'a.0': 42 }, { notARealField: 123 }] })).toEqual(first);
    const rest = every.filter((id) => !first.includes(id));
    expect(await ids('numeric', { 'a.0': { $ne: 42 } })).toEqual(rest);
    expect(await ids('numeric', { 'a.0': { $nin: [41, 42, 43] } })).toEqual(rest);
    expect(await ids('numeric', { 'a.0.0': 42 })).toEqual([3, 4, 5, 6, 8, 9, 10, 12, 13, 17, 20, 21, 25]);
    expect(await ids('numeric', { 'a.0': { $all: [{ $elemMatch: { 0: 42 } }] } })).toEqual([
      7, 8, 11, 12, 15, 17, 19, 20, 23, 25,
    ]);
    await coll('numeric_regex').insertMany([
      { _id: 1, b: 'hello' },
      { _id: 2, b: { 0: 'hello' } },
      { _id: 3, b: ['hello', 'abc', 'abc'] },
    ]);
    expect(await ids('numeric_regex', { 'b.0': { $regex: 'hello' } })).toEqual([2, 3]);
    expect(await ids('numeric_regex', { 'b.0': { $all: [/^hello/] } })).toEqual([2, 3]);
  });

  it('matches null where a document of the array lacks the field, not where an array holds no document', async () => {
    await coll('nulls').insertMany([
      { _id: 1, a: [{ b: 5 }] },
      { _id: 2, a: [{}] },
      { _id: 3, a: [] },
      { _id: 4, a: [{}, { b: 5 }] },
      { _id: 5, a: [5, { b: 5 }] },
      { _id: 6, a: [[{}]] },
    ]);
    // jstests/core/dotted_path_in_null.js (and null2.js): { 'a.b': null } and { 'a.b': { $in: [null] } }
    // match _id 2 and 4 only; [[{}]] holds no document at 'a'.
    expect(await ids('nulls', { 'a.b': null })).toEqual([2, 4]);
    expect(await ids('nulls', { 'a.b': { $in: [null] } })).toEqual([2, 4]);
    expect(await ids('nulls', { 'a.b': { $ne: null } })).toEqual([1, 3, 5, 6]);
  });

  it('applies a collation to the values the path reaches, and only to those', async () => {
    await coll('collation').insertMany([
      { _id: 1, a: [['X']] },
      { _id: 2, a: [{ b: 'X' }] },
      { _id: 3, a: [[{ b: 'X' }]] },
    ]);
    expect(await ids('collation', { 'a.b': 'x' }, 2)).toEqual([2]);
    expect(await ids('collation', { 'a.b': { $in: ['x'] } }, 2)).toEqual([2]);
    expect(await ids('collation', { a: 'x' }, 2)).toEqual([]);
    expect(await ids('collation', { a: ['x'] }, 2)).toEqual([1]);
    expect(await ids('collation', { 'a.b': /x/i })).toEqual([2]);
    expect(await ids('collation', { a: /x/i })).toEqual([]);
  });

  it('pulls by the same rules: a value compares whole, an operator condition reads the element', async () => {
    await coll('pull').insertMany([
      { _id: 1, a: [[5], 5, 6] },
      { _id: 2, a: [[1, 7], 5, 6] },
      { _id: 3, a: [{ b: [[2]] }, { b: 2 }, { b: [2] }] },
    ]);
    // pull_node.cpp: a value is an EqualityMatcher (the element compared whole), so [5] stays.
    expect(await pulled(1, 5)).toEqual([[5], 6]);
    // An operator condition is a WrappedObjectMatcher: the element wrapped as { '': element }, so an
    // array element's elements count ([1, 7] holds 7).
    expect(await pulled(2, { $gte: 6 })).toEqual([5]);
    // A query is an ObjectMatcher on each document element: b's [[2]] holds no 2.
    expect(await pulled(3, { b: 2 })).toEqual([{ b: [[2]] }]);
  });
});
