/**
 * A short pattern must not keep the server from answering for minutes. MongoDB runs PCRE2 with a match
 * limit of 200,000 (src/third_party/pcre2/SConscript, `--with-match-limit=200000`); an aggregation
 * operator whose match hits it fails with 51156 "Error occurred while executing the regular expression in
 * $regexMatch. Result code: match limit exceeded" (ExpressionRegex's `execute` in
 * src/mongo/db/pipeline/expression.cpp), while a query's `$regex` takes the error as no match
 * (RegexMatchExpression::matchesSingleElement in src/mongo/db/matcher/expression_leaf.cpp). `maxTimeMS`
 * stops a match with 50 "operation exceeded time limit"
 * (https://www.mongodb.com/docs/manual/reference/method/cursor.maxTimeMS/). The embedded database's RE2 has
 * no backtracking, so its limit is on its own work, and hostile patterns differ: these take seconds for
 * ten thousand characters there.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const MEGABYTE = 'ab'.repeat(500_000);
/** 30,002 RE2 instructions: its DFA runs out of memory, and its NFA steps up to 30,000 threads a character. */
const WIDE = '[a-z]{1000}'.repeat(30);
/** 1,003 instructions with the `i` option; finding where it matches steps a thousand threads a character. */
const NESTED = '(?:[a-z]{50}){20}Z';

/** Each hostile match stops within seconds (minutes to hours before); this leaves room for a loaded machine. */
const SLOW = 60_000;

const limitMessage = (name: string): string =>
  `Error occurred while executing the regular expression in ${name}. Result code: match limit exceeded`;

describe.each(drivers)('the cost of one regular expression match ($name)', (driver) => {
  const t = connect(driver, 'regex_cost');

  async function texts() {
    const coll = t.db.collection<{ _id: number; s: string }>('texts');
    if ((await coll.countDocuments()) === 0) {
      await coll.insertMany([
        { _id: 1, s: `${MEGABYTE}c` },
        { _id: 2, s: 'abcdef HELLO' },
        { _id: 3, s: 'x' },
      ]);
    }
    return coll;
  }

  it(
    'fails $regexMatch, $regexFind and $regexFindAll past the limit with 51156, answering others meanwhile',
    async () => {
      const coll = await texts();
      const other = new driver.MongoClient(t.uri, { serverSelectionTimeoutMS: 5000 });
      await other.connect();
      try {
        for (const [name, regex, options] of [
          ['$regexMatch', WIDE, ''],
          ['$regexFind', WIDE, ''],
          ['$regexFindAll', NESTED, 'i'],
        ] as const) {
          const pipeline = [
            { $match: { _id: 1 } },
            { $project: { r: { [name]: { input: '$s', regex, options } } } },
          ];
          const [error, ping] = await Promise.all([
            failure(() => coll.aggregate(pipeline).toArray()),
            other.db('admin').command({ ping: 1 }),
          ]);
          expect([name, error['code'], error['message']]).toEqual([name, 51156, limitMessage(name)]);
          expect(ping['ok']).toBe(1);
        }
      } finally {
        await other.close();
      }
    },
    SLOW,
  );

  it(
    'takes a $regex or $jsonSchema match past the limit as no match, as RegexMatchExpression takes a PCRE error',
    async () => {
      const coll = await texts();
      expect(await coll.find({ s: { $regex: WIDE } }).toArray()).toEqual([]);
      // `$not` of a match that gave up is true, as in MongoDB.
      const negated = await coll
        .find({ s: { $not: new RegExp(WIDE) } }, { projection: { _id: 1 } })
        .toArray();
      expect(negated.map((d) => d._id)).toEqual([1, 2, 3]);
      // A $jsonSchema `pattern` is a RegexMatchExpression too (parsePattern in
      // src/mongo/db/matcher/schema/json_schema_parser.cpp).
      expect(await coll.find({ $jsonSchema: { properties: { s: { pattern: WIDE } } } }).toArray()).toEqual(
        [],
      );
    },
    SLOW,
  );

  it('stops a long match at maxTimeMS with 50', async () => {
    const coll = await texts();
    const regexFind = { $regexFind: { input: '$s', regex: NESTED, options: 'i' } };
    for (const run of [
      () =>
        coll
          .find({ $expr: { $ne: [regexFind, null] } })
          .maxTimeMS(100)
          .toArray(),
      () => coll.aggregate([{ $project: { r: regexFind } }], { maxTimeMS: 100 }).toArray(),
    ]) {
      const error = await failure(run);
      expect([error['code'], error['message']]).toEqual([50, 'operation exceeded time limit']);
    }
  });

  it(
    'answers ordinary patterns over a megabyte as before',
    async () => {
      const coll = await texts();
      const cases: [string, string, number[]][] = [
        ['^abc', '', [2]],
        ['hello', 'i', [2]],
        ['.{1000}c', '', [1]],
        ['(a|b){300}c', '', [1]],
        ['x$', '', [3]],
      ];
      for (const [regex, options, ids] of cases) {
        const found = await coll
          .find({ s: { $regex: regex, $options: options } }, { projection: { _id: 1 } })
          .toArray();
        expect([regex, found.map((d) => d._id)]).toEqual([regex, ids]);
        const matched = await coll
          .aggregate([
            { $match: { $expr: { $regexMatch: { input: '$s', regex, options } } } },
            { $project: { _id: 1 } },
          ])
          .toArray();
        expect([regex, matched.map((d) => d._id)]).toEqual([regex, ids]);
      }
      // Where the match is found takes the NFA; a short pattern runs the whole megabyte.
      const [row] = await coll
        .aggregate([
          { $match: { _id: 1 } },
          { $project: { r: { $regexFind: { input: '$s', regex: '(b)(c)' } } } },
        ])
        .toArray();
      expect(row!['r']).toEqual({ match: 'bc', idx: 999_999, captures: ['b', 'c'] });
    },
    SLOW,
  );
});
