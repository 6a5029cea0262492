/**
 * `$all` as MongoDB 7.0 answers it: an `$and` of one clause per entry on the same field (manual, "$all",
 * "Equivalent to $and Operation"), so an array entry matches a field equal to that array or holding it
 * as an element ("Nested Array"), a value matches a non-array field equal to it, regexes and
 * `$elemMatch` entries are their own clauses, and no entries match nothing. Sources: the manual's $all
 * page, MongoDB's `parseAll` (src/mongo/db/matcher/expression_parser.cpp), and FerretDB's
 * integration/query_array_compat_test.go (TestQueryArrayCompatAll, whose expected empty or non-empty
 * results are MongoDB's).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Row = { _id: number; [field: string]: unknown };

describe.each(drivers)('all operator ($name)', (driver) => {
  const t = connect(driver, 'all_operator');
  const coll = (name: string) => t.db.collection<Row>(name);

  /** The sorted `_id`s of `name`'s documents that `filter` matches. */
  async function ids(
    name: string,
    filter: Record<string, unknown>,
    collation?: { locale: string; strength?: number },
  ): Promise<number[]> {
    const docs = await coll(name)
      .find(filter, collation ? { collation } : {})
      .toArray();
    return docs.map((d) => d._id).sort((a, b) => a - b);
  }

  it('matches a nested array entry as the whole field or as one of its elements', async () => {
    await coll('nested').insertMany([
      { _id: 1, tags: ['ssl', 'security'] },
      { _id: 2, tags: [['ssl', 'security'], 'x'] },
      { _id: 3, tags: ['security', 'ssl'] },
      { _id: 4, tags: [[['ssl', 'security']]] },
      { _id: 5, tags: 'ssl' },
    ]);
    // Manual, "$all", Nested Array: { tags: { $all: [["ssl", "security"]] } } is
    // { $and: [{ tags: ["ssl", "security"] }] }: tags equals the array, or holds it as an element.
    expect(await ids('nested', { tags: { $all: [['ssl', 'security']] } })).toEqual([1, 2]);
    expect(await ids('nested', { $and: [{ tags: ['ssl', 'security'] }] })).toEqual([1, 2]);
    // FerretDB TestQueryArrayCompatAll, ArrayEmbeddedReverseOrder: the order of the entry's elements counts.
    expect(await ids('nested', { tags: { $all: [['security', 'ssl']] } })).toEqual([3]);
    // Equivalent to $and: a nested array and a value must both match.
    expect(await ids('nested', { tags: { $all: [['ssl', 'security'], 'x'] } })).toEqual([2]);
  });

  it('matches nothing with no entries, and an empty array entry as an equality', async () => {
    await coll('empty').insertMany([
      { _id: 1, v: [] },
      { _id: 2, v: [[], 1] },
      { _id: 3, v: [1] },
    ]);
    // FerretDB TestQueryArrayCompatAll, Empty (emptyResult); parseAll returns AlwaysFalse for no entries.
    expect(await ids('empty', { v: { $all: [] } })).toEqual([]);
    // FerretDB TestQueryArrayCompatAll, EmptyNested (MongoDB finds documents): { v: [] } as an equality.
    expect(await ids('empty', { v: { $all: [[]] } })).toEqual([1, 2]);
  });

  it('matches a non-array field equal to the single entry', async () => {
    await coll('scalar').insertMany([
      { _id: 1, qty: 50 },
      { _id: 2, qty: [50, 60] },
      { _id: 3, qty: 60 },
    ]);
    // Manual, "$all": matched documents "contain a field with a value that is an array containing all the
    // specified elements, or a field with a single value matching the specified element".
    expect(await ids('scalar', { qty: { $all: [50] } })).toEqual([1, 2]);
    // Equivalent to $and: a single value cannot equal both entries.
    expect(await ids('scalar', { qty: { $all: [50, 60] } })).toEqual([2]);
    // FerretDB TestQueryArrayCompatAll, Nil (MongoDB finds documents): { v: null } matches a missing field.
    expect(await ids('scalar', { missing: { $all: [null] } })).toEqual([1, 2, 3]);
  });

  it('compares entries with the equality rules of the query (numbers, collation, paths)', async () => {
    await coll('rules').insertMany([
      { _id: 1, v: [5, 'Foo'], a: [{ b: 1 }, { b: 2 }] },
      { _id: 2, v: ['foo'], a: [{ b: 1 }] },
    ]);
    // expression_parser.cpp, parseAll: each entry is an EqualityMatchExpression (numbers compare by value).
    expect(await ids('rules', { v: { $all: [new driver.bson.Long(5)] } })).toEqual([1]);
    // parseAll sets the query's collator on each equality (manual, "Collation": strength 2 ignores case).
    expect(await ids('rules', { v: { $all: ['foo'] } }, { locale: 'en', strength: 2 })).toEqual([1, 2]);
    expect(await ids('rules', { v: { $all: ['foo'] } })).toEqual([2]);
    // Equivalent to $and of { 'a.b': 1 } and { 'a.b': 2 }: each clause reaches through the array.
    expect(await ids('rules', { 'a.b': { $all: [1, 2] } })).toEqual([1]);
  });

  it('takes regexes as $regex clauses', async () => {
    await coll('regex').insertMany([
      { _id: 1, tags: ['ssl', 'security'] },
      { _id: 2, tags: 'sun' },
      { _id: 3, tags: ['tls'] },
    ]);
    // expression_parser.cpp, parseAll: a regex entry is a RegexMatchExpression on the field.
    expect(await ids('regex', { tags: { $all: [/^s/] } })).toEqual([1, 2]);
    expect(await ids('regex', { tags: { $all: [/^s/, 'security'] } })).toEqual([1]);
    expect(await ids('regex', { tags: { $all: [/^S/i, /y$/] } })).toEqual([1]);
  });

  it('takes $elemMatch entries, each matched by some element', async () => {
    // Manual, "$all", Use $all with $elemMatch: the manual's query; it matches the documents with an element
    // for each $elemMatch (here 2 and 3; 1 has no "M" over 50, 4 neither).
    await coll('elem').insertMany([
      {
        _id: 1,
        qty: [
          { size: 'S', num: 10, color: 'blue' },
          { size: 'M', num: 45, color: 'blue' },
          { size: 'L', num: 100, color: 'green' },
        ],
      },
      {
        _id: 2,
        qty: [
          { size: 'S', num: 10, color: 'blue' },
          { size: 'M', num: 100, color: 'blue' },
          { size: 'L', num: 100, color: 'green' },
        ],
      },
      { _id: 3, qty: [{ size: 'M', num: 100, color: 'green' }] },
      { _id: 4, qty: [{ size: 'S', num: 10, color: 'blue' }] },
    ]);
    const filter = {
      qty: {
        $all: [{ $elemMatch: { size: 'M', num: { $gt: 50 } } }, { $elemMatch: { num: 100, color: 'green' } }],
      },
    };
    expect(await ids('elem', filter)).toEqual([2, 3]);
    // $not negates the whole conjunction (expression_parser.cpp, parseNot wraps the parsed $all).
    expect(await ids('elem', { qty: { $not: filter.qty } })).toEqual([1, 4]);
  });

  it('compares document entries field by field in stored order, inside $elemMatch too', async () => {
    // Each entry is an equality clause (parseAll), and equality with a document compares "key-value
    // pairs in the order that they appear within the BSON object" (manual, "Comparison/Sort Order").
    await coll('documents').insertMany([
      { _id: 1, d: { a: 1, b: 2 } },
      { _id: 2, d: { b: 2, a: 1 } },
      { _id: 3, d: [{ a: 1, b: 2 }, { c: 1 }] },
      { _id: 4, d: [{ b: 2, a: 1 }, { c: 1 }] },
      { _id: 5, arr: [{ l: [{ a: 1, b: 2 }] }] },
      { _id: 6, arr: [{ l: [{ b: 2, a: 1 }] }] },
    ]);
    expect(await ids('documents', { d: { $all: [{ a: 1, b: 2 }] } })).toEqual([1, 3]);
    expect(await ids('documents', { d: { $all: [{ b: 2, a: 1 }, { c: 1 }] } })).toEqual([4]);
    expect(await ids('documents', { arr: { $elemMatch: { l: { $all: [{ b: 2, a: 1 }] } } } })).toEqual([6]);
  });

  it('refuses a non-array argument and inconsistent entries with BadValue', async () => {
    const find = (filter: Record<string, unknown>) => coll('errors').find(filter).toArray();
    // expression_parser.cpp, parseAll: BadValue "$all needs an array" for any other type.
    for (const arg of [5, 'x', null, { a: 1 }]) {
      const error = await failure(() => find({ v: { $all: arg } }));
      expect({ code: error.code, message: error.message }).toEqual({
        code: 2,
        message: '$all needs an array',
      });
    }
    // expression_parser.cpp, parseAll: "$all : [ { $elemMatch : ... }, 5 ]" and "{ x : 5 }".
    for (const entries of [
      [{ $elemMatch: { a: 1 } }, 5],
      [{ $elemMatch: { a: 1 } }, { x: 5 }],
    ]) {
      const error = await failure(() => find({ v: { $all: entries } }));
      expect({ code: error.code, message: error.message }).toEqual({
        code: 2,
        message: '$all/$elemMatch has to be consistent',
      });
    }
    // expression_parser.cpp, parseAll: an operator document among plain entries.
    const error = await failure(() => find({ v: { $all: [5, { $elemMatch: { a: 1 } }] } }));
    expect({ code: error.code, message: error.message }).toEqual({
      code: 2,
      message: 'no $ expressions in $all',
    });
  });
});
