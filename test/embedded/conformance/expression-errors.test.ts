/**
 * Expression operators and accumulators refuse malformed arguments as MongoDB 7.0 refuses them: when the
 * pipeline is parsed (or, for constant expressions, optimized), so even on an empty collection, with
 * MongoDB's code and message. Field paths and variable names inside expressions are checked the same way.
 *
 * Sources, cited on each case:
 * - mongalayer: answers probed against MongoDB by the mongalayer project (packages/server/__tests__/
 *   schema/expression/operators/*.test.ts), each run as `[{ $match: { $expr: <operator> } }]` on an
 *   empty collection; its messages are matched with `toContain`, as the project matched them.
 * - FerretDB: MongoDB's answers recorded by FerretDB's integration tests (aggregate tests).
 * - server: the MongoDB server's parsers (src/mongo/db/pipeline/expression.cpp, accumulator_multi.cpp,
 *   variable_validation.cpp, field_path.cpp), whose messages are exact.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const P = 'Invalid $project :: caused by :: ';
const expr = (op: unknown): any[] => [{ $match: { $expr: op } }];
const project = (op: unknown): unknown[] => [{ $project: { r: op } }];

/** [case, pipeline, code, message start] (mongalayer: MongoDB's message contains it). */
const probed: [string, unknown[], number, string][] = [
  ['$firstN without n', expr({ $firstN: { input: '$path' } }), 5787906, "Missing value for 'n'"],
  ['$firstN without input', expr({ $firstN: { n: '$path' } }), 5787907, "Missing value for 'input'"],
  ['$firstN of {}', expr({ $firstN: {} }), 5787906, "Missing value for 'n'"],
  ['$firstN of a path', expr({ $firstN: '$path' }), 5787801, 'specification must be an object; found'],
  ['$firstN of []', expr({ $firstN: [] }), 5787801, 'specification must be an object; found'],
  ['$firstN of null', expr({ $firstN: null }), 5787801, 'specification must be an object; found'],
  [
    '$firstN with an unknown argument',
    expr({ $firstN: { $x: '$path' } }),
    5787901,
    "Unknown argument for 'n' ",
  ],
  ['$lastN without n', expr({ $lastN: { input: '$path' } }), 5787906, "Missing value for 'n'"],
  ['$lastN of a number', expr({ $lastN: 123 }), 5787801, 'specification must be an object; found'],
  ['$lastN of true', expr({ $lastN: true }), 5787801, 'specification must be an object; found'],
  [
    '$lastN with an unknown argument',
    expr({ $lastN: { $x: '$path' } }),
    5787901,
    "Unknown argument for 'n' ",
  ],
  [
    '$median without method',
    expr({ $median: { input: '$path' } }),
    40414,
    "BSON field '$median.method' is missing but a required field",
  ],
  [
    '$median without input',
    expr({ $median: { method: 'approximate' } }),
    40414,
    "BSON field '$median.input' is missing but a required field",
  ],
  [
    '$median of {}',
    expr({ $median: {} }),
    40414,
    "BSON field '$median.input' is missing but a required field",
  ],
  [
    '$median with an unknown method',
    expr({ $median: { input: '$path', method: 'x' } }),
    2,
    "Currently only 'approximate' can be used as percentile 'method'.",
  ],
  ['$median of a path', expr({ $median: '$path' }), 7436201, 'specification must be an object; found'],
  ['$median of true', expr({ $median: true }), 7436201, 'specification must be an object; found'],
  [
    '$median with an unknown field',
    expr({ $median: { $x: '$path' } }),
    40415,
    "BSON field '$median.$x' is an unknown field.",
  ],
  ['$first of []', expr({ $first: [] }), 16020, 'takes exactly 1 arguments. 0 were passed in.'],
  [
    '$first of two arguments',
    expr({ $first: ['$path', '$path'] }),
    16020,
    'takes exactly 1 arguments. 2 were passed in.',
  ],
  ['$first of a string', expr({ $first: 'string' }), 28689, 'argument must be an array, but is string'],
  ['$first of {}', expr({ $first: {} }), 28689, 'argument must be an array, but is object'],
  ['$first of a number', expr({ $first: 123 }), 28689, 'argument must be an array, but is int'],
  ['$first of true', expr({ $first: true }), 28689, 'argument must be an array, but is bool'],
  ['$last of []', expr({ $last: [] }), 16020, 'takes exactly 1 arguments. 0 were passed in.'],
  [
    '$last of two operators',
    expr({ $last: [{ $last: '$path' }, { $last: '$path' }] }),
    16020,
    '2 were passed in.',
  ],
  ['$last of a string', expr({ $last: 'string' }), 28689, 'argument must be an array, but is string'],
  ['$last of a number', expr({ $last: 123 }), 28689, 'argument must be an array, but is int'],
];

/** [case, pipeline, code, exact message]. */
const parseErrors: [string, unknown[], number, string][] = [
  // FerretDB (aggregate group tests).
  [
    '$sum of "$" in $group',
    [{ $group: { _id: null, s: { $sum: '$' } } }],
    16872,
    "'$' by itself is not a valid FieldPath",
  ],
  ['a $group _id of "$$"', [{ $group: { _id: '$$' } }], 9, 'empty variable names are not allowed'],
  [
    'a $group _id of "$$$"',
    [{ $group: { _id: '$$$' } }],
    9,
    "'$' starts with an invalid character for a user variable name",
  ],
  [
    'a $group _id of "$$$s"',
    [{ $group: { _id: '$$$s' } }],
    9,
    "'$s' starts with an invalid character for a user variable name",
  ],
  ['"$" in $project', project('$'), 16872, `${P}'$' by itself is not a valid FieldPath`],
  ['"$$" in $project', project({ $concat: ['$$'] }), 9, `${P}empty variable names are not allowed`],
  // server (variable_validation.cpp: a read name starts with a letter, then letters, digits, '_').
  [
    'a variable starting with _',
    project('$$_x'),
    9,
    `${P}'_x' starts with an invalid character for a user variable name`,
  ],
  [
    'a variable with a dash',
    project('$$a-b.c'),
    9,
    `${P}'a-b' contains an invalid character for a variable name: '-'`,
  ],
  [
    'a variable starting with a digit in $replaceWith',
    [{ $replaceWith: '$$1a' }],
    9,
    "'1a' starts with an invalid character for a user variable name",
  ],
  // server (field_path.cpp).
  [
    'a path with an empty part',
    project('$a..b'),
    15998,
    `${P}FieldPath field names may not be empty strings.`,
  ],
  ['a path ending with a dot', project('$a.'), 40353, `${P}FieldPath must not end with a '.'.`],
  [
    'a path part starting with $',
    [{ $addFields: { r: { $concat: ['$a.$b'] } } }],
    16410,
    "Invalid $addFields :: caused by :: FieldPath field names may not start with '$'. Consider using $getField or $setField.",
  ],
  // server (expression.cpp, ExpressionLet / ExpressionMap / ExpressionFilter / ExpressionReduce::parse).
  ['$let of a string', project({ $let: 'x' }), 16874, `${P}$let only supports an object as its argument`],
  [
    '$let with an unknown argument',
    project({ $let: { vars: {}, in: 1, x: 1 } }),
    16875,
    `${P}Unrecognized parameter to $let: x`,
  ],
  ['$let without vars', project({ $let: { in: 1 } }), 16876, `${P}Missing 'vars' parameter to $let`],
  ['$let without in', project({ $let: { vars: { v: 1 } } }), 16877, `${P}Missing 'in' parameter to $let`],
  [
    '$let binding an upper-case name',
    project({ $let: { vars: { A: 1 }, in: '$$A' } }),
    9,
    `${P}'A' starts with an invalid character for a user variable name`,
  ],
  ['$map of a string', project({ $map: 'x' }), 16878, `${P}$map only supports an object as its argument`],
  [
    '$map with an unknown argument',
    project({ $map: { input: [], in: 1, y: 1 } }),
    16879,
    `${P}Unrecognized parameter to $map: y`,
  ],
  ['$map without input', project({ $map: { in: 1 } }), 16880, `${P}Missing 'input' parameter to $map`],
  ['$map without in', project({ $map: { input: [] } }), 16882, `${P}Missing 'in' parameter to $map`],
  [
    '$map binding an upper-case name',
    project({ $map: { input: '$a', as: 'X', in: 1 } }),
    9,
    `${P}'X' starts with an invalid character for a user variable name`,
  ],
  [
    '$filter of a number',
    project({ $filter: 1 }),
    28646,
    `${P}$filter only supports an object as its argument`,
  ],
  [
    '$filter with an unknown argument',
    project({ $filter: { input: [], cond: true, z: 1 } }),
    28647,
    `${P}Unrecognized parameter to $filter: z`,
  ],
  [
    '$filter without input',
    project({ $filter: { cond: true } }),
    28648,
    `${P}Missing 'input' parameter to $filter`,
  ],
  [
    '$filter without cond',
    project({ $filter: { input: [] } }),
    28650,
    `${P}Missing 'cond' parameter to $filter`,
  ],
  [
    '$filter binding a name starting with _',
    project({ $filter: { input: [], as: '_a', cond: true } }),
    9,
    `${P}'_a' starts with an invalid character for a user variable name`,
  ],
  [
    '$reduce of an array',
    project({ $reduce: [] }),
    40075,
    `${P}$reduce requires an object as an argument, found: array`,
  ],
  [
    '$reduce with an unknown argument',
    project({ $reduce: { input: [], initialValue: 0, in: 1, q: 1 } }),
    40076,
    `${P}$reduce found an unknown argument: q`,
  ],
  ['$reduce without input', project({ $reduce: {} }), 40077, `${P}$reduce requires 'input' to be specified`],
  [
    '$reduce without initialValue',
    project({ $reduce: { input: [], in: 1 } }),
    40078,
    `${P}$reduce requires 'initialValue' to be specified`,
  ],
  [
    '$reduce without in',
    project({ $reduce: { input: [], initialValue: 0 } }),
    40079,
    `${P}$reduce requires 'in' to be specified`,
  ],
  // server (accumulator_multi.cpp: the n-accumulators of $group parse { input, n } as the expressions do).
  [
    '$firstN of a path in $group',
    [{ $group: { _id: null, f: { $firstN: '$x' } } }],
    5787801,
    'specification must be an object; found $firstN: "$x"',
  ],
  [
    '$minN of a number in $group',
    [{ $group: { _id: null, f: { $minN: 1 } } }],
    5787900,
    'specification must be an object; found $minN: 1',
  ],
  [
    '$maxN without n in $group',
    [{ $group: { _id: null, f: { $maxN: { input: '$x' } } } }],
    5787906,
    "Missing value for 'n'",
  ],
  [
    '$percentile without p',
    project({ $percentile: { input: '$a', method: 'approximate' } }),
    40414,
    `${P}BSON field '$percentile.p' is missing but a required field`,
  ],
];

describe.each(drivers)('expression errors ($name)', (driver) => {
  const t = connect(driver, 'expression_errors');

  it.each(probed)('refuses %s, even on an empty collection', async (_name, pipeline, code, message) => {
    const error = await failure(() =>
      t.db
        .collection('empty')
        .aggregate(pipeline as any[])
        .toArray(),
    );
    expect(error['code']).toBe(code);
    expect(error['message']).toContain(message);
  });

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

  // Manual, "$first (array)": a value that is not an array is error 28689 when a document reaches it.
  it('refuses $first of a field that is not an array', async () => {
    const coll = t.db.collection<any>('one');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1, s: 'abc', xs: [1, 2] });
    const error = await failure(() => coll.aggregate([{ $project: { r: { $first: '$s' } } }]).toArray());
    expect(error['code']).toBe(28689);
    expect(error['message']).toBe("$first's argument must be an array, but is string");
  });

  // mongalayer (firstN, lastN, median, first, last, avg, sum, in tests: these were accepted) and the
  // manual's examples: every checked construct, well formed, still runs and answers MongoDB's values.
  it('accepts well-formed pipelines that use every checked construct', async () => {
    const coll = t.db.collection<any>('valid');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, xs: [1, 2], s: 'abc' });
    for (const op of [
      { $firstN: { input: '$path', n: '$path' } },
      { $lastN: { input: [{ $first: '$path' }, { $last: '$path' }], n: '$path' } },
      { $median: { input: ['$path', '$path'], method: 'approximate' } },
      { $first: null },
      { $first: ['$path'] },
      { $avg: [] },
      { $sum: [{ $avg: '$path' }, { $avg: '$path' }] },
      { $max: {} },
    ]) {
      await expect(t.db.collection('empty').aggregate(expr(op)).toArray()).resolves.toEqual([]);
    }
    const [doc] = await coll
      .aggregate([
        { $set: { lit: { $literal: '$notAPath' }, root: '$$ROOT.xs' } },
        {
          $project: {
            _id: 0,
            lit: 1,
            root: 1,
            firstN: { $firstN: { input: '$xs', n: 1 } },
            lastN: { $lastN: { input: '$xs', n: 1 } },
            maxN: { $maxN: { input: '$xs', n: 1 } },
            minN: { $minN: { input: '$xs', n: 1 } },
            median: { $median: { input: '$xs', method: 'approximate' } },
            first: { $first: '$xs' },
            last: { $last: ['$xs'] },
            nothing: { $first: '$missing' },
            named: {
              $let: {
                vars: { low: 1, élan: 2, CURRENT: '$$ROOT' },
                in: { $add: ['$$low', '$$élan', { $size: '$$CURRENT.xs' }] },
              },
            },
            mapped: { $map: { input: '$xs', as: 'x', in: { $multiply: ['$$x', 10] } } },
            kept: { $filter: { input: '$xs', as: 'x', cond: { $gt: ['$$x', 1] }, limit: 5 } },
            total: { $reduce: { input: '$xs', initialValue: 0, in: { $add: ['$$value', '$$this'] } } },
            removed: '$$REMOVE',
          },
        },
      ])
      .toArray();
    expect(doc).toEqual({
      lit: '$notAPath',
      root: [1, 2],
      firstN: [1],
      lastN: [2],
      maxN: [2],
      minN: [1],
      median: 1,
      first: 1,
      last: 2,
      nothing: null,
      named: 5,
      mapped: [10, 20],
      kept: [2],
      total: 3,
    });
    const [group] = await coll
      .aggregate([{ $group: { _id: '$$ROOT.s', f: { $firstN: { input: '$xs', n: 2 } }, n: { $sum: 1 } } }])
      .toArray();
    expect(group).toEqual({ _id: 'abc', f: [[1, 2]], n: 1 });
  });
});
