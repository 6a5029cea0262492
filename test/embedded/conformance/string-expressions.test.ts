/**
 * The string expression operators answer and fail as MongoDB 7.0's do: bytes counted in UTF-8 and code
 * points as code points, null and missing handled per operator, and each error with MongoDB's code and
 * message — when a document reaches the operator, or, when the arguments MongoDB folds are constants,
 * while the pipeline is optimized (so even on an empty collection, after "Failed to optimize pipeline ::
 * caused by :: ").
 *
 * Sources, cited on each case:
 * - java: MongoDB's answers recorded by mongo-java-server (test-common/.../AbstractAggregationTest.java,
 *   testAggregateWithSubstringExpressionProjection, ...SubstringUnicode..., ...StrLenExpression...).
 * - jstests: mongodb/mongo jstests/aggregation/expressions/indexof_bytes.js and regex.js (values and
 *   error codes).
 * - server: src/mongo/db/pipeline/expression.cpp (MongoDB 7.0), whose messages are exact; runtime errors
 *   reach MongoDB's clients after "PlanExecutor error during aggregation :: caused by :: ", a prefix the
 *   embedded database does not add, so those messages are matched with `toContain`.
 * - manual: the operators' pages in the MongoDB manual (examples and null handling).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

type Doc = Record<string, any>;

const FOLD = 'Failed to optimize pipeline :: caused by :: ';

/** [operator call, expected value], evaluated on DOC. */
const values: [string, unknown, unknown][] = [
  // java: $substr of a string, a number, null, and past the end; a negative length takes the rest.
  ['$substr to the end', { $substr: ['$v', 0, -1] }, 'some value'],
  ['$substr with a negative length', { $substr: ['$v', 1, -3] }, 'ome value'],
  ['$substr in the middle', { $substr: ['$v', 5, 5] }, 'value'],
  ['$substr of a number', { $substr: [123, 0, -1] }, '123'],
  ['$substr of null', { $substr: [null, 0, -1] }, ''],
  ['$substr past the end', { $substr: ['abc', 4, -1] }, ''],
  // java: bytes and code points of 'cafétéria' (é is two bytes).
  ['$substrBytes of a UTF-8 string', { $substrBytes: ['$s', 0, 5] }, 'café'],
  ['$substrCP of a UTF-8 string', { $substrCP: ['$s', 0, 5] }, 'cafét'],
  ['$substrBytes from a later byte', { $substrBytes: ['$s', 5, 4] }, 'tér'],
  ['$substrCP from a later code point', { $substrCP: ['$s', 5, 4] }, 'éria'],
  ['$strLenCP', { $strLenCP: '$s' }, 9],
  ['$strLenBytes', { $strLenBytes: '$s' }, 11],
  // jstests (indexof_bytes.js): byte indexes, bounds and empty tokens; null input is null.
  ['$indexOfBytes after multi-byte characters', { $indexOfBytes: ['a∫∫b', 'b'] }, 7],
  ['$indexOfBytes from a start', { $indexOfBytes: ['abcba', 'b', 2] }, 3],
  ['$indexOfBytes within bounds', { $indexOfBytes: ['abcbabc', 'b', 2, 4] }, 3],
  ['$indexOfBytes past the end', { $indexOfBytes: ['abc', 'b', 3, 5] }, -1],
  ['$indexOfBytes of an empty token at the end', { $indexOfBytes: ['abc', '', 3] }, 3],
  ['$indexOfBytes of null', { $indexOfBytes: [null, 'b'] }, null],
  // server: ExpressionIndexOfCP counts code points.
  ['$indexOfCP after multi-byte characters', { $indexOfCP: ['a∫∫b', 'b'] }, 3],
  ['$indexOfCP of an empty token in an empty string', { $indexOfCP: ['', ''] }, 0],
  // manual ($split, $toUpper, $strcasecmp): null/missing handling; server: ASCII-only case mapping.
  ['$split', { $split: ['a,b,', ','] }, ['a', 'b', '']],
  ['$split of null', { $split: ['$n', ','] }, null],
  ['$split of a missing field', { $split: ['$nope', ','] }, null],
  ['$toUpper of null', { $toUpper: '$n' }, ''],
  ['$toLower of a missing field', { $toLower: '$nope' }, ''],
  ['$toUpper of a number', { $toUpper: 5 }, '5'],
  ['$toUpper of non-ASCII letters', { $toUpper: 'é-abc' }, 'é-ABC'],
  ['$strcasecmp', { $strcasecmp: ['abc', 'ABC'] }, 0],
  ['$strcasecmp of null', { $strcasecmp: [null, 'a'] }, -1],
  // manual ($trim, $replaceAll) and server: trimming by code point, null input or chars is null.
  ['$trim of whitespace', { $trim: { input: ' \u00a0x\t\n' } }, 'x'],
  ['$ltrim of chars', { $ltrim: { input: 'xxaxx', chars: 'x' } }, 'axx'],
  ['$rtrim of multi-byte chars', { $rtrim: { input: 'aéé', chars: 'é' } }, 'a'],
  ['$trim of null', { $trim: { input: '$n' } }, null],
  ['$trim with null chars', { $trim: { input: 'x', chars: null } }, null],
  ['$replaceOne', { $replaceOne: { input: 'abab', find: 'b', replacement: { $literal: '$&' } } }, 'a$&ab'],
  ['$replaceAll', { $replaceAll: { input: 'abab', find: 'b', replacement: 'c' } }, 'acac'],
  ['$replaceAll of an empty find', { $replaceAll: { input: 'ab', find: '', replacement: '-' } }, '-a-b-'],
  ['$replaceAll of null', { $replaceAll: { input: '$n', find: 'a', replacement: 'b' } }, null],
];

/** [regex operator argument, expected $regexFindAll answer], evaluated on DOC (jstests: regex.js). */
const regexValues: [string, unknown, unknown][] = [
  [
    'captures and code point indexes',
    { input: 'Simple Example ', regex: '(m(p))' },
    [
      { match: 'mp', idx: 2, captures: ['mp', 'p'] },
      { match: 'mp', idx: 10, captures: ['mp', 'p'] },
    ],
  ],
  ['non-ASCII input', { input: 'cafétéria', regex: 'té' }, [{ match: 'té', idx: 4, captures: [] }]],
  [
    'empty matches, one per position',
    { input: 'bbbb', regex: '()' },
    [0, 1, 2, 3].map((idx) => ({ match: '', idx, captures: [''] })),
  ],
  ['an empty input and regex', { input: '', regex: '' }, [{ match: '', idx: 0, captures: [] }]],
  [
    'a case-insensitive option',
    { input: 'This Is Camel Case', regex: 'camel', options: 'i' },
    [{ match: 'Camel', idx: 8, captures: [] }],
  ],
  [
    'the extended option',
    { input: 'Foo line1', regex: '(F o o) # a comment', options: 'x' },
    [{ match: 'Foo', idx: 0, captures: ['Foo'] }],
  ],
  ['a null regex', { input: 'abc', regex: null }, []],
  ['a null input', { input: null, regex: 'a' }, []],
];

/** [case, operator call, code, message]: refused when a document reaches it (message after the prefix). */
const runtimeErrors: [string, unknown, number, string][] = [
  // java ($strLenCP of a missing field and an int); server: $strLenBytes of null.
  [
    '$strLenCP of a missing field',
    { $strLenCP: '$nope' },
    34471,
    '$strLenCP requires a string argument, found: missing',
  ],
  ['$strLenCP of an int', { $strLenCP: '$i' }, 34471, '$strLenCP requires a string argument, found: int'],
  [
    '$strLenBytes of null',
    { $strLenBytes: '$n' },
    34473,
    '$strLenBytes requires a string argument, found: null',
  ],
  // server: the remaining checks, each exact.
  [
    '$substrBytes inside a character',
    { $substrBytes: ['$s', 4, 1] },
    28656,
    '$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.',
  ],
  [
    '$substrBytes ending inside a character',
    { $substrBytes: ['$s', 3, 1] },
    28657,
    '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.',
  ],
  [
    '$substrBytes from a negative index',
    { $substrBytes: ['$s', '$neg', 1] },
    50752,
    '$substrBytes:  starting index must be non-negative (got: -1)',
  ],
  [
    '$substrCP from a fraction',
    { $substrCP: ['$s', '$half', 1] },
    34451,
    '$substrCP: starting index cannot be represented as a 32-bit integral value: 1.5',
  ],
  [
    '$substrCP of a negative length',
    { $substrCP: ['$s', 0, '$neg'] },
    34454,
    '$substrCP: length must be a nonnegative integer.',
  ],
  [
    '$substr of a document',
    { $substr: ['$doc', 0, 1] },
    16007,
    "can't convert from BSON type object to String",
  ],
  [
    '$indexOfBytes of an int',
    { $indexOfBytes: ['$i', 's'] },
    40091,
    '$indexOfBytes requires a string as the first argument, found: int',
  ],
  [
    '$indexOfCP of a null token',
    { $indexOfCP: ['$s', '$n'] },
    40094,
    '$indexOfCP requires a string as the second argument, found: null',
  ],
  [
    '$indexOfBytes from a fraction',
    { $indexOfBytes: ['$s', 'a', '$half'] },
    40096,
    '$indexOfBytesrequires an integral starting index, found a value of type: double, with value: 1.5',
  ],
  [
    '$indexOfCP to a negative end',
    { $indexOfCP: ['$s', 'a', 0, '$neg'] },
    40097,
    '$indexOfCP requires a nonnegative ending index, found: -1',
  ],
  [
    '$split of an int',
    { $split: ['$i', ','] },
    40085,
    '$split requires an expression that evaluates to a string as a first argument, found: int',
  ],
  [
    '$split by an empty separator',
    { $split: ['$s', '$empty'] },
    40087,
    '$split requires a non-empty separator',
  ],
  ['$toUpper of an array', { $toUpper: '$arr' }, 16007, "can't convert from BSON type array to String"],
  [
    '$trim of an int',
    { $trim: { input: '$i' } },
    50699,
    '$trim requires its input to be a string, got 5 (of type int) instead.',
  ],
  [
    '$rtrim of int chars',
    { $rtrim: { input: '$s', chars: '$i' } },
    50700,
    "$rtrim requires 'chars' to be a string, got 5 (of type int) instead.",
  ],
  [
    '$replaceOne of an int',
    { $replaceOne: { input: '$i', find: 'a', replacement: 'b' } },
    51746,
    "$replaceOne requires that 'input' be a string, found: 5",
  ],
  [
    '$replaceAll of a document replacement',
    { $replaceAll: { input: '$s', find: 'a', replacement: '$doc' } },
    51744,
    "$replaceAll requires that 'replacement' be a string, found: {a: 1}",
  ],
  [
    '$regexMatch of an int input',
    { $regexMatch: { input: '$i', regex: 'a' } },
    51104,
    "$regexMatch needs 'input' to be of type string",
  ],
  [
    '$regexFind of an array regex',
    { $regexFind: { input: '$s', regex: '$arr' } },
    51105,
    "$regexFind needs 'regex' to be of type string or regex",
  ],
  [
    '$regexFindAll of int options',
    { $regexFindAll: { input: '$s', regex: 'a', options: '$i' } },
    51106,
    "$regexFindAll needs 'options' to be of type string",
  ],
  // server: argument documents; codes as in MongoDB, raised when the operator is evaluated here.
  ['$trim of a string', { $trim: '$s' }, 50696, '$trim only supports an object as an argument, found string'],
  ['$trim without input', { $trim: { chars: 'a' } }, 50695, "$trim requires an 'input' field"],
  [
    '$replaceOne without find',
    { $replaceOne: { input: '$s', replacement: 'b' } },
    51748,
    "$replaceOne requires 'find' to be specified",
  ],
  [
    '$regexMatch with an unknown argument',
    { $regexMatch: { input: '$s', regex: 'a', x: 1 } },
    31024,
    '$regexMatch found an unknown argument: x',
  ],
];

/** [case, operator call, code, message]: constant arguments fail while the pipeline is optimized. */
const foldErrors: [string, unknown, number, string][] = [
  // java: recorded with MongoDB's prefix.
  [
    '$substr of a string index',
    { $substr: ['abc', 'abc', 3] },
    16034,
    '$substrBytes:  starting index must be a numeric type (is BSON type string)',
  ],
  [
    '$substr of a string length',
    { $substr: ['abc', 3, 'abc'] },
    16035,
    '$substrBytes:  length must be a numeric type (is BSON type string)',
  ],
  [
    '$substrCP of a string index',
    { $substrCP: ['abc', 'abc', 3] },
    34450,
    '$substrCP: starting index must be a numeric type (is BSON type string)',
  ],
  [
    '$substrCP of a string length',
    { $substrCP: ['abc', 3, 'abc'] },
    34452,
    '$substrCP: length must be a numeric type (is BSON type string)',
  ],
  // manual ($substrBytes): the 'cafétéria' examples that fail; server: the fold of constants.
  [
    '$substrBytes inside a character',
    { $substrBytes: ['cafétéria', 7, 3] },
    28656,
    '$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte.',
  ],
  [
    '$substrBytes ending inside a character',
    { $substrBytes: ['cafétéria', 3, 1] },
    28657,
    '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.',
  ],
  [
    '$strLenBytes of null',
    { $strLenBytes: null },
    34473,
    '$strLenBytes requires a string argument, found: null',
  ],
  [
    '$strLenCP of a nested constant',
    { $strLenCP: { $split: ['a', ','] } },
    34471,
    '$strLenCP requires a string argument, found: array',
  ],
  [
    '$indexOfBytes of an int',
    { $indexOfBytes: [3, 's'] },
    40091,
    '$indexOfBytes requires a string as the first argument, found: int',
  ],
  [
    '$trim of an int',
    { $trim: { input: 5 } },
    50699,
    '$trim requires its input to be a string, got 5 (of type int) instead.',
  ],
  // jstests (regex.js) for the codes; server: a constant regex is compiled while optimizing.
  [
    '$regexMatch with an unknown flag',
    { $regexMatch: { input: '$s', regex: 'a', options: 'I' } },
    51108,
    '$regexMatch invalid flag in regex options: I',
  ],
  [
    '$regexFind with options twice',
    { $regexFind: { input: '$s', regex: /a/i, options: '' } },
    51107,
    "$regexFind: found regex option(s) specified in both 'regex' and 'option' fields",
  ],
  [
    '$regexFindAll with a null byte',
    { $regexFindAll: { input: '$s', regex: 'a\0' } },
    51109,
    '$regexFindAll: regular expression cannot contain an embedded null byte',
  ],
];

describe.each(drivers)('string expressions ($name)', (driver) => {
  const t = connect(driver, 'string_expressions');
  const DOC = { _id: 1, s: 'cafétéria', v: 'some value', n: null, i: 5, neg: -1, half: 1.5, empty: '' };

  beforeAll(async () => {
    await t.db.createCollection('empty');
    await t.db.collection<any>('one').insertOne({ ...DOC, doc: { a: 1 }, arr: [1] });
  });

  const evaluate = async (expr: unknown): Promise<unknown> => {
    const [doc] = await t.db
      .collection('one')
      .aggregate<Doc>([{ $project: { _id: 0, r: expr } }])
      .toArray();
    return doc!['r'];
  };

  it.each(values)('%s', async (_name, expr, expected) => {
    expect(await evaluate(expr)).toEqual(expected);
  });

  it.each(regexValues)('$regexFindAll, $regexFind and $regexMatch: %s', async (_name, arg, all) => {
    const matches = all as unknown[];
    expect(await evaluate({ $regexFindAll: arg })).toEqual(matches);
    expect(await evaluate({ $regexFind: arg })).toEqual(matches[0] ?? null);
    expect(await evaluate({ $regexMatch: arg })).toBe(matches.length > 0);
  });

  it.each(runtimeErrors)('refuses %s when a document reaches it', async (_name, expr, code, message) => {
    const error = await failure(() => evaluate(expr));
    expect(error['code']).toBe(code);
    expect(error['message']).toContain(message);
  });

  it.each(foldErrors)('refuses %s on an empty collection', async (_name, expr, code, message) => {
    const error = await failure(() =>
      t.db
        .collection('empty')
        .aggregate([{ $project: { r: expr } }])
        .toArray(),
    );
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(FOLD + message);
  });

  // server: ExpressionRegex::optimize compiles a constant pattern whatever the input; V8 words the reason.
  it('refuses an invalid constant regex on an empty collection (51111)', async () => {
    const error = await failure(() =>
      t.db
        .collection('empty')
        .aggregate([{ $match: { $expr: { $regexMatch: { input: '$s', regex: '[0-9' } } } }])
        .toArray(),
    );
    expect(error['code']).toBe(51111);
    expect(error['message']).toContain('Invalid Regex in $regexMatch: ');
  });

  // server: $replaceOne/$replaceAll do not fold, so constants fail only when a document reaches them.
  it('evaluates $replaceOne of constants only per document', async () => {
    const expr = { $replaceOne: { input: 5, find: 'a', replacement: 'b' } };
    await expect(
      t.db
        .collection('empty')
        .aggregate([{ $project: { r: expr } }])
        .toArray(),
    ).resolves.toEqual([]);
    expect((await failure(() => evaluate(expr)))['code']).toBe(51746);
  });
});
