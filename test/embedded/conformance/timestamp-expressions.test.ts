/**
 * `$tsSecond` and `$tsIncrement` (https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/tsSecond/
 * and tsIncrement/): a timestamp's seconds and increment as longs, null for null or missing, and
 * 5687301/5687302 for another type (expression.cpp `ExpressionTsSecond`/`ExpressionTsIncrement`, whose
 * message starts with a space).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, expressionFailure } from '../helpers.js';

describe.each(drivers)('timestamp expressions ($name)', (driver) => {
  const t = connect(driver, 'timestamp_expressions');
  const { Long, Timestamp } = driver.bson;

  it('reads the seconds and the increment of a timestamp, as longs', async () => {
    const coll = t.db.collection<{ _id: number; ts?: unknown }>('stamps');
    await coll.deleteMany({});
    await coll.insertMany([{ _id: 1, ts: new Timestamp({ t: 1622731060, i: 10 }) }, { _id: 2 }]);
    const rows = await coll
      .aggregate(
        [
          {
            $project: {
              s: { $tsSecond: '$ts' },
              i: { $tsIncrement: '$ts' },
              types: [{ $type: { $tsSecond: '$ts' } }, { $type: { $tsIncrement: '$ts' } }],
            },
          },
        ],
        { promoteLongs: false },
      )
      .toArray();
    expect(rows).toEqual([
      { _id: 1, s: Long.fromNumber(1622731060), i: Long.fromNumber(10), types: ['long', 'long'] },
      { _id: 2, s: null, i: null, types: ['null', 'null'] },
    ]);
  });

  it('refuses another type with 5687301 and 5687302', async () => {
    const second = await expressionFailure(t.db, { $tsSecond: 1 });
    expect([second['code'], second['message']]).toEqual([
      5687301,
      ' Argument to $tsSecond must be a timestamp, but is int',
    ]);
    const increment = await expressionFailure(t.db, { $tsIncrement: 'x' });
    expect(increment['code']).toBe(5687302);
  });
});
