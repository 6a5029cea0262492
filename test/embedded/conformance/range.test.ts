/**
 * `$range` refuses, as MongoDB 7.0 does, a range that would take more than `internalQueryMaxRangeBytes`
 * (100 MiB at 16 bytes per element, plus 24 for the array) and arguments that are not 32-bit integers,
 * before it builds anything. The embedded database used to build such a range element by element:
 * `{ $range: [0, 2 ** 31 - 1] }` aborted the whole process (V8 "invalid size error").
 *
 * Source: src/mongo/db/pipeline/expression.cpp, `evaluate(const ExpressionRange&, …)` (codes 34443 to
 * 34449 and ExceededMemoryLimit 146); the 100 MiB default from jstests/noPassthrough/
 * server_parameters.js (`internalQueryMaxRangeBytes: 100 * 1024 * 1024`).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('$range bounds ($name)', (driver) => {
  const state = connect(driver, 'range');

  async function size(range: unknown[]): Promise<unknown> {
    const coll = state.db.collection<{ _id: number }>('r');
    if ((await coll.countDocuments()) === 0) await coll.insertOne({ _id: 1 });
    const [row] = await coll.aggregate([{ $project: { _id: 0, n: { $size: { $range: range } } } }]).toArray();
    return row?.['n'];
  }

  it('builds the largest range under 100 MiB and refuses the next one with 146', async () => {
    // 24 + 6553598 × 16 = 104857592 bytes: allowed (the bound counts one element too many).
    expect(await size([0, 6553597])).toBe(6553597);
    const error = await failure(() => size([0, 6553598]));
    expect(error['code']).toBe(146);
    expect(error['message']).toBe(
      '$range would use too much memory (104857608 bytes) and cannot spill to disk. Memory limit: 104857600 bytes',
    );
  });

  it('refuses the whole int32 range and keeps serving', async () => {
    const error = await failure(() => size([0, 2 ** 31 - 1]));
    expect(error['code']).toBe(146);
    expect(await size([-(2 ** 31), 2 ** 31 - 1, 2 ** 31 - 1])).toBe(3);
  });

  const refused: [string, unknown[], number, string][] = [
    ['a start that is not a number', ['a', 3], 34443, 'found value of type: string'],
    ['a start beyond 32 bits', [2 ** 40, 0], 34444, 'can be represented as a 32-bit integer'],
    ['a missing end', [0, '$nothing'], 34445, 'found value of type: missing'],
    ['a fractional end', [0, 1.5], 34446, 'found value: 1.5'],
    ['an end beyond 32 bits', [0, 2 ** 40], 34446, 'can be represented as a 32-bit integer'],
    ['a step that is not a number', [0, 3, 'x'], 34447, 'found value of type:string'],
    ['a step beyond 32 bits', [0, 3, 2 ** 33], 34448, 'can be represented as a 32-bit integer'],
    ['a zero step', [0, 3, 0], 34449, '$range requires a non-zero step value'],
  ];
  it.each(refused)('refuses %s', async (_, range, code, message) => {
    const error = await failure(() => size(range));
    expect(error['code']).toBe(code);
    expect(error['message']).toContain(message);
  });
});
