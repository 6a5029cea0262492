/**
 * `n` of `$minN`/`$maxN`/`$firstN`/`$lastN`/`$topN`/`$bottomN` as MongoDB 7.0 checks it in each place
 * the operators run: AccumulatorN::validateN (accumulator_multi.cpp) refuses a value that is not a
 * number with 5787902, one that is not integral with 5787903 (both "Value for 'n' must be of integral
 * type, but found <value>") and one not above 0 with 5787908 ("'n' must be greater than 0, found <n>").
 * In `$group` `n` is evaluated against the group's `_id` (GroupProcessorBase evaluates the initializer
 * against the expanded id; manual: $minN "n … depends on the _id value for $group"); as a window
 * function against nothing (ExpressionN::buildRemovable / buildAccumulatorOnly evaluate it with an empty
 * document), so a field path, the partition key too, reads MISSING and is 5787902
 * (jstests/aggregation/sources/setWindowFields/n_accumulators.js "Non constant argument for 'n'",
 * "Can't reference partition key"); as an array expression against the document.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const scores = [
  { _id: 1, game: 'G1', score: 3, k: 2 },
  { _id: 2, game: 'G1', score: 1, k: 2 },
  { _id: 3, game: 'G1', score: 2, k: 2 },
  { _id: 4, game: 'G2', score: 5, k: 1 },
];

/** The spec of N operator `op` with `n`, its input or output `$score`. */
function spec(op: string, n: unknown): Doc {
  return op === '$topN' || op === '$bottomN'
    ? { n, output: '$score', sortBy: { score: 1 } }
    : { n, input: '$score' };
}

const operators = ['$minN', '$maxN', '$firstN', '$lastN', '$topN', '$bottomN'];

describe.each(drivers)('the n of the N accumulators ($name)', (driver) => {
  const t = connect(driver, 'n_argument');
  const { Decimal128, Long } = driver.bson;

  async function games() {
    const coll = t.db.collection<any>('games');
    await coll.deleteMany({});
    await coll.insertMany(scores.map((d) => ({ ...d })));
    return coll;
  }

  /** The code and message `pipeline` fails with. */
  async function refusal(pipeline: Doc[]) {
    const coll = await games();
    const error = await failure(() => coll.aggregate(pipeline).toArray());
    return [error['code'], error['errmsg']];
  }

  /** [case, n, code, message]. */
  const bad: [string, unknown, number, string][] = [
    ['a string', 'x', 5787902, `Value for 'n' must be of integral type, but found "x"`],
    ['null', null, 5787902, "Value for 'n' must be of integral type, but found null"],
    ['a path to nothing', '$nothing', 5787902, "Value for 'n' must be of integral type, but found MISSING"],
    ['a fraction', 2.5, 5787903, "Value for 'n' must be of integral type, but found 2.5"],
    ['NaN', NaN, 5787903, "Value for 'n' must be of integral type, but found nan"],
    ['0', 0, 5787908, "'n' must be greater than 0, found 0"],
    ['a negative number', -100, 5787908, "'n' must be greater than 0, found -100"],
  ];

  it.each(operators)('%s in $group refuses an n of the wrong type or value with its code', async (op) => {
    for (const [, n, code, message] of bad) {
      expect(await refusal([{ $group: { _id: '$game', r: { [op]: spec(op, n) } } }])).toEqual([
        code,
        message,
      ]);
    }
  });

  it.each(operators)('%s as a window function refuses a bad n with the same codes', async (op) => {
    for (const [, n, code, message] of bad) {
      for (const window of [{ documents: [-1, 1] }, { documents: ['unbounded', 'current'] }]) {
        const output = { r: { [op]: spec(op, n), window } };
        expect(await refusal([{ $setWindowFields: { sortBy: { _id: 1 }, output } }])).toEqual([
          code,
          message,
        ]);
      }
    }
  });

  it.each(operators)(
    '%s as a window function reads no document or partition key in n: 5787902',
    async (op) => {
      const missing = [5787902, "Value for 'n' must be of integral type, but found MISSING"];
      const field = { $setWindowFields: { sortBy: { _id: 1 }, output: { r: { [op]: spec(op, '$k') } } } };
      expect(await refusal([field])).toEqual(missing);
      const key = {
        $setWindowFields: { partitionBy: '$k', sortBy: { _id: 1 }, output: { r: { [op]: spec(op, '$k') } } },
      };
      expect(await refusal([key])).toEqual(missing);
    },
  );

  it('a constant n of any integral number type is taken, in $group and in windows', async () => {
    const coll = await games();
    for (const n of [2, 2.0, Long.fromNumber(2), Decimal128.fromString('2.000'), { $add: [1, 1] }]) {
      const grouped = await coll
        .aggregate([
          { $group: { _id: '$game', r: { $minN: { n, input: '$score' } } } },
          { $sort: { _id: 1 } },
        ])
        .toArray();
      expect(grouped).toEqual([
        { _id: 'G1', r: [1, 2] },
        { _id: 'G2', r: [5] },
      ]);
      const windowed = await coll
        .aggregate([
          { $setWindowFields: { sortBy: { _id: 1 }, output: { r: { $firstN: { n, input: '$score' } } } } },
        ])
        .toArray();
      expect(windowed.map((d) => d['r'])).toEqual([
        [3, 1],
        [3, 1],
        [3, 1],
        [3, 1],
      ]);
    }
  });

  it("n in $group reads the group's _id document, as the manual's example does", async () => {
    const coll = await games();
    // Manual $minN, "Compute n Based on the Group Key for $group".
    const n = { $cond: { if: { $eq: ['$game', 'G2'] }, then: 1, else: 3 } };
    for (const op of ['$minN', '$topN']) {
      const got = await coll
        .aggregate([{ $group: { _id: { game: '$game' }, r: { [op]: spec(op, n) } } }, { $sort: { _id: 1 } }])
        .toArray();
      expect(got).toEqual([
        { _id: { game: 'G1' }, r: [1, 2, 3] },
        { _id: { game: 'G2' }, r: [5] },
      ]);
    }
    // So with an _id of two fields, and under a collation.
    const twoFields = await coll
      .aggregate([
        { $group: { _id: { game: '$game', k: '$k' }, r: { $minN: spec('$minN', '$k') } } },
        { $sort: { '_id.game': 1 } },
      ])
      .toArray();
    expect(twoFields.map((d) => d['r'])).toEqual([[1, 2], [5]]);
    const collated = await coll
      .aggregate(
        [{ $group: { _id: { k: '$k' }, r: { $maxN: spec('$maxN', '$k') } } }, { $sort: { _id: 1 } }],
        {
          collation: { locale: 'en', strength: 2 },
        },
      )
      .toArray();
    expect(collated.map((d) => d['r'])).toEqual([[5], [3, 2]]);
    // A field the _id does not hold reads MISSING, and so does any path when the _id is not a document.
    const missing = [5787902, "Value for 'n' must be of integral type, but found MISSING"];
    expect(
      await refusal([{ $group: { _id: { game: '$game' }, r: { $maxN: spec('$maxN', '$k') } } }]),
    ).toEqual(missing);
    expect(await refusal([{ $group: { _id: '$game', r: { $maxN: spec('$maxN', '$game') } } }])).toEqual(
      missing,
    );
  });

  it('the array expressions check n the same way, reading it from the document', async () => {
    const coll = await games();
    const got = await coll
      .aggregate([{ $sort: { _id: 1 } }, { $project: { r: { $lastN: { n: '$k', input: [7, 8, 9] } } } }])
      .toArray();
    expect(got.map((d) => d['r'])).toEqual([[8, 9], [8, 9], [8, 9], [9]]);
    for (const op of ['$minN', '$maxN', '$firstN', '$lastN']) {
      for (const [, n, code, message] of bad) {
        expect(await refusal([{ $project: { r: { [op]: { n, input: [1, 2] } } } }])).toEqual([code, message]);
      }
    }
  });
});
