/**
 * What a `$regex` matches besides strings, as MongoDB 7.0's RegexMatchExpression::matchesSingleElement
 * (src/mongo/db/matcher/expression_leaf.cpp) decides: a BSON symbol by its text, and a stored BSON
 * regular expression when its pattern and its options both equal the query's (`_regex == e.regex() &&
 * _flags == e.regexFlags()`); nothing else. `$in` tries its regexes the same way (InMatchExpression),
 * and `$not: /re/` is the complement.
 */
import { describe, expect, it } from 'vitest';
import * as mongodb6 from 'mongodb6';
import * as mongodb7 from 'mongodb';
import { connect, drivers } from '../helpers.js';

type Row = { _id: number; a?: unknown };

describe.each(drivers)('regex matching symbols and stored regexes ($name)', (driver) => {
  const t = connect(driver, 'regex_values');
  // Each driver serializes only the bson classes of its own major.
  const { BSONSymbol } = driver.name === 'driver 6' ? (mongodb6 as unknown as typeof mongodb7) : mongodb7;
  const { BSONRegExp } = driver.bson;

  async function filled() {
    const coll = t.db.collection<Row>('values');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, a: 'abc' },
      { _id: 2, a: new BSONSymbol('abc') },
      { _id: 3, a: new BSONRegExp('^ab', 'i') },
      { _id: 4, a: new BSONRegExp('^ab', '') },
      { _id: 5, a: ['x', new BSONSymbol('abd')] },
      { _id: 6, a: 5 },
      { _id: 7, a: new BSONRegExp('^AB', 'i') },
    ]);
    return coll;
  }

  /** The sorted `_id`s `filter` finds, with the collation when `strength` is given. */
  async function ids(filter: Record<string, unknown>, strength?: number): Promise<number[]> {
    const coll = t.db.collection<Row>('values');
    const options = strength ? { collation: { locale: 'en', strength } } : {};
    return (await coll.find(filter, options).toArray()).map((d) => d._id).sort((x, y) => x - y);
  }

  it('$regex matches symbols by their text and stored regexes by pattern and options', async () => {
    await filled();
    expect(await ids({ a: { $regex: '^ab' } })).toEqual([1, 2, 4, 5]);
    expect(await ids({ a: { $regex: '^ab', $options: 'i' } })).toEqual([1, 2, 3, 5]);
    expect(await ids({ a: new BSONRegExp('^ab', 'i') })).toEqual([1, 2, 3, 5]);
    // The pattern is compared as text: '^AB' with 'i' matches the strings too, and itself stored.
    expect(await ids({ a: new BSONRegExp('^AB', 'i') })).toEqual([1, 2, 5, 7]);
  });

  it('$in with regexes and $not of a regex follow the same rule', async () => {
    await filled();
    expect(await ids({ a: { $in: [new BSONRegExp('^ab', ''), 6] } })).toEqual([1, 2, 4, 5]);
    expect(await ids({ a: { $in: [new BSONRegExp('^abd', '')] } })).toEqual([5]);
    expect(await ids({ a: { $in: [new BSONRegExp('^ab', 'i')] } }, 2)).toEqual([1, 2, 3, 5]);
    expect(await ids({ a: { $nin: [new BSONRegExp('^ab', '')] } })).toEqual([3, 6, 7]);
    expect(await ids({ a: { $not: new BSONRegExp('^ab', '') } })).toEqual([3, 6, 7]);
    expect(await ids({ a: { $not: { $regex: '^ab', $options: 'i' } } })).toEqual([4, 6, 7]);
  });

  it('$all, $elemMatch and $pull read regexes the same way', async () => {
    await filled();
    // Untyped: the updates below write regexes into `a`.
    const coll = t.db.collection<{ _id: number; a: unknown[] }>('values');
    expect(await ids({ a: { $all: [new BSONRegExp('^abd', '')] } })).toEqual([5]);
    expect(await ids({ a: { $elemMatch: { $regex: '^ab' } } })).toEqual([5]);
    await coll.updateOne({ _id: 5 }, { $push: { a: { $each: [new BSONRegExp('^ab', ''), 'abz'] } } });
    await coll.updateOne({ _id: 5 }, { $pull: { a: new BSONRegExp('^ab', '') } });
    expect((await coll.findOne({ _id: 5 }))?.['a']).toEqual(['x']);
  });
});
