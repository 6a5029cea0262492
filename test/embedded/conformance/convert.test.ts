/**
 * `$convert` and its shorthands, as MongoDB 7.0 converts: the conversion table and the casts of
 * ExpressionConvert (src/mongo/db/pipeline/expression.cpp: `ConversionTable`, `performCastDoubleToInt`,
 * `performCastDecimalToInt`, `performCastNumberToDate`, `parseStringToNumber`, `parseStringToOID`), text
 * read by src/mongo/base/parse_number.cpp (`_parseNumber`: base-10 integers with an optional sign and
 * nothing else, doubles through `strtod` without leading whitespace) and OID::parse (src/mongo/bson/oid.cpp),
 * and `to` checked by `computeTargetType`. The manual: https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/convert/
 * ("converting a value of type int to date is not supported"; `onError` catches conversion errors only).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, expressionFailure } from '../helpers.js';

describe.each(drivers)('$convert ($name)', (driver) => {
  const t = connect(driver, 'convert');
  const { Decimal128, Long, ObjectId, Timestamp } = driver.bson;

  /** `expr` evaluated on one document, as `<$type> <value>` (dates in ISO form). */
  async function evaluate(expr: unknown): Promise<string> {
    const coll = t.db.collection('one');
    await coll.updateOne({ _id: 1 as never }, { $set: { a: 1 } }, { upsert: true });
    const [row] = await coll
      .aggregate([{ $project: { _id: 0, v: expr, t: { $type: expr } } }], { promoteLongs: false })
      .toArray();
    const value: unknown = row!['v'];
    return `${String(row!['t'])} ${value instanceof Date ? value.toISOString() : String(value)}`;
  }
  async function refusal(expr: unknown): Promise<{ code: number; message: string }> {
    const error = await expressionFailure(t.db, expr);
    return { code: error['code'] as number, message: String(error['message']) };
  }

  it('reads integers from base-10 text with an optional sign only', async () => {
    expect(await evaluate({ $toInt: '+5' })).toBe('int 5');
    expect(await evaluate({ $toInt: '-5' })).toBe('int -5');
    expect(await evaluate({ $toInt: '007' })).toBe('int 7');
    expect(await evaluate({ $toLong: '-9223372036854775808' })).toBe('long -9223372036854775808');
    for (const [text, reason] of [
      [' 5', 'Did not consume whole string.'],
      ['5 ', 'Did not consume whole string.'],
      ['1e3', 'Did not consume whole string.'],
      ['1.5', 'Did not consume whole string.'],
      ['', 'No digits'],
      ['2147483648', 'Overflow'],
      ['99999999999999999999999', 'Overflow'],
    ]) {
      expect(await refusal({ $toInt: text })).toEqual({
        code: 241,
        message: `Failed to parse number '${text}' in $convert with no onError value: ${reason}`,
      });
    }
  });

  it('refuses hexadecimal text with its own message, for every number type', async () => {
    for (const op of ['$toInt', '$toLong', '$toDouble', '$toDecimal']) {
      expect(await refusal({ [op]: '0x1F' })).toEqual({
        code: 241,
        message: 'Illegal hexadecimal input in $convert with no onError value: 0x1F',
      });
    }
  });

  it('reads doubles as strtod does, without leading whitespace', async () => {
    expect(await evaluate({ $toDouble: '1e3' })).toBe('double 1000');
    expect(await evaluate({ $toDouble: '.5' })).toBe('double 0.5');
    expect(await evaluate({ $toDouble: '-inf' })).toBe('double -Infinity');
    expect(await refusal({ $toDouble: ' 5' })).toEqual({
      code: 241,
      message: "Failed to parse number ' 5' in $convert with no onError value: Leading whitespace",
    });
    expect((await refusal({ $toDouble: 'x' })).message).toMatch(/Did not consume any digits$/);
    expect((await refusal({ $toDouble: '1e400' })).message).toMatch(/Out of range$/);
  });

  it("converts to 'decimal' as a decimal: a double at 15 digits, text exactly", async () => {
    expect(await evaluate({ $convert: { input: 2.5, to: 'decimal' } })).toBe('decimal 2.50000000000000');
    expect(await evaluate({ $convert: { input: '1.5', to: 19 } })).toBe('decimal 1.5');
    expect(await evaluate({ $toDecimal: true })).toBe('decimal 1');
  });

  it('converts to objectId from 24 hex digits, and fails as OID::parse does', async () => {
    const hex = '64b7f9a2c1d2e3f4a5b6c7d8';
    expect(await evaluate({ $toObjectId: hex })).toBe(`objectId ${hex}`);
    expect(await evaluate({ $convert: { input: hex, to: 'objectId' } })).toBe(`objectId ${hex}`);
    expect(await refusal({ $toObjectId: 'system' })).toEqual({
      code: 241,
      message:
        "Failed to parse objectId 'system' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found 6",
    });
    expect(await evaluate({ $convert: { input: 'system', to: 'objectId', onError: null } })).toBe(
      'null null',
    );
    expect(await evaluate({ $toString: new ObjectId(hex) })).toBe(`string ${hex}`);
    expect(await evaluate({ $toDate: new ObjectId(hex) })).toMatch(/2023-07-19T14:56:34/);
  });

  it('casts numbers toward zero and names NaN, infinity and overflow', async () => {
    expect(await evaluate({ $toInt: -2.7 })).toBe('int -2');
    expect(await evaluate({ $toLong: Decimal128.fromString('-2.7') })).toBe('long -2');
    expect((await refusal({ $toInt: NaN })).message).toBe(
      'Attempt to convert NaN value to integer type in $convert with no onError value',
    );
    expect((await refusal({ $toLong: Decimal128.fromString('Infinity') })).message).toBe(
      'Attempt to convert infinity value to integer type in $convert with no onError value',
    );
    expect((await refusal({ $toInt: 1e300 })).message).toBe(
      'Conversion would overflow target type in $convert with no onError value: 1e+300',
    );
    expect((await refusal({ $toInt: Long.fromString('2147483648') })).code).toBe(241);
  });

  it('converts a long, double or decimal to a date, but not an int', async () => {
    expect(await evaluate({ $toDate: Long.fromNumber(1577836800000) })).toMatch(/2020-01-01T00:00:00/);
    expect(await evaluate({ $toDate: 1.5e12 })).toMatch(/2017-07-14T02:40:00/);
    expect(await evaluate({ $toDate: new Timestamp({ t: 1, i: 1 }) })).toMatch(/1970-01-01T00:00:01/);
    expect(await refusal({ $toDate: 1 })).toEqual({
      code: 241,
      message: 'Unsupported conversion from int to date in $convert with no onError value',
    });
  });

  it('applies onError to conversion failures only, and onNull to a nullish input', async () => {
    expect(await evaluate({ $convert: { input: [1, 2], to: 'int', onError: 'bad' } })).toBe('string bad');
    expect(await evaluate({ $convert: { input: '$missing', to: 'int', onNull: 'none' } })).toBe(
      'string none',
    );
    expect(await evaluate({ $convert: { input: 1, to: null } })).toBe('null null');
    expect(await refusal({ $convert: { input: 1, to: 'foo', onError: 0 } })).toEqual({
      code: 2,
      message: 'Unknown type name: foo',
    });
    expect((await refusal({ $convert: { input: 1, to: 100, onError: 0 } })).code).toBe(9);
    expect((await refusal({ $convert: { input: 1, to: 16.5 } })).code).toBe(9);
    expect((await refusal({ $convert: { input: 1, to: 'int', extra: 1 } })).code).toBe(9);
  });

  it('converts every value to bool as MongoDB does: only zeros are false', async () => {
    expect(await evaluate({ $toBool: '' })).toBe('bool true');
    expect(await evaluate({ $toBool: Decimal128.fromString('0.00') })).toBe('bool false');
    expect(await evaluate({ $toBool: NaN })).toBe('bool true');
    expect(await evaluate({ $toBool: [[]] })).toBe('bool true');
  });
});
