/**
 * Expressions given arguments MongoDB 7.0 refuses when it parses the pipeline, even on an empty
 * collection: `$ifNull` with fewer than two (1257300, `ExpressionIfNull::validateArguments`),
 * `$setEquals` with fewer than two (17045), `$rand` with any (3040501, `ExpressionRandom::parse`). mingo
 * answered `{ $ifNull: [1] }` with 1, `{ $setEquals: [[1]] }` with true and ignored `$rand`'s arguments.
 * Also the truth of `$cond`: a decimal such as 1E-6000 is not zero (`Value::coerceToBool`).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('expression argument counts ($name)', (driver) => {
  const state = connect(driver, 'argument_counts');
  const { Decimal128 } = driver.bson;

  it('refuse too few or unexpected arguments before reading a document', async () => {
    const empty = state.db.collection<any>('empty');
    const cases: [unknown, number, string][] = [
      [{ $ifNull: ['$a'] }, 1257300, '$ifNull needs at least two arguments, had: 1'],
      [{ $setEquals: [[1]] }, 17045, '$setEquals needs at least two arguments had: 1'],
      [{ $rand: { seed: 1 } }, 3040501, '$rand does not currently accept arguments'],
    ];
    for (const [expression, code, message] of cases) {
      const error = await failure(() => empty.aggregate([{ $addFields: { v: expression } }]).toArray());
      expect([error['code'], error['message']]).toEqual([
        code,
        `Invalid $addFields :: caused by :: ${message}`,
      ]);
    }
  });

  it('read a tiny decimal as true', async () => {
    const coll = state.db.collection<any>('one');
    await coll.insertOne({ _id: 1 });
    const [row] = await coll
      .aggregate([{ $project: { _id: 0, v: { $cond: [new Decimal128('1E-6000'), 'yes', 'no'] } } }])
      .toArray();
    expect(row).toEqual({ v: 'yes' });
  });
});
