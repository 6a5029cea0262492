/**
 * `$bitAnd`, `$bitOr`, `$bitXor` and `$bitNot` take ints and longs and answer an int while every operand
 * is an int, a long once one is a long (manual, "$bitAnd (aggregation)": its `switches` examples;
 * expression.cpp `evaluateBitwiseOp`: 14 "… only supports int and long operands.";
 * `ExpressionBitNot`: 28765 for a non-number, 14 for a double). mingo refused every long.
 */
import { describe, expect, it } from 'vitest';
import { aggregateOn, connect, drivers, expressionFailure, typedResults } from '../helpers.js';

describe.each(drivers)('bitwise expressions ($name)', (driver) => {
  const state = connect(driver, 'bit_expressions');
  const { Long, Int32, Double } = driver.bson;

  it("answer the manual's examples with its types", async () => {
    const switches = [
      { _id: 0, a: new Int32(0), b: new Int32(127) },
      { _id: 1, a: new Int32(2), b: new Int32(3) },
      { _id: 2, a: new Int32(3), b: new Int32(5) },
    ];
    const ints = await aggregateOn(state.db, switches, [{ $project: { result: { $bitAnd: ['$a', '$b'] } } }]);
    expect(ints).toEqual([
      { _id: 0, result: 0 },
      { _id: 1, result: 2 },
      { _id: 2, result: 1 },
    ]);
    const longs = await aggregateOn(state.db, switches, [
      {
        $project: {
          result: { $type: { $bitAnd: ['$a', new Long(63)] } },
          value: { $bitAnd: ['$a', new Long(63)] },
        },
      },
    ]);
    expect(longs).toEqual([
      { _id: 0, result: 'long', value: 0 },
      { _id: 1, result: 'long', value: 2 },
      { _id: 2, result: 'long', value: 3 },
    ]);
  });

  it('keep 64 bits of longs and give identities and nulls', async () => {
    const big = Long.fromString('9007199254740993');
    expect(
      await typedResults(state.db, {
        and: { $bitAnd: [big, big] },
        not: { $bitNot: big },
        notInt: { $bitNot: 5 },
        xor: { $bitXor: [new Long(6), 3] },
        empty: { $bitAnd: [] },
        single: { $bitOr: 5 },
      }),
    ).toEqual({
      and: 'Long 9007199254740993',
      not: 'Long -9007199254740994',
      notInt: 'Int32 -6',
      xor: 'Long 5',
      empty: 'Int32 -1',
      single: 'Int32 5',
    });
    const [row] = await aggregateOn(
      state.db,
      [{ _id: 1 }],
      [{ $project: { _id: 0, nullAnd: { $bitAnd: [1, '$missing'] }, nullNot: { $bitNot: null } } }],
    );
    expect(row).toEqual({ nullAnd: null, nullNot: null });
  });

  it('refuse doubles, decimals and non-numbers', async () => {
    const and = await expressionFailure(state.db, { $bitAnd: [new Double(3), 1] });
    expect([and.code, and.message]).toEqual([14, '$bitAnd only supports int and long operands.']);
    expect((await expressionFailure(state.db, { $bitNot: 1.5 })).code).toBe(14);
    expect((await expressionFailure(state.db, { $bitNot: 'abc' })).code).toBe(28765);
  });
});
