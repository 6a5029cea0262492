/**
 * Malformed pipelines fail as MongoDB 7.0 fails them: with its code and message, when the pipeline is
 * parsed, so even on an empty collection (a pipeline that "works" on an empty embedded collection and
 * fails on MongoDB once documents arrive is a bug waiting in production). Codes and messages come from
 * the MongoDB server's parsers (src/mongo/db/pipeline/document_source_limit.cpp, document_source_skip.cpp,
 * document_source_sort.cpp, document_source_count.cpp, document_source_unwind.cpp,
 * document_source_lookup.cpp, document_source_group.cpp, expression.cpp, the projection parser), as
 * recorded against a MongoDB 7.0 server by FerretDB's compatibility suite, or probed against MongoDB by
 * the mongalayer project's schema tests, where noted.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

/** [case, pipeline, code, message] */
const parseErrors: [string, unknown[], number, string][] = [
  // FerretDB suite, TestAggregateGroupErrors ("IDExpressionNonExistingVariable"): refused when parsed.
  ['an undefined variable', [{ $group: { _id: '$$nope' } }], 17276, 'Use of undefined variable: nope'],
  ['$limit 0', [{ $limit: 0 }], 15958, 'the limit must be positive'],
  // Since MongoDB 5.0 a non-number is 5107201 too (the 15957 check is gone); probed answers in the
  // mongalayer project's schema/aggregation tests agree.
  [
    '$limit of a string',
    [{ $limit: 'x' }],
    5107201,
    'invalid argument to $limit stage: Expected a number in: $limit: "x"',
  ],
  [
    'a negative $limit',
    [{ $limit: -1 }],
    5107201,
    'invalid argument to $limit stage: Expected a non-negative number in: $limit: -1',
  ],
  [
    'a negative $skip',
    [{ $skip: -1 }],
    5107200,
    'invalid argument to $skip stage: Expected a non-negative number in: $skip: -1',
  ],
  [
    'a fractional $skip',
    [{ $skip: 1.5 }],
    5107200,
    'invalid argument to $skip stage: Expected an integer: $skip: 1.5',
  ],
  ['an empty $sort', [{ $sort: {} }], 15976, '$sort stage must have at least one sort key'],
  [
    'a $sort direction of 2',
    [{ $sort: { a: 2 } }],
    15975,
    '$sort key ordering must be 1 (for ascending) or -1 (for descending)',
  ],
  // FerretDB suite, TestAggregateSortErrors.
  [
    'a $sort path with an empty part',
    [{ $sort: { 'v..foo': 1 } }],
    15998,
    'FieldPath field names may not be empty strings.',
  ],
  [
    'a $sort direction that is a string',
    [{ $sort: { a: 'x' } }],
    15974,
    'Illegal key in $sort specification: a: "x"',
  ],
  [
    'a $sort direction that is an object other than $meta',
    [{ $sort: { a: { b: 1 } } }],
    17312,
    '$meta is the only expression supported by $sort right now',
  ],
  [
    'a $lookup without from or pipeline',
    [{ $lookup: {} }],
    9,
    "must specify 'pipeline' when 'from' is empty",
  ],
  [
    'a $lookup without as',
    [{ $lookup: { from: 'x', localField: 'a', foreignField: 'b' } }],
    9,
    "must specify 'as' field for a $lookup",
  ],
  [
    'a $lookup with only localField',
    [{ $lookup: { from: 'x', localField: 'a', as: 'y' } }],
    9,
    "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified",
  ],
  [
    'an unknown $lookup argument',
    [{ $lookup: { from: 'x', localField: 'a', foreignField: 'b', as: 'y', extra: 1 } }],
    9,
    'unknown argument to $lookup: extra',
  ],
  ['an empty $count', [{ $count: '' }], 40156, 'the count field must be a non-empty string'],
  ['a $count field with $', [{ $count: '$n' }], 40158, 'the count field cannot be a $-prefixed path'],
  ['a $count field with a dot', [{ $count: 'a.b' }], 40160, "the count field cannot contain '.'"],
  [
    'an $unwind path without $',
    [{ $unwind: 'arr' }],
    28818,
    "path option to $unwind stage should be prefixed with a '$': arr",
  ],
  [
    'an $unwind of a number',
    [{ $unwind: 1 }],
    15981,
    'expected either a string or an object as specification for $unwind stage, got int',
  ],
  ['an $unwind without a path', [{ $unwind: {} }], 28812, 'no path specified to $unwind stage'],
  [
    'an unknown $unwind option',
    [{ $unwind: { path: '$a', keep: true } }],
    28811,
    'unrecognized option to $unwind stage: keep',
  ],
  [
    'a $group without _id',
    [{ $group: { n: { $sum: 1 } } }],
    15955,
    'a group specification must include an _id',
  ],
  // FerretDB suite, TestAggregateGroupErrors.
  [
    'a $group field that is not an accumulator',
    [{ $group: { _id: null, v: {} } }],
    40234,
    "The field 'v' must be an accumulator object",
  ],
  [
    'a $group field holding a plain object',
    [{ $group: { _id: null, v: { x: { $avg: '$a' } } } }],
    40234,
    "The field 'v' must be an accumulator object",
  ],
  [
    'an unknown accumulator',
    [{ $group: { _id: null, v: { $bogus: 1 } } }],
    15952,
    "unknown group operator '$bogus'",
  ],
  // accumulator_percentile.cpp (AccumulatorMedian/AccumulatorPercentile::parseArgs): an object, then
  // the IDL spec of the expression forms. Found by the wire fuzzer: a JavaScript TypeError ("Cannot
  // read properties of undefined"), mingo's "$percentile expects object { input, p }", or, without
  // `method`, an answer.
  [
    '$median of a number in $group',
    [{ $group: { _id: null, m: { $median: 5 } } }],
    7436100,
    'specification must be an object; found $median: 5',
  ],
  [
    '$percentile of a string in $group',
    [{ $group: { _id: null, m: { $percentile: 'x' } } }],
    7429703,
    'specification must be an object; found $percentile: "x"',
  ],
  [
    '$median with an unknown field in $group',
    [{ $group: { _id: null, m: { $median: { $sortArray: '$n' } } } }],
    40415,
    "BSON field '$median.$sortArray' is an unknown field.",
  ],
  [
    '$median without method in $group',
    [{ $group: { _id: null, m: { $median: { input: '$n' } } } }],
    40414,
    "BSON field '$median.method' is missing but a required field",
  ],
  [
    '$percentile without p in $group',
    [{ $group: { _id: null, m: { $percentile: { input: '$n', method: 'approximate' } } } }],
    40414,
    "BSON field '$percentile.p' is missing but a required field",
  ],
  [
    '$sum of an array in $group',
    [{ $group: { _id: null, sum: { $sum: [] } } }],
    40237,
    'The $sum accumulator is a unary operator',
  ],
  [
    'an unknown expression in the $group _id',
    [{ $group: { _id: { $type: { $nonExistent: 'foo' } } } }],
    168,
    "Unrecognized expression '$nonExistent'",
  ],
  // FerretDB suite, TestAggregateGroupErrors ("TypeInvalidLen").
  [
    '$type with two arguments',
    [{ $group: { _id: { $type: ['foo', 'bar'] } } }],
    16020,
    'Expression $type takes exactly 1 arguments. 2 were passed in.',
  ],
  // Probed by the mongalayer project (schema/expression/operators/in.test.ts).
  [
    '$in with one argument',
    [{ $project: { r: { $in: '$a' } } }],
    16020,
    'Invalid $project :: caused by :: Expression $in takes exactly 2 arguments. 1 were passed in.',
  ],
  [
    '$in with three arguments',
    [{ $addFields: { r: { $in: ['$a', '$a', '$a'] } } }],
    16020,
    'Invalid $addFields :: caused by :: Expression $in takes exactly 2 arguments. 3 were passed in.',
  ],
  // expression.h, ExpressionRangedArity (28667); the message is the one recorded for find's $slice
  // fallback in FerretDB's TestQueryProjectionSlice.
  [
    '$slice with one argument',
    [{ $project: { v: { $slice: 1 } } }],
    28667,
    'Invalid $project :: caused by :: Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in.',
  ],
  // jstests/aggregation/expressions/indexof_bytes.js: 28667 for one argument.
  [
    '$indexOfBytes with one argument',
    [{ $project: { r: { $indexOfBytes: ['$s'] } } }],
    28667,
    'Invalid $project :: caused by :: Expression $indexOfBytes takes at least 2 arguments, and at most 4, but 1 were passed in.',
  ],
  [
    '$indexOfArray with five arguments',
    [{ $addFields: { i: { $indexOfArray: ['$a', 1, 0, 1, 2] } } }],
    28667,
    'Invalid $addFields :: caused by :: Expression $indexOfArray takes at least 2 arguments, and at most 4, but 5 were passed in.',
  ],
  // FerretDB suite, TestAggregateProjectErrors.
  [
    'an empty $project',
    [{ $project: {} }],
    51272,
    'Invalid $project :: caused by :: projection specification must have at least one field',
  ],
  [
    'inclusion after exclusion',
    [{ $project: { foo: false, bar: true } }],
    31253,
    'Invalid $project :: caused by :: Cannot do inclusion on field bar in exclusion projection',
  ],
  [
    'exclusion after inclusion',
    [{ $project: { foo: true, bar: false } }],
    31254,
    'Invalid $project :: caused by :: Cannot do exclusion on field bar in inclusion projection',
  ],
  [
    'a positional path',
    [{ $project: { 'v.$': true } }],
    31324,
    'Invalid $project :: caused by :: Cannot use positional projection in aggregation projection',
  ],
  [
    'an empty sub-projection',
    [{ $project: { v: {} } }],
    51270,
    'Invalid $project :: caused by :: An empty sub-projection is not a valid value. Found empty object at path',
  ],
  [
    'an unknown operator at the top of a $project field',
    [{ $project: { v: { $nonExistent: 'foo' } } }],
    31325,
    'Invalid $project :: caused by :: Unknown expression $nonExistent',
  ],
  [
    'an unknown operator inside a $project expression',
    [{ $project: { v: { $type: { $nonExistent: 'foo' } } } }],
    168,
    "Invalid $project :: caused by :: Unrecognized expression '$nonExistent'",
  ],
  [
    'a $-prefixed $project field',
    [{ $project: { $v: true } }],
    16410,
    "Invalid $project :: caused by :: FieldPath field names may not start with '$'. Consider using $getField or $setField.",
  ],
  // FerretDB suite, TestAggregateAddFieldsErrors / TestAggregateSetErrors / TestAggregateUnsetErrors.
  [
    '$addFields of a string',
    [{ $addFields: 'not-document' }],
    40272,
    '$addFields specification stage must be an object, got string',
  ],
  [
    'a $-prefixed $set field',
    [{ $set: { $foo: 'v' } }],
    16410,
    "Invalid $set :: caused by :: FieldPath field names may not start with '$'. Consider using $getField or $setField.",
  ],
  ['$unset of an object', [{ $unset: {} }], 31002, '$unset specification must be a string or an array'],
  [
    '$unset of a path and its parent',
    [{ $unset: ['v', 'v.foo'] }],
    31249,
    'Invalid $unset :: caused by :: Path collision at v.foo remaining portion foo',
  ],
  // projection_parser.cpp, addNodeAtPathHelper: $unset is the exclusion projection { <path>: 0, … }, and
  // 31249's "remaining portion" is path.tail(), the path without its first part, not without the path
  // it collided with (document_source_project.cpp, buildExclusionProjectionSpecification).
  [
    '$unset of a dotted path and a path under it',
    [{ $unset: ['v.a', 'v.a.b.c'] }],
    31249,
    'Invalid $unset :: caused by :: Path collision at v.a.b.c remaining portion a.b.c',
  ],
  [
    '$unset of a path twice',
    [{ $unset: ['v', 'v'] }],
    31250,
    'Invalid $unset :: caused by :: Path collision at v',
  ],
  [
    'an unknown expression in a $facet sub-pipeline',
    [{ $facet: { a: [{ $addFields: { x: { $nope: 1 } } }] } }],
    168,
    "Invalid $addFields :: caused by :: Unrecognized expression '$nope'",
  ],
];

/** [case, expression, code, message]: errors MongoDB raises when it evaluates an expression. */
const evaluationErrors: [string, unknown, number, string][] = [
  ['$concat of a number', { $concat: ['$s', 1] }, 16702, '$concat only supports strings, not int'],
  [
    '$arrayElemAt of a string',
    { $arrayElemAt: ['$s', 0] },
    28689,
    "$arrayElemAt's first argument must be an array, but is string",
  ],
  [
    '$arrayElemAt with a string index',
    { $arrayElemAt: ['$arr', 'x'] },
    28690,
    "$arrayElemAt's second argument must be a numeric value, but is string",
  ],
];

describe.each(drivers)('pipeline errors ($name)', (driver) => {
  const t = connect(driver, 'pipeline_errors');

  it.each(parseErrors)('refuses %s, even on an empty collection', async (_name, pipeline, code, message) => {
    const error = await failure(() =>
      t.db
        .collection('empty')
        .aggregate(pipeline as any[])
        .toArray(),
    );
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  it.each(evaluationErrors)('refuses %s', async (_name, expr, code, message) => {
    const coll = t.db.collection<any>('one');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, s: 'abc', arr: [1, 2] });
    const error = await failure(() => coll.aggregate([{ $project: { r: expr } }]).toArray());
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  // MongoDB server, document_source_replace_root.cpp: the new root must be a document (40228, naming the
  // value, its type and the input document); $replaceRoot needs newRoot (40231).
  it('refuses a $replaceRoot or $replaceWith to a value that is not a document', async () => {
    const coll = t.db.collection<any>('one');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, s: 'abc', arr: [1, 2] });
    const message =
      '\'newRoot\' expression must evaluate to an object, but resulting value was: "abc". ' +
      'Type of resulting value: \'string\'. Input document: {_id: 1, s: "abc", arr: [1, 2]}';
    for (const stage of [{ $replaceRoot: { newRoot: '$s' } }, { $replaceWith: '$s' }]) {
      const error = await failure(() => coll.aggregate([stage]).toArray());
      expect(error['code']).toBe(40228);
      expect(error['message']).toBe(message);
    }
    const missing = await failure(() => coll.aggregate([{ $replaceRoot: { newRoot: '$nope' } }]).toArray());
    expect(missing['message']).toContain("resulting value was: MISSING. Type of resulting value: 'missing'");
    const noRoot = await failure(() =>
      t.db
        .collection('empty')
        .aggregate([{ $replaceRoot: {} }])
        .toArray(),
    );
    expect(noRoot['code']).toBe(40231);
  });

  // How Value's operator<< (src/mongo/db/exec/document_value/value.cpp) prints other BSON types in that
  // message. Found by the wire fuzzer (test/fuzz), when they printed as "[object Object]".
  it('names a new root of another BSON type as MongoDB prints it', async () => {
    const coll = t.db.collection<any>('one');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, s: 'abc', arr: [1, 2] });
    const { BSONRegExp, Binary, MaxKey } = driver.bson;
    const printed: [unknown, string, string][] = [
      [new MaxKey(), 'MaxKey', 'maxKey'],
      [new BSONRegExp('a+', 'i'), '/a+/i', 'regex'],
      [new Binary(Buffer.from([1, 0xab]), 0), 'BinData(0, "01AB")', 'binData'],
    ];
    for (const [value, text, type] of printed) {
      const error = await failure(() => coll.aggregate([{ $replaceWith: { $literal: value } }]).toArray());
      expect(error['code']).toBe(40228);
      expect(error['message']).toContain(
        `resulting value was: ${text}. Type of resulting value: '${type}'. Input document`,
      );
    }
  });

  // Manual, "$toInt": a string that is not an integer cannot be converted (ConversionFailure, 241).
  it('fails a conversion with ConversionFailure', async () => {
    const coll = t.db.collection<any>('one');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, s: 'abc', arr: [1, 2] });
    const error = await failure(() => coll.aggregate([{ $project: { r: { $toInt: '$s' } } }]).toArray());
    expect(error['code']).toBe(241);
    expect(error['codeName']).toBe('ConversionFailure');
  });

  // Manual, "$arrayElemAt": a negative index counts from the end; out of range, the field is missing.
  it('answers $arrayElemAt and $concat as MongoDB does', async () => {
    const coll = t.db.collection<any>('one');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, s: 'abc', arr: [1, 2] });
    const [doc] = await coll
      .aggregate([
        {
          $project: {
            _id: 0,
            last: { $arrayElemAt: ['$arr', -1] },
            out: { $arrayElemAt: ['$arr', 5] },
            nothing: { $arrayElemAt: ['$missing', 0] },
            joined: { $concat: ['$s', '-', '$s'] },
            nullJoin: { $concat: ['$s', '$missing'] },
          },
        },
      ])
      .toArray();
    expect(doc).toEqual({ last: 2, nothing: null, joined: 'abc-abc', nullJoin: null });
  });

  // The parse-time checks must not refuse what MongoDB accepts: scoped variables, $literal, $meta-free
  // computed fields, nested projections, $$ROOT, sub-pipelines with let variables.
  it('accepts well-formed pipelines that use every kind of expression', async () => {
    const coll = t.db.collection<any>('valid');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, a: { b: 1, c: 2 }, xs: [1, 2, 3], tag: 'x' },
      { _id: 2, a: { b: 3, c: 4 }, xs: [4], tag: 'y' },
    ]);
    const docs = await coll
      .aggregate([
        { $match: { $expr: { $gt: [{ $size: '$xs' }, 0] } } },
        { $set: { 'a.d': { $add: ['$a.b', '$a.c'] }, lit: { $literal: { $notAnOperator: 1 } } } },
        {
          $project: {
            a: { b: 1, d: 1 },
            lit: 1,
            doubled: { $map: { input: '$xs', as: 'x', in: { $multiply: ['$$x', 2] } } },
            big: { $filter: { input: '$xs', cond: { $gte: ['$$this', 2] } } },
            total: { $reduce: { input: '$xs', initialValue: 0, in: { $add: ['$$value', '$$this'] } } },
            named: { $let: { vars: { t: '$tag' }, in: { $concat: ['tag-', '$$t'] } } },
            kind: { $switch: { branches: [{ case: { $eq: ['$tag', 'x'] }, then: 'ex' }], default: 'other' } },
            root: '$$ROOT._id',
          },
        },
        { $unset: ['root'] },
        { $sort: { _id: 1 } },
        { $skip: 0 },
        { $limit: 5 },
        { $group: { _id: null, totals: { $push: '$total' }, n: { $sum: 1 } } },
      ])
      .toArray();
    expect(docs).toEqual([{ _id: null, totals: [6, 4], n: 2 }]);
  });
});
