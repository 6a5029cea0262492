/**
 * Decimal128 (and int64) arithmetic in aggregation as MongoDB 7.0 computes it (mongodb/mongo):
 * src/mongo/db/pipeline/expression.cpp — `$divide` and `$mod` coerce both sides to Decimal128 when one
 * is a decimal (`Decimal128::divide` is the Intel library's `bid128_div`, `modulo` its `bid128_fmod`,
 * src/mongo/platform/decimal128.cpp, rounding kRoundTiesToEven by default), evaluateRoundOrTrunc
 * quantizes to 10^-place with kRoundTiesToEven (`$round`) or kRoundTowardZero (`$trunc`), and
 * `Decimal128::quantize` gives a value with 34 digits where the result would need more; the expected
 * values of jstests/aggregation/expressions/round_trunc.js; accumulator_sum.cpp and accumulator_avg.cpp
 * for `$sum`/`$avg` (decimals added in order, other numbers joined at 34 digits, the total divided by
 * `Decimal128(count)`). The manual's `$round`: "When rounding on a value of 5, $round rounds to the
 * nearest even value."
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, expressionFailure, typedResults } from '../helpers.js';

type Doc = Record<string, any>;

describe.each(drivers)('Decimal128 arithmetic in aggregation ($name)', (driver) => {
  const t = connect(driver, 'decimal_arithmetic');
  const { Decimal128, Double, Long } = driver.bson;
  const dec = (text: string) => Decimal128.fromString(text);

  const evaluate = (fields: Doc) => typedResults(t.db, fields);
  const errorCode = async (expression: Doc) => (await expressionFailure(t.db, expression))['code'];

  it('$divide of decimals has 34 significant digits, ties to even, and the exact exponent', async () => {
    expect(
      await evaluate({
        third: { $divide: [dec('1'), dec('3')] },
        twoThirds: { $divide: [dec('2'), dec('3')] },
        exact: { $divide: [dec('10'), dec('4')] },
        keepsZeros: { $divide: [dec('1.00'), dec('2')] },
        whole: { $divide: [dec('6'), dec('2')] },
        share: { $divide: [dec('100.00'), 3] },
        byHalf: { $divide: [dec('1'), 0.5] },
        zero: { $divide: [dec('0.00'), 7] },
      }),
    ).toEqual({
      third: 'Decimal128 0.3333333333333333333333333333333333',
      twoThirds: 'Decimal128 0.6666666666666666666666666666666667',
      exact: 'Decimal128 2.5',
      keepsZeros: 'Decimal128 0.50',
      whole: 'Decimal128 3',
      share: 'Decimal128 33.33333333333333333333333333333333',
      byHalf: 'Decimal128 2',
      zero: 'Decimal128 0.00',
    });
    // ExpressionDivide: "can't $divide by zero", 16608.
    expect(await errorCode({ $divide: [dec('1'), dec('0.0')] })).toBe(16608);
  });

  it('$round rounds a decimal half to even and $trunc toward zero, at any place', async () => {
    expect(
      await evaluate({
        down: { $round: [dec('2.345'), 2] },
        up: { $round: [dec('2.355'), 2] },
        short: { $round: dec('-1.6') },
        twenty: { $round: [dec('1.298912343250054252245154325'), Long.fromNumber(20)] },
        tens: { $round: [dec('23.298'), -1] },
        wide: { $round: [dec('1.298'), dec('100')] },
        money: { $round: [{ $divide: [dec('100.00'), 3] }, 2] },
        truncTwenty: { $trunc: [dec('1.298912343250054252245154325'), Long.fromNumber(20)] },
        truncOne: { $trunc: [dec('1.298'), 1] },
        truncTens: { $trunc: [dec('23.298'), -1] },
        truncShort: { $trunc: dec('-1.6') },
        floor: { $floor: dec('-1.5') },
        ceil: { $ceil: dec('1.000001') },
        abs: { $abs: dec('-1.50') },
      }),
    ).toEqual({
      down: 'Decimal128 2.34',
      up: 'Decimal128 2.36',
      short: 'Decimal128 -2',
      twenty: 'Decimal128 1.29891234325005425225',
      tens: 'Decimal128 2E+1',
      wide: 'Decimal128 1.298000000000000000000000000000000',
      money: 'Decimal128 33.33',
      truncTwenty: 'Decimal128 1.29891234325005425224',
      truncOne: 'Decimal128 1.2',
      truncTens: 'Decimal128 2E+1',
      truncShort: 'Decimal128 -1',
      floor: 'Decimal128 -2',
      ceil: 'Decimal128 2',
      abs: 'Decimal128 1.50',
    });
  });

  it('$round of a double goes through Decimal128: half to even', async () => {
    // The manual's example: 10.5 → 10, 11.5 → 12, 12.5 → 12; 1.005 is a little under 1.005 as a double.
    expect(
      await evaluate({
        a: { $round: [new Double(10.5), 0] },
        b: { $round: [new Double(11.5), 0] },
        c: { $round: [new Double(12.5), 0] },
        d: { $round: [1.005, 2] },
        e: { $round: [0.125, 2] },
        f: { $trunc: [1.298, 1] },
      }),
    ).toEqual({
      a: 'Double 10',
      b: 'Double 12',
      c: 'Double 12',
      d: 'Double 1',
      e: 'Double 0.12',
      f: 'Double 1.2',
    });
    expect(await errorCode({ $round: [1, 101] })).toBe(51083);
  });

  it('$mod of decimals is exact, with the dividend sign and the smaller exponent', async () => {
    expect(
      await evaluate({
        a: { $mod: [dec('10.00'), 3] },
        b: { $mod: [dec('5.5'), dec('2')] },
        c: { $mod: [dec('-7'), dec('3')] },
        d: { $mod: [dec('123456789012345678901234567890.5'), dec('7')] },
      }),
    ).toEqual({
      a: 'Decimal128 1.00',
      b: 'Decimal128 1.5',
      c: 'Decimal128 -1',
      d: 'Decimal128 0.5',
    });
  });

  it('$sum and $avg over decimals, as accumulators and as expressions', async () => {
    const coll = t.db.collection<any>('accumulate');
    await coll.insertMany([
      { _id: 1, v: dec('0.1') },
      { _id: 2, v: dec('0.2') },
      { _id: 3, v: dec('0.4') },
    ]);
    const [group] = await coll
      .aggregate([{ $group: { _id: null, sum: { $sum: '$v' }, avg: { $avg: '$v' } } }])
      .toArray();
    expect([String(group!['sum']), String(group!['avg'])]).toEqual([
      '0.7',
      '0.2333333333333333333333333333333333',
    ]);
    const [row] = await coll
      .aggregate([
        { $limit: 1 },
        {
          $project: {
            sum: { $sum: [dec('0.1'), dec('0.2'), dec('0.4')] },
            avg: { $avg: [dec('1'), dec('2'), dec('2')] },
            // accumulator_sum.cpp: a double joins a decimal sum at 34 digits.
            mixed: { $sum: [dec('1'), 0.1] },
          },
        },
      ])
      .toArray();
    expect([String(row!['sum']), String(row!['avg']), String(row!['mixed'])]).toEqual([
      '0.7',
      '1.666666666666666666666666666666667',
      '1.100000000000000005551115123125783',
    ]);
  });

  it('a pipeline update stores the divided and rounded decimal', async () => {
    const coll = t.db.collection<any>('update');
    await coll.insertOne({ _id: 1, total: dec('100.00') });
    await coll.updateOne({ _id: 1 }, [
      { $set: { share: { $divide: ['$total', 3] } } },
      { $set: { rounded: { $round: ['$share', 2] } } },
    ]);
    const doc = await coll.findOne({ _id: 1 });
    expect(String(doc!['share'])).toBe('33.33333333333333333333333333333333');
    expect(String(doc!['rounded'])).toBe('33.33');
    expect(doc!['rounded']._bsontype).toBe('Decimal128');
  });

  it('longs beyond ±2^53 are exact in $mod, $abs, $round and $trunc', async () => {
    const big = Long.fromString('9007199254740993');
    expect(
      await evaluate({
        mod: { $mod: [big, Long.fromNumber(10)] },
        abs: { $abs: Long.fromString('-9007199254740993') },
        round: { $round: [big, 2] },
        roundTens: { $round: [big, -1] },
        truncTens: { $trunc: [Long.fromString('-9007199254740999'), -1] },
        divide: { $divide: [big, 1] },
        roundInt: { $round: [2147483647, -1] },
      }),
    ).toEqual({
      mod: 'Long 3',
      abs: 'Long 9007199254740993',
      round: 'Long 9007199254740993',
      roundTens: 'Long 9007199254740990',
      truncTens: 'Long -9007199254740990',
      divide: 'Double 9007199254740992',
      roundInt: 'Long 2147483650',
    });
    // round_trunc.js: rounding 9223372036854775806 to tens leaves the long range, 51080.
    expect(await errorCode({ $round: [Long.fromString('9223372036854775806'), -1] })).toBe(51080);
  });
});
