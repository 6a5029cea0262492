/**
 * Operators whose MongoDB answers the embedded database once got wrong (mingo's own answers): `$mod` in
 * queries, `$sample`, `$elemMatch` in projections, and the expressions MongoDB refuses to evaluate
 * (`$size` of a non-array, `$cond` without `else`, `$switch` without a match, `$mod` by zero). Each
 * expectation names the MongoDB manual page, or the server's own test, it comes from.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

describe.each(drivers)('operator semantics ($name)', (driver) => {
  const t = connect(driver, 'operator_semantics');
  const { Long, Decimal128 } = driver.bson;

  async function numbers(): Promise<import('mongodb').Collection<any>> {
    const coll = t.db.collection<any>(`numbers_${Math.random().toString(36).slice(2)}`);
    await coll.insertMany([
      { _id: 1, n: 5 },
      { _id: 2, n: null },
      { _id: 3, n: '4' },
      { _id: 4, n: 4.9 },
      { _id: 5, n: -5 },
      { _id: 6, n: [3, 7] },
      { _id: 7, n: Long.fromString('9007199254740993') },
      { _id: 8, n: Decimal128.fromString('9.5') },
      { _id: 9 },
      { _id: 10, n: Number.NaN },
    ]);
    return coll;
  }

  const ids = (docs: Doc[]): unknown[] => docs.map((d) => d['_id']).sort((a, b) => a - b);

  // Manual, "$mod" (query): "Select documents where the value of a field divided by a divisor has the
  // specified remainder"; values and operands are truncated toward zero; non-numbers never match.
  it('$mod matches numbers only, truncating values and operands', async () => {
    const coll = await numbers();
    // null, '4', missing and NaN are not numbers (mingo matched null as 0 and '4' as 4); 4.9 counts as 4.
    expect(ids(await coll.find({ n: { $mod: [2, 0] } }).toArray())).toEqual([4]);
    // 5, an element of [3, 7], the int64 2^53 + 1 (exact: as a double it would be even), 9.5 as 9.
    expect(ids(await coll.find({ n: { $mod: [2, 1] } }).toArray())).toEqual([1, 6, 7, 8]);
    expect(ids(await coll.find({ n: { $mod: [4, 1] } }).toArray())).toEqual([1, 7, 8]);
    // The remainder has the dividend's sign: -5 % 3 is -2 (truncated division).
    expect(ids(await coll.find({ n: { $mod: [3, -2] } }).toArray())).toEqual([5]);
    // A divisor of 4.5 is 4 ("Floating Point Arguments": operands are truncated toward zero).
    expect(ids(await coll.find({ n: { $mod: [4.5, 1] } }).toArray())).toEqual([1, 7, 8]);
  });

  // Manual, "$mod" (query), "Not Enough Elements" / "Too Many Elements": BadValue (2).
  it('$mod refuses a malformed operand with BadValue (2)', async () => {
    const coll = await numbers();
    for (const [operand, message] of [
      [[4], 'malformed mod, not enough elements'],
      [[4, 1, 3], 'malformed mod, too many elements'],
      [4, 'malformed mod, needs to be an array'],
      [[0, 1], 'divisor cannot be 0'],
      [['4', 1], 'malformed mod, divisor not a number'],
    ] as const) {
      const error = await failure(() => coll.find({ n: { $mod: operand } }).toArray());
      expect(error['code']).toBe(2);
      expect(error['message']).toContain(message);
    }
  });

  // Manual, "$sample": "randomly selects the specified number of documents"; with N at least the number
  // of documents, every document comes out once.
  it('$sample returns distinct documents, all of them when the size exceeds the count', async () => {
    const coll = await numbers();
    const all = await coll.aggregate([{ $sample: { size: 50 } }]).toArray();
    expect(ids(all)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (let i = 0; i < 20; i++) {
      const some = await coll.aggregate([{ $sample: { size: 3 } }]).toArray();
      expect(new Set(some.map((d) => d['_id'])).size).toBe(3);
    }
    expect(await coll.aggregate([{ $sample: { size: 0 } }]).toArray()).toEqual([]);
    expect((await failure(() => coll.aggregate([{ $sample: { size: -1 } }]).toArray()))['code']).toBe(28747);
    expect((await failure(() => coll.aggregate([{ $sample: {} }]).toArray()))['code']).toBe(28749);
  });

  // Manual, "$elemMatch (projection)": "limits the contents of an <array> field ... to contain only the
  // first element matching the $elemMatch condition"; the condition is the query operator's.
  it('$elemMatch projects the first matching element, operator conditions included', async () => {
    const coll = t.db.collection<any>('elem_match');
    await coll.insertMany([
      {
        _id: 1,
        scores: [1, 5, 8],
        students: [
          { name: 'a', age: 9 },
          { name: 'b', age: 12 },
          { name: 'c', age: 14 },
        ],
      },
      { _id: 2, scores: [0], students: [] },
    ]);
    const out = await coll
      .find(
        {},
        {
          projection: { scores: { $elemMatch: { $gte: 5 } }, students: { $elemMatch: { age: { $gt: 10 } } } },
        },
      )
      .sort({ _id: 1 })
      .toArray();
    expect(out).toEqual([{ _id: 1, scores: [5], students: [{ name: 'b', age: 12 }] }, { _id: 2 }]);
  });

  // Manual, "$size (aggregation)": "If the argument for $size is missing or does not resolve to an array,
  // $size errors" (code 17124).
  it('$size of anything but an array is error 17124', async () => {
    const coll = await numbers();
    const project = (n: unknown): Promise<Doc[]> =>
      coll.aggregate([{ $match: { _id: n } }, { $project: { s: { $size: '$n' } } }]).toArray();
    expect(await project(6)).toEqual([{ _id: 6, s: 2 }]);
    for (const id of [1, 2, 9]) {
      const error = await failure(() => project(id));
      expect(error['code']).toBe(17124);
    }
    expect((await failure(() => project(9)))['message']).toContain('Type of argument: missing');
  });

  // The server's expression parser (codes 17080–17083) and jstests/aggregation/expressions/switch_errors.js
  // (40066 when no branch matches and there is no default).
  it('$cond needs if, then and else; $switch without a match needs a default', async () => {
    const coll = await numbers();
    const project = (expr: unknown): Promise<Doc[]> =>
      coll.aggregate([{ $match: { _id: 1 } }, { $project: { _id: 0, r: expr } }]).toArray();
    expect((await failure(() => project({ $cond: { if: true, then: 1 } })))['code']).toBe(17082);
    expect((await failure(() => project({ $cond: { then: 1, else: 2 } })))['code']).toBe(17080);
    expect((await failure(() => project({ $cond: { if: 1, then: 1, else: 2, x: 1 } })))['code']).toBe(17083);
    expect((await failure(() => project({ $cond: [true, 1] })))['code']).toBe(16020);
    // Zero of any number type is false ("$cond" and "Expressions": truth of values).
    expect(await project({ $cond: [Long.fromNumber(0), 'yes', 'no'] })).toEqual([{ r: 'no' }]);
    expect(await project({ $cond: ['', 'yes', 'no'] })).toEqual([{ r: 'yes' }]);

    const noMatch = { $switch: { branches: [{ case: { $eq: ['$n', 0] }, then: 1 }] } };
    expect((await failure(() => project(noMatch)))['code']).toBe(40066);
    expect(await project({ $switch: { ...noMatch.$switch, default: 'd' } })).toEqual([{ r: 'd' }]);
    expect((await failure(() => project({ $switch: {} })))['code']).toBe(40068);
    expect((await failure(() => project({ $switch: { branches: [{}] } })))['code']).toBe(40064);
    expect((await failure(() => project({ $switch: { branches: [{ case: 1 }] } })))['code']).toBe(40065);
    expect((await failure(() => project({ $switch: { branches: 'x' } })))['code']).toBe(40061);
  });

  // Manual, "$mod (aggregation)": the divisor must not be zero; the server's error is 16610.
  it('$mod by zero in an expression is error 16610', async () => {
    const coll = await numbers();
    const error = await failure(() =>
      coll.aggregate([{ $match: { _id: 1 } }, { $project: { r: { $mod: ['$n', 0] } } }]).toArray(),
    );
    expect(error['code']).toBe(16610);
  });

  // Manual, "Comparison Expression Operators": $cmp, $eq, $gt … "compare both value and type, using the
  // specified BSON comparison order for values of different types" (manual, "Comparison/Sort Order":
  // null < numbers < strings < … < dates). A missing field is not null in an expression.
  it('compares values of different types by BSON order in expressions', async () => {
    const coll = t.db.collection<any>('mixed_compare');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, d: new Date(0), n: 1, s: 'a' });
    const [doc] = await coll
      .aggregate([
        {
          $project: {
            _id: 0,
            dateAfterNull: { $gt: ['$d', null] },
            numberBeforeString: { $lt: ['$n', '$s'] },
            stringBeforeDate: { $lte: ['$s', '$d'] },
            nullCmpNumber: { $cmp: [null, '$n'] },
            missingIsNotNull: { $eq: ['$missing', null] },
            missingBelowNull: { $lt: ['$missing', null] },
            numbersByValue: { $eq: [1, Long.fromNumber(1)] },
          },
        },
      ])
      .toArray();
    expect(doc).toEqual({
      dateAfterNull: true,
      numberBeforeString: true,
      stringBeforeDate: true,
      nullCmpNumber: -1,
      missingIsNotNull: false,
      missingBelowNull: true,
      numbersByValue: true,
    });
  });

  // MongoDB builds a projected document from the input's fields, in the input's order (_id first), then
  // appends computed fields in the spec's order (manual, "$project": examples show _id first and the
  // input order of included fields).
  it('$project keeps the input order of included fields and appends computed ones', async () => {
    const coll = t.db.collection<any>('project_order');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, b: 2, a: 1, nested: { y: 2, x: 1 }, z: 3 });
    const [doc] = await coll
      .aggregate([{ $project: { z: 1, total: { $add: ['$a', '$b'] }, 'nested.x': 1, b: 1, copy: '$a' } }])
      .toArray();
    expect(Object.keys(doc!)).toEqual(['_id', 'b', 'nested', 'z', 'total', 'copy']);
    expect(doc).toEqual({ _id: 1, b: 2, nested: { x: 1 }, z: 3, total: 3, copy: 1 });
  });
});
