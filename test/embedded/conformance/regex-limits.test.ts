/**
 * What MongoDB 7.0 refuses in a pattern before it compiles it. RegexMatchExpression::_init
 * (src/mongo/db/matcher/expression_leaf.cpp) fails with BadValue (2) "Regular expression is too long"
 * past kMaxPatternSize, 32,764 bytes (expression_leaf.h), then on a NUL byte in the pattern or in the
 * options; `$regex`, a BSON regular expression value and `$in` all build one. The aggregation operators
 * compile with PCRE2 built with LINK_SIZE=2 (src/third_party/pcre2/SConscript), which refuses a pattern
 * that large with 51111 "Invalid Regex in $regexMatch: regular expression is too large"
 * (ExpressionRegex::_compile in src/mongo/db/pipeline/expression.cpp).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, expressionFailure, failure } from '../helpers.js';

const LIMIT = 32_764;

describe.each(drivers)('regular expression limits ($name)', (driver) => {
  const t = connect(driver, 'regex_limits');
  const { BSONRegExp } = driver.bson;

  async function filled() {
    const coll = t.db.collection<{ _id: number; s: string }>('texts');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, s: 'x'.repeat(LIMIT) },
      { _id: 2, s: 'abc' },
    ]);
    return coll;
  }

  it('takes a pattern of 32,764 bytes and refuses one byte more, counting UTF-8 bytes', async () => {
    const coll = await filled();
    expect(await coll.find({ s: { $regex: 'x'.repeat(LIMIT) } }).toArray()).toHaveLength(1);
    for (const filter of [
      { s: { $regex: 'x'.repeat(LIMIT + 1) } },
      { s: new BSONRegExp('x'.repeat(LIMIT + 1)) },
      { s: { $in: ['abc', new BSONRegExp('x'.repeat(LIMIT + 1))] } },
      // 16,383 characters, but 32,766 bytes.
      { s: { $regex: 'é'.repeat(16_383) } },
      // A megabyte: refused before it is compiled.
      { s: { $regex: 'x'.repeat(1 << 20), $options: 'i' } },
    ]) {
      const error = await failure(() => coll.find(filter).toArray());
      expect(error['code']).toBe(2);
      expect(error['message']).toBe('Regular expression is too long');
    }
    // The same count applies to the operators of updates and deletes.
    const error = await failure(() => coll.deleteMany({ s: { $regex: 'x'.repeat(LIMIT + 1) } }));
    expect(error['code']).toBe(2);
    expect(await coll.countDocuments()).toBe(2);
  });

  it('refuses a NUL byte in the pattern or in the options', async () => {
    const coll = await filled();
    const inPattern = await failure(() => coll.find({ s: { $regex: 'a\u0000b' } }).toArray());
    expect([inPattern['code'], inPattern['message']]).toEqual([
      2,
      'Regular expression cannot contain an embedded null byte',
    ]);
    const inOptions = await failure(() => coll.find({ s: { $regex: 'a', $options: 'i\u0000' } }).toArray());
    expect([inOptions['code'], inOptions['message']]).toEqual([
      2,
      'Regular expression options string cannot contain an embedded null byte',
    ]);
  });

  it('$regexMatch, $regexFind and $regexFindAll refuse the same length with 51111', async () => {
    for (const name of ['$regexMatch', '$regexFind', '$regexFindAll']) {
      const error = await expressionFailure(t.db, { [name]: { input: 'abc', regex: 'x'.repeat(LIMIT + 1) } });
      expect(error['code']).toBe(51111);
      // A constant input is evaluated while the pipeline is optimized, hence MongoDB's prefix.
      expect(error['message']).toBe(
        `Failed to optimize pipeline :: caused by :: Invalid Regex in ${name}: regular expression is too large`,
      );
    }
    const [row] = await t.db
      .collection('texts')
      .aggregate([
        { $match: { _id: 1 } },
        { $project: { m: { $regexMatch: { input: '$s', regex: 'x'.repeat(LIMIT) } } } },
      ])
      .toArray();
    expect(row).toEqual({ _id: 1, m: true });
  });
});
