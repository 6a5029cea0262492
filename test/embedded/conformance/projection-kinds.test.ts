/**
 * A projection is an inclusion or an exclusion, and MongoDB 7.0 refuses a field of the other kind with a
 * code that depends on what the field is, in `$project` and in find alike, when the projection is parsed
 * (so also on an empty or missing collection). Source: src/mongo/db/query/projection_parser.cpp
 * (mongodb/mongo): parseInclusion (31253), parseExclusion (31254), parseLiteral (31310, "Cannot use an
 * expression " << elem << " in an exclusion projection", the element printed `name: value`),
 * attemptToParseGenericExpression (31252, checked before the expression is parsed; `$meta` is exempt),
 * addNodeAtPath (31249/31250). Every message names the field as its sub-object spells it (elem's field
 * name), not its full path. An aggregation `$project` prefixes "Invalid $project :: caused by :: "; find
 * does not. The literal cases agree with answers recorded from a server in a public projection test suite.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const PROJECT = 'Invalid $project :: caused by :: ';

/** [case, projection, code, message without the $project prefix] */
const refusals: [string, Record<string, unknown>, number, string][] = [
  [
    'a string after an exclusion',
    { a: 0, b: 'x' },
    31310,
    'Cannot use an expression b: "x" in an exclusion projection',
  ],
  [
    'null after an exclusion',
    { a: 0, b: null },
    31310,
    'Cannot use an expression b: null in an exclusion projection',
  ],
  [
    'an array after an exclusion',
    { a: 0, b: [1, 2] },
    31310,
    'Cannot use an expression b: [ 1, 2 ] in an exclusion projection',
  ],
  [
    'a field path after an exclusion',
    { a: 0, o: { q: '$b' } },
    31310,
    'Cannot use an expression q: "$b" in an exclusion projection',
  ],
  [
    '$literal after an exclusion',
    { a: 0, b: { $literal: 1 } },
    31252,
    'Cannot use expression other than $meta in exclusion projection',
  ],
  [
    '$add after an exclusion',
    { a: 0, b: { $add: [1, 2] } },
    31252,
    'Cannot use expression other than $meta in exclusion projection',
  ],
  [
    'an inclusion after an exclusion',
    { a: 0, b: 1 },
    31253,
    'Cannot do inclusion on field b in exclusion projection',
  ],
  [
    'a nested inclusion after an exclusion',
    { a: 0, o: { p: 1 } },
    31253,
    'Cannot do inclusion on field p in exclusion projection',
  ],
  [
    'an exclusion after a literal',
    { b: 'x', a: 0 },
    31254,
    'Cannot do exclusion on field a in inclusion projection',
  ],
  [
    'a nested exclusion after an inclusion',
    { a: 1, o: { p: false } },
    31254,
    'Cannot do exclusion on field p in inclusion projection',
  ],
];

describe.each(drivers)('projection kinds ($name)', (driver) => {
  const t = connect(driver, 'projection_kinds');
  const seeded = async () => {
    const coll = t.db.collection<any>('docs');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, a: 1, b: 2, o: { p: 3 } });
    return coll;
  };

  it.each(refusals)('$project refuses %s', async (_case, projection, code, message) => {
    const error = await failure(async () => (await seeded()).aggregate([{ $project: projection }]).toArray());
    expect([error['code'], error['message']]).toEqual([code, PROJECT + message]);
  });

  it.each(refusals)(
    'find refuses %s, even on a missing collection',
    async (_case, projection, code, message) => {
      for (const coll of [await seeded(), t.db.collection('missing')]) {
        const error = await failure(() => coll.find({}, { projection }).toArray());
        expect([error['code'], error['message']]).toEqual([code, message]);
      }
    },
  );

  it('takes a decimal flag as an inclusion and a top-level _id: 0 as neither kind', async () => {
    const coll = await seeded();
    const decimal = driver.bson.Decimal128.fromString('1.5');
    const error = await failure(() => coll.find({}, { projection: { a: 0, b: decimal } }).toArray());
    expect([error['code'], error['message']]).toEqual([
      31253,
      'Cannot do inclusion on field b in exclusion projection',
    ]);
    expect(await coll.find({}, { projection: { _id: 0, a: 1, n: 'x' } }).toArray()).toEqual([
      { a: 1, n: 'x' },
    ]);
    expect(await coll.aggregate([{ $project: { _id: 0, n: 'x', a: 1 } }]).toArray()).toEqual([
      { a: 1, n: 'x' },
    ]);
  });

  // projection_parser.cpp, addNodeAtPath: the collision checks are the parser's, so find has them too.
  it('refuses colliding paths in a find projection (31249, 31250)', async () => {
    const coll = t.db.collection('missing');
    const nested = await failure(() => coll.find({}, { projection: { a: 1, 'a.b': 1 } }).toArray());
    expect([nested['code'], nested['message']]).toEqual([31249, 'Path collision at a.b remaining portion b']);
    const twice = await failure(() => coll.find({}, { projection: { a: { b: 1 }, 'a.b': 0 } }).toArray());
    expect([twice['code'], twice['message']]).toEqual([31250, 'Path collision at a.b']);
  });

  // projection_parser.cpp, parseSubObjectAsExpression: a find $slice that is not `n` or `[skip, limit]` is
  // read as the expression $slice; in an exclusion that is 31252 with the context naming both syntaxes.
  it('refuses an expression $slice in a find exclusion (31252)', async () => {
    const coll = await seeded();
    const error = await failure(() =>
      coll.find({}, { projection: { a: 0, v: { $slice: ['$v', 2] } } }).toArray(),
    );
    expect(error['code']).toBe(31252);
    expect(error['message']).toBe(
      'Invalid $slice syntax. The given syntax { $slice: [ "$v", 2 ] } did not match the find() syntax because :: ' +
        'Location31257: $slice expects the skip argument to be a number, got string :: The given syntax did not ' +
        'match the expression $slice syntax. :: caused by :: Cannot use expression other than $meta in exclusion projection',
    );
  });

  // projection_parser.cpp, computeProjectionType: with no flag, literal or expression to decide, a find
  // $slice makes an exclusion unless _id: 1 is given and an $elemMatch an inclusion; a flag decides first.
  it('reads a find $slice alone as an exclusion: every other field is returned', async () => {
    const coll = t.db.collection<any>('arrays');
    if ((await coll.countDocuments()) === 0)
      await coll.insertOne({ _id: 1, a: 1, v: [1, 2, 3], b: 2, w: [{ k: 1 }, { k: 2 }] });
    const find = (projection: Record<string, unknown>) => coll.find({}, { projection }).toArray();
    const w = [{ k: 1 }, { k: 2 }];
    expect(await find({ v: { $slice: 1 } })).toEqual([{ _id: 1, a: 1, v: [1], b: 2, w }]);
    expect(await find({ _id: 0, v: { $slice: -2 } })).toEqual([{ a: 1, v: [2, 3], b: 2, w }]);
    expect(await find({ a: 0, v: { $slice: [1, 1] } })).toEqual([{ _id: 1, v: [2], b: 2, w }]);
    expect(await find({ _id: 1, v: { $slice: 1 } })).toEqual([{ _id: 1, v: [1] }]);
    expect(await find({ a: 1, v: { $slice: 1 } })).toEqual([{ _id: 1, a: 1, v: [1] }]);
    expect(await find({ w: { $elemMatch: { k: 2 } } })).toEqual([{ _id: 1, w: [{ k: 2 }] }]);
    expect(await find({ a: 0, w: { $elemMatch: { k: 2 } } })).toEqual([
      { _id: 1, v: [1, 2, 3], b: 2, w: [{ k: 2 }] },
    ]);
    expect(await find({ a: 0, w: { $elemMatch: { k: 3 } } })).toEqual([{ _id: 1, v: [1, 2, 3], b: 2 }]);
  });

  // projection_parser.cpp, attemptToParseFindSlice: an argument that is neither `n` nor
  // `[skip, limit]` of numbers is the expression $slice, which makes the projection an inclusion.
  it('reads a find $slice of the expression syntax as an inclusion', async () => {
    const coll = t.db.collection<any>('arrays');
    if ((await coll.countDocuments()) === 0)
      await coll.insertOne({ _id: 1, a: 1, v: [1, 2, 3], b: 2, w: [{ k: 1 }, { k: 2 }] });
    const found = await coll.find({}, { projection: { v: { $slice: ['$v', 1] } } }).toArray();
    expect(found).toEqual([{ _id: 1, v: [1] }]);
  });

  // projection_parser.cpp, parseSubObjectAsExpression: ErrorCodes::InvalidPipelineOperator (168).
  it('refuses $elemMatch in $project (168)', async () => {
    const coll = await seeded();
    const error = await failure(() =>
      coll.aggregate([{ $project: { v: { $elemMatch: { $gt: 1 } } } }]).toArray(),
    );
    expect([error['code'], error['message']]).toEqual([
      168,
      PROJECT + 'Cannot use $elemMatch in this context',
    ]);
  });
});
