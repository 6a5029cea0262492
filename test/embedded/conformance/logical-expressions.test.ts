/**
 * The boolean expressions and `$filter`'s `cond` take MongoDB 7.0's truth: `Value::coerceToBool` makes
 * false, null, missing and the zero of every number type false, everything else (empty strings and
 * arrays too) true (src/mongo/db/pipeline/expression.cpp, `ExpressionAnd::evaluate`, `ExpressionNot`,
 * `ExpressionAllElementsTrue`, `ExpressionFilter::evaluate`). The embedded database took mingo's, which
 * told `NumberLong(0)` and `NumberDecimal(0)` true and `''` false in `$not`.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, expressionFailure } from '../helpers.js';

describe.each(drivers)('logical expressions ($name)', (driver) => {
  const state = connect(driver, 'logical_expressions');
  const { Long, Decimal128 } = driver.bson;

  it('read the zeros of every number type as false and every string as true', async () => {
    const zeroLong = { $literal: new Long(0) };
    const zeroDecimal = { $literal: new Decimal128('0') };
    const coll = state.db.collection<any>('truth');
    await coll.insertOne({ _id: 1 });
    const [row] = await coll
      .aggregate([
        {
          $project: {
            _id: 0,
            andLong: { $and: [true, zeroLong] },
            orDecimal: { $or: [zeroDecimal, null] },
            notLong: { $not: [zeroLong] },
            notEmptyString: { $not: [''] },
            notEmptyArray: { $not: [[]] },
            all: { $allElementsTrue: [[1, '', zeroDecimal]] },
            any: { $anyElementTrue: [[zeroLong, zeroDecimal, 0, null]] },
          },
        },
      ])
      .toArray();
    expect(row).toEqual({
      andLong: false,
      orDecimal: false,
      notLong: true,
      notEmptyString: false,
      notEmptyArray: false,
      all: false,
      any: false,
    });
  });

  it('keep the elements whose $filter cond is true and take a limit of any integral type', async () => {
    const coll = state.db.collection<any>('filtered');
    await coll.insertOne({ _id: 1, flags: [new Long(0), new Long(2), new Decimal128('0'), '', 1] });
    const [row] = await coll
      .aggregate([
        {
          $project: {
            _id: 0,
            kept: { $filter: { input: '$flags', cond: '$$this' } },
            limited: { $filter: { input: '$flags', cond: '$$this', limit: new Long(2) } },
            noLimit: { $filter: { input: [1, 2], cond: true, limit: null } },
          },
        },
      ])
      .toArray();
    expect(row).toEqual({ kept: [2, '', 1], limited: [2, ''], noLimit: [1, 2] });
  });

  it('refuse what MongoDB refuses, with its codes', async () => {
    // ExpressionAllElementsTrue/AnyElementTrue: 17040/17041 for anything but an array, null too.
    expect((await expressionFailure(state.db, { $allElementsTrue: [null] })).code).toBe(17040);
    expect((await expressionFailure(state.db, { $anyElementTrue: 'x' })).code).toBe(17041);
    // ExpressionFilter::evaluate: 28651 for a non-array input, 327391/327392 for a bad limit.
    expect((await expressionFailure(state.db, { $filter: { input: 'x', cond: true } })).code).toBe(28651);
    const fraction = await expressionFailure(state.db, { $filter: { input: [1], cond: true, limit: 1.5 } });
    expect(fraction.code).toBe(327391);
    const zero = await expressionFailure(state.db, { $filter: { input: [1], cond: true, limit: 0 } });
    expect(zero.code).toBe(327392);
  });
});
