/**
 * `$arrayToObject` answers and fails as MongoDB 7.0's ExpressionArrayToObject::evaluate
 * (src/mongo/db/pipeline/expression.cpp): a key with a NUL byte is refused by the expression itself,
 * 4940400 in the `[k, v]` form and 4940401 in the `{ k, v }` form, "Key field cannot contain an embedded
 * null byte" (jstests/aggregation/expressions/arrayToObject.js asserts both codes); malformed input fails
 * with the codes of the same function; a pair's value is kept whole, and a `__proto__` key is an ordinary
 * field (MongoDB manual, "Field Names").
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

/** [case, argument, code, message] */
const errors: [string, unknown, number, string][] = [
  ['a NUL in a pair key', [['a\u0000b', 1]], 4940400, 'Key field cannot contain an embedded null byte'],
  [
    'a NUL in a k/v key',
    [{ k: 'a\u0000b', v: 1 }],
    4940401,
    'Key field cannot contain an embedded null byte',
  ],
  ['a string', 'x', 40386, '$arrayToObject requires an array input, found: string'],
  ['an array of numbers', [1], 40398, 'Unrecognised input type format for $arrayToObject: int'],
  [
    'a pair of three',
    [['a', 1, 2]],
    40397,
    '$arrayToObject requires an array of size 2 arrays,found array of size: 3',
  ],
  [
    'a pair with a number key',
    [[1, 2]],
    40395,
    '$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: int',
  ],
  [
    'a pair then a document',
    [['a', 1], { k: 'b', v: 2 }],
    40396,
    '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Array was detected, now found: object',
  ],
  [
    'a document then a pair',
    [{ k: 'b', v: 2 }, ['a', 1]],
    40391,
    '$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Object was detected, now found: array',
  ],
  [
    'a document of three fields',
    [{ k: 'a', v: 1, x: 2 }],
    40392,
    "$arrayToObject requires an object keys of 'k' and 'v'. Found incorrect number of keys:3",
  ],
  [
    'a document with a number k',
    [{ k: 1, v: 2 }],
    40394,
    "$arrayToObject requires an object with keys 'k' and 'v', where the value of 'k' must be of type string. Found type: int",
  ],
];

describe.each(drivers)('$arrayToObject ($name)', (driver) => {
  const state = connect(driver, 'array_to_object');

  const evaluate = async (argument: unknown): Promise<unknown> => {
    const coll = state.db.collection('one');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1 } as never);
    const [doc] = await coll
      .aggregate([{ $project: { _id: 0, r: { $arrayToObject: { $literal: argument } } } }])
      .toArray();
    return doc?.['r'];
  };

  it.each(errors)('refuses %s with MongoDB’s code', async (_case, argument, code, message) => {
    const error = await failure(() => evaluate(argument));
    expect(error['code']).toBe(code);
    // MongoDB may prefix the message with the pipeline's context.
    expect(error['message']).toContain(message);
  });

  it('builds documents from either form, keeping array values and the first place of a repeated key', async () => {
    expect(
      await evaluate([
        ['a', [1, 2]],
        ['b', 2],
        ['a', 3],
      ]),
    ).toEqual({ a: 3, b: 2 });
    expect(await evaluate([{ k: 'a', v: [1, 2] }])).toEqual({ a: [1, 2] });
    expect(await evaluate(null)).toBeNull();
    expect(await evaluate([])).toEqual({});
  });

  it('makes a __proto__ key an ordinary field', async () => {
    const result = (await evaluate([['__proto__', { p: 1 }]])) as object;
    expect(JSON.stringify(result)).toBe('{"__proto__":{"p":1}}');
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });
});
