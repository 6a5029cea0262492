/**
 * The set expressions as MongoDB 7.0 evaluates them (src/mongo/db/pipeline/expression.cpp,
 * ExpressionSetUnion / SetIntersection / SetDifference / SetEquals / SetIsSubset): elements are equal
 * by MongoDB's value comparison (manual, "Comparison/Sort Order": numbers of any type compare by value;
 * objects compare "key-value pairs in the order that they appear"), `$setUnion` and
 * `$setIntersection` gather into an ordered value set (ascending BSON order), `$setDifference` keeps the
 * first operand's order, null or missing operands give null where the source checks `nullish()`, and
 * other non-arrays fail with the codes and messages of the source's uasserts (17042–17049).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, expressionFailure } from '../helpers.js';

type Doc = Record<string, any>;

describe.each(drivers)('set expressions ($name)', (driver) => {
  const t = connect(driver, 'set_expressions');
  const { Long, Decimal128 } = driver.bson;

  async function evaluate(fields: Doc, collation?: { locale: string; strength?: number }): Promise<Doc> {
    const coll = t.db.collection<any>('one');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1 });
    const [row] = await coll
      .aggregate([{ $project: { _id: 0, ...fields } }], collation ? { collation } : {})
      .toArray();
    return row!;
  }

  it('counts documents with the same fields in another order as different elements', async () => {
    const ab = { a: 1, b: 2 };
    const ba = { b: 2, a: 1 };
    expect(
      await evaluate({
        union: { $setUnion: [{ $literal: [ab] }, { $literal: [ba] }] },
        intersection: { $setIntersection: [{ $literal: [ab] }, { $literal: [ba] }] },
        difference: { $setDifference: [{ $literal: [ab, ba] }, { $literal: [ba] }] },
        equals: { $setEquals: [{ $literal: [ab] }, { $literal: [ba] }] },
        subset: { $setIsSubset: [{ $literal: [ba] }, { $literal: [ab] }] },
      }),
    ).toEqual({ union: [ab, ba], intersection: [], difference: [ab], equals: false, subset: false });
  });

  it('counts numbers of different types with one value as one element, the first kept', async () => {
    expect(
      await evaluate({
        union: { $size: { $setUnion: [[1, Long.fromNumber(1), 1.0, Decimal128.fromString('1.00')], [2]] } },
        firstType: { $type: { $arrayElemAt: [{ $setUnion: [[Long.fromNumber(1), 1]] }, 0] } },
        equals: {
          $setEquals: [
            [1, 2],
            [Long.fromNumber(2), Decimal128.fromString('1')],
          ],
        },
        subset: { $setIsSubset: [[1.0], [Long.fromNumber(1)]] },
        difference: { $setDifference: [[1, 2, 3], [Decimal128.fromString('2.0')]] },
      }),
    ).toEqual({ union: 2, firstType: 'long', equals: true, subset: true, difference: [1, 3] });
  });

  it('returns $setUnion and $setIntersection in BSON order, $setDifference in its first operand’s', async () => {
    expect(
      await evaluate({
        union: {
          $setUnion: [
            ['rose', 'orchid'],
            ['jasmine', 3, 1, 'rose'],
          ],
        },
        intersection: {
          $setIntersection: [
            ['c', 'b', 'a', 2],
            ['a', 'c', 2, 'x'],
          ],
        },
        difference: { $setDifference: [['z', 'b', 'a', 'b'], ['a']] },
      }),
    ).toEqual({
      union: [1, 3, 'jasmine', 'orchid', 'rose'],
      intersection: [2, 'a', 'c'],
      difference: ['z', 'b'],
    });
  });

  it('gives null for a null or missing operand where MongoDB checks nullish()', async () => {
    expect(
      await evaluate({
        union: { $setUnion: [[1], null] },
        intersection: { $setIntersection: [[1], '$missing'] },
        // The intersection is empty after the first operand: MongoDB reads no further.
        emptyFirst: { $setIntersection: [[], '$missing'] },
        difference: { $setDifference: [null, [1]] },
        none: { $setIntersection: [] },
      }),
    ).toEqual({ union: null, intersection: null, emptyFirst: [], difference: null, none: [] });
  });

  it('compares strings under the operation’s collation', async () => {
    expect(
      await evaluate(
        {
          union: {
            $size: {
              $setUnion: [
                ['a', 'B'],
                ['A', 'b'],
              ],
            },
          },
          equals: { $setEquals: [['a'], ['A']] },
        },
        { locale: 'en', strength: 2 },
      ),
    ).toEqual({ union: 2, equals: true });
  });

  it.each([
    [
      { $setUnion: [[1], 5] },
      17043,
      'All operands of $setUnion must be arrays. One argument is of type: int',
    ],
    [
      { $setIntersection: [[1], true] },
      17047,
      'All operands of $setIntersection must be arrays. One argument is of type: bool',
    ],
    [
      { $setEquals: [[1], '$missing'] },
      17044,
      'All operands of $setEquals must be arrays. One argument is of type: missing',
    ],
    [
      { $setDifference: ['x', []] },
      17048,
      'both operands of $setDifference must be arrays. First argument is of type: string',
    ],
    [
      { $setDifference: [[], 2.5] },
      17049,
      'both operands of $setDifference must be arrays. Second argument is of type: double',
    ],
    [
      { $setIsSubset: [null, []] },
      17046,
      'both operands of $setIsSubset must be arrays. First argument is of type: null',
    ],
    [
      { $setIsSubset: [[], { $literal: {} }] },
      17042,
      'both operands of $setIsSubset must be arrays. Second argument is of type: object',
    ],
  ])('%j fails with %i', async (expression, code, message) => {
    const error = await expressionFailure(t.db, expression);
    expect([error['code'], error['message']]).toEqual([code, message]);
  });
});
