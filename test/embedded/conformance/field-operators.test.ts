/**
 * `$getField`, `$setField` and `$unsetField` as MongoDB 7.0 parses them (src/mongo/db/pipeline/
 * expression.cpp, `ExpressionGetField::parse`, `ExpressionSetField::parse`): `field` must be a constant
 * string when the pipeline is parsed. A field path or variable fails with 5654600 / 4161108 and a hint
 * to use `$literal`, any other expression with 5654601 / 4161106 (even one computing a string; computed
 * names came in 7.2, SERVER-74371), a constant of another type with 5654602 / 4161107; unknown and
 * missing arguments fail with 3041701–3041703 and 4161100–4161109. The embedded database evaluated a
 * computed `field` per document and answered where MongoDB 7.0 refuses.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

const P = 'Invalid $project :: caused by :: ';

describe.each(drivers)('field operators ($name)', (driver) => {
  const state = connect(driver, 'field_operators');

  /** The code and message `expression` fails with in `$project`, on an empty collection. */
  async function refusal(expression: unknown): Promise<[number, string]> {
    const coll = state.db.collection<any>('empty');
    const error = await failure(() => coll.aggregate([{ $project: { v: expression } }]).toArray());
    return [error['code'] as number, error['message'] as string];
  }

  it('refuses a field path or variable as field, with a hint to $literal', async () => {
    const hint = (path: string) =>
      `'${path}' is a field path reference which is not allowed in this context. Did you mean {$literal: '${path}'}?`;
    // fullPathWithPrefix: a field path reads $$CURRENT, so '$n' prints as '$CURRENT.n'.
    expect(await refusal({ $getField: { field: '$n', input: '$d' } })).toEqual([
      5654600,
      P + hint('$CURRENT.n'),
    ]);
    expect(await refusal({ $getField: '$n.a' })).toEqual([5654600, P + hint('$CURRENT.n.a')]);
    expect(await refusal({ $setField: { field: '$$ROOT', input: '$d', value: 1 } })).toEqual([
      4161108,
      P + hint('$ROOT'),
    ]);
    expect(await refusal({ $unsetField: { field: '$n', input: '$d' } })).toEqual([
      4161108,
      P + hint('$CURRENT.n'),
    ]);
  });

  it('refuses a computed field even when it makes a string, and a constant that is not a string', async () => {
    const concat = { $concat: ['a', 'b'] };
    expect(await refusal({ $getField: { field: concat, input: '$d' } })).toEqual([
      5654601,
      P + "$getField requires 'field' to evaluate to a constant, but got a non-constant argument",
    ]);
    expect(await refusal({ $getField: concat })).toEqual([
      5654601,
      P + "$getField requires 'field' to evaluate to a constant, but got a non-constant argument",
    ]);
    expect(await refusal({ $setField: { field: { a: 1 }, input: '$d', value: 1 } })).toEqual([
      4161106,
      P + "$setField requires 'field' to evaluate to a constant, but got a non-constant argument",
    ]);
    expect(await refusal({ $unsetField: { field: ['a'], input: '$d' } })).toEqual([
      4161106,
      P + "$unsetField requires 'field' to evaluate to a constant, but got a non-constant argument",
    ]);
    expect(await refusal({ $getField: 5 })).toEqual([
      5654602,
      P + "$getField requires 'field' to evaluate to type String, but got int",
    ]);
    expect(await refusal({ $setField: { field: { $literal: null }, input: '$d', value: 1 } })).toEqual([
      4161107,
      P + "$setField requires 'field' to evaluate to type String, but got null",
    ]);
  });

  it('refuses unknown and missing arguments', async () => {
    expect(await refusal({ $getField: { field: 'a', input: '$d', x: 1 } })).toEqual([
      3041701,
      P + '$getField found an unknown argument: x',
    ]);
    expect(await refusal({ $getField: { input: '$d' } })).toEqual([
      3041702,
      P + "$getField requires 'field' to be specified",
    ]);
    expect(await refusal({ $getField: { field: 'a' } })).toEqual([
      3041703,
      P + "$getField requires 'input' to be specified",
    ]);
    expect(await refusal({ $setField: 'a' })).toEqual([
      4161100,
      P + '$setField only supports an object as its argument',
    ]);
    expect(await refusal({ $unsetField: { field: 'a', input: '$d', value: 1 } })).toEqual([
      4161101,
      P + '$unsetField found an unknown argument: value',
    ]);
    expect(await refusal({ $setField: { input: '$d', value: 1 } })).toEqual([
      4161102,
      P + "$setField requires 'field' to be specified",
    ]);
    expect(await refusal({ $setField: { field: 'a', input: '$d' } })).toEqual([
      4161103,
      P + "$setField requires 'value' to be specified",
    ]);
    expect(await refusal({ $unsetField: { field: 'a' } })).toEqual([
      4161109,
      P + "$unsetField requires 'input' to be specified",
    ]);
  });

  it('still takes constant names, $literal ones with $ and dots included', async () => {
    const coll = state.db.collection<any>('docs');
    await coll.insertOne({ _id: 1, d: { a: 1, 'x.y': 2 } });
    const [row] = await coll
      .aggregate([
        {
          $project: {
            _id: 0,
            g: { $getField: { field: 'x.y', input: '$d' } },
            short: { $getField: { $literal: 'd' } },
            s: { $setField: { field: { $literal: '$p' }, input: '$d', value: 3 } },
            u: { $unsetField: { field: 'a', input: '$d' } },
          },
        },
      ])
      .toArray();
    expect(row).toEqual({ g: 2, short: { a: 1, 'x.y': 2 }, s: { a: 1, 'x.y': 2, $p: 3 }, u: { 'x.y': 2 } });
  });
});
