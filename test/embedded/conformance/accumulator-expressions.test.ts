/**
 * `$sum`, `$avg`, `$min`, `$max`, `$stdDevPop`, `$stdDevSamp` and `$mergeObjects` as expressions take
 * their operands as MongoDB 7.0's `ExpressionFromAccumulator::evaluate` does (expression.h): one operand
 * that evaluates to an array accumulates its elements, any other single operand accumulates itself,
 * several operands accumulate their values (manual, "$sum (aggregation)", "Use in $project Stage").
 * The embedded database refused `{ $sum: 5 }`, summed `{ $sum: [[1, 2]] }` to 0, and answered NaN for a
 * `$stdDevSamp` of one value, where `AccumulatorStdDev::getValue` answers null.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, expressionFailure, failure, typedResults } from '../helpers.js';

describe.each(drivers)('accumulators as expressions ($name)', (driver) => {
  const state = connect(driver, 'accumulator_expressions');

  it('accumulate a single operand, the elements of a single array, or several operands', async () => {
    expect(
      await typedResults(state.db, {
        sumScalar: { $sum: 5 },
        sumNested: { $sum: [[1, 2]] },
        sumMissing: { $sum: '$missing' },
        sumOperands: { $sum: [[1, 2], 3] },
        avgScalar: { $avg: 5 },
        avgNested: { $avg: [[1, 2]] },
        maxNested: { $max: [[1, 5]] },
        maxScalar: { $max: 5 },
        stdDevNested: { $stdDevPop: [[1, 3]] },
      }),
    ).toEqual({
      sumScalar: 'Int32 5',
      sumNested: 'Int32 3',
      sumMissing: 'Int32 0',
      sumOperands: 'Int32 3',
      avgScalar: 'Double 5',
      avgNested: 'Double 1.5',
      maxNested: 'Int32 5',
      maxScalar: 'Int32 5',
      stdDevNested: 'Double 1',
    });
    const [row] = await aggregateOn(
      state.db,
      [{ _id: 1, parts: [{ a: 1 }, null, { b: 2 }], one: { c: 3 } }],
      [
        {
          $project: {
            _id: 0,
            minEmpty: { $min: [[]] },
            stdDevSampOne: { $stdDevSamp: [1] },
            stdDevPopNone: { $stdDevPop: [['a']] },
            mergedArray: { $mergeObjects: '$parts' },
            mergedOne: { $mergeObjects: '$one' },
          },
        },
      ],
    );
    expect(row).toEqual({
      minEmpty: null,
      stdDevSampOne: null,
      stdDevPopNone: null,
      mergedArray: { a: 1, b: 2 },
      mergedOne: { c: 3 },
    });
  });

  it('keep their accumulator meaning in $group', async () => {
    const rows = await aggregateOn(
      state.db,
      [
        { _id: 1, n: 2, d: { a: 1 } },
        { _id: 2, n: 4, d: { b: 2 } },
      ],
      [
        {
          $group: {
            _id: null,
            sum: { $sum: '$n' },
            count: { $sum: 1 },
            max: { $max: '$n' },
            merged: { $mergeObjects: '$d' },
            sample: { $stdDevSamp: '$n' },
          },
        },
      ],
    );
    expect(rows).toEqual([
      { _id: null, sum: 6, count: 2, max: 4, merged: { a: 1, b: 2 }, sample: Math.SQRT2 },
    ]);
  });

  it('refuse the accumulators that are no expressions, and expressions as $group accumulators', async () => {
    // Expression::parseExpression: 168 "Unrecognized expression" for $push, $addToSet, $top … (only
    // accumulators) and for $sigmoid, which MongoDB 7.0 does not have.
    const coll = state.db.collection<any>('names');
    await coll.insertOne({ _id: 1, a: [1, 2] });
    for (const name of ['$push', '$addToSet', '$count', '$covariancePop', '$sigmoid']) {
      const error = await failure(() => coll.aggregate([{ $addFields: { v: { [name]: '$a' } } }]).toArray());
      expect([name, error['code'], error['message']]).toEqual([
        name,
        168,
        `Invalid $addFields :: caused by :: Unrecognized expression '${name}'`,
      ]);
    }
    // AccumulationStatement::parseAccumulationStatement: 15952 for an operator that is no accumulator.
    const group = await failure(() =>
      coll.aggregate([{ $group: { _id: null, v: { $add: [1, 2] } } }]).toArray(),
    );
    expect(group['code']).toBe(15952);
  });

  it('refuse a $mergeObjects input that is not a document (40400)', async () => {
    // AccumulatorMergeObjects::processInternal: 40400 for every non-document input.
    const error = await expressionFailure(state.db, { $mergeObjects: [{ a: 1 }, 5] });
    expect(error.code).toBe(40400);
    expect(error.message).toContain('$mergeObjects requires object inputs, but input 5 is of type int');
  });
});
