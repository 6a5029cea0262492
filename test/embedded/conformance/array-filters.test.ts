/**
 * `arrayFilters` are parsed as MongoDB 7.0 parses them, before any document is read
 * (src/mongo/db/ops/parsed_update_array_filters.cpp; ExpressionWithPlaceholder::make in
 * src/mongo/db/matcher/expression_with_placeholder.cpp): each filter is over one identifier, the first
 * part of its paths, also inside `$and`/`$or`/`$nor`; it must match `^[a-z][a-zA-Z0-9]*$` (BadValue,
 * jstests/core/write/update/update_arrayFilters.js updates `a.$[I]`), and two filters may not share
 * one (FailedToParse). A `$[x]` naming no filter is BadValue when the update is parsed
 * (UpdateObjectNode::parseAndMerge). The embedded database took an identifier such as `I` or `1x`
 * (mingo had refused it with its own message before the engine resolved `$[x]` itself), and refused a
 * filter over `x` written as `{ $or: [{ 'x.a': 1 }, { x: 2 }] }`.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

describe.each(drivers)('arrayFilters parsing ($name)', (driver) => {
  const t = connect(driver, 'array_filters');

  async function update(doc: Doc, u: Doc, arrayFilters: Doc[]): Promise<Doc> {
    const coll = t.db.collection<any>('filters');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, ...doc });
    await coll.updateOne({ _id: 1 }, u, { arrayFilters });
    return (await coll.findOne({ _id: 1 }))!;
  }

  it('refuses a filter that is over no identifier, two, a malformed or a repeated one', async () => {
    const cases: [Doc, Doc[], number, string][] = [
      [
        { 'a.$[I]': 1 },
        [{ I: 0 }],
        2,
        "Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found 'I'",
      ],
      [
        { 'a.$[i]': 1 },
        [{ i: 0, j: 0 }],
        9,
        "Error parsing array filter :: caused by :: Expected a single top-level field name, found 'i' and 'j'",
      ],
      [{ 'a.$[i]': 1 }, [{}], 9, 'Cannot use an expression without a top-level field name in arrayFilters'],
      [
        { 'a.$[i]': 1 },
        [{ i: 0 }, { i: 1 }],
        9,
        'Found multiple array filters with the same top-level field name i',
      ],
      [
        { 'a.$[i]': 1, 'b.$[j]': 1 },
        [{ i: 0 }],
        2,
        "No array filter found for identifier 'j' in path 'b.$[j]'",
      ],
    ];
    for (const [set, arrayFilters, code, message] of cases) {
      const error = await failure(() => update({ a: [0, 1] }, { $set: set }, arrayFilters));
      expect([error.code, error.message]).toEqual([code, message]);
    }
    // Parsed before any document is read: nothing needs to match.
    const coll = t.db.collection<any>('filters');
    const error = await failure(() =>
      coll.updateOne({ _id: 'none' }, { $set: { 'a.$[x]': 1 } }, { arrayFilters: [{ X: 1 }] }),
    );
    expect(error.code).toBe(2);
  });

  it('finds the identifier of a filter inside $and, $or and $nor', async () => {
    expect(
      await update({ a: [{ b: 1 }, { b: 2 }, { b: 3 }] }, { $set: { 'a.$[x].c': true } }, [
        { $or: [{ 'x.b': 1 }, { 'x.b': 3 }] },
      ]),
    ).toEqual({ _id: 1, a: [{ b: 1, c: true }, { b: 2 }, { b: 3, c: true }] });
  });
});
