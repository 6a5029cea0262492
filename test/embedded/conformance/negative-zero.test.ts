/**
 * A double's negative zero is a double: BSON has no negative zero of its ints, so `$type` names -0.0
 * "double" (https://www.mongodb.com/docs/manual/reference/operator/aggregation/type/), in a stored
 * document and as an arithmetic result. MongoDB's arithmetic (src/mongo/db/pipeline/expression.cpp,
 * ExpressionMultiply / ExpressionSubtract) computes ints and longs as integers, so `-1 * 0` of two
 * ints is int 0, and doubles in IEEE 754, so `-1 * 0.0` is double -0.0 and `-0.0 - 0` stays -0.0;
 * `$floor`/`$ceil` of -0.0 are std::floor/std::ceil, -0.0 too. The sign of a zero shows as the sign of
 * `$atan2: [zero, -1]` (std::atan2: π for +0, -π for -0).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('negative zero ($name)', (driver) => {
  const t = connect(driver, 'negative_zero');
  const { Double } = driver.bson;

  /** `$type` of each expression and the sign of its zero, evaluated on `{ z: -0.0, i: 0, n: -4 }`. */
  async function typedZeros(expressions: Record<string, unknown>): Promise<Record<string, string>> {
    const coll = t.db.collection<any>('zeros');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, z: new Double(-0), i: 0, n: -4 });
    const project: Record<string, unknown> = { _id: 0 };
    for (const [name, expression] of Object.entries(expressions)) {
      project[name] = {
        $let: {
          vars: { v: expression },
          in: {
            $concat: [{ $type: '$$v' }, { $cond: [{ $lt: [{ $atan2: ['$$v', -1] }, 0] }, ' -0', ' +0'] }],
          },
        },
      };
    }
    const [row] = await coll.aggregate([{ $project: project }]).toArray();
    return row as Record<string, string>;
  }

  it('names a stored -0.0 and the arithmetic that gives it "double", and int arithmetic int 0', async () => {
    expect(
      await typedZeros({
        stored: '$z',
        literal: { $literal: new Double(-0) },
        doubleTimesInt: { $multiply: [new Double(-1), new Double(0)] },
        storedTimesOne: { $multiply: ['$z', 1] },
        doubleMinusInt: { $subtract: ['$z', 0] },
        floor: { $floor: '$z' },
        ceil: { $ceil: -0.5 },
        intTimesInt: { $multiply: [-1, 0] },
        intMinusInt: { $subtract: ['$i', '$i'] },
        intMod: { $mod: ['$n', 2] },
      }),
    ).toEqual({
      stored: 'double -0',
      literal: 'double -0',
      doubleTimesInt: 'double -0',
      storedTimesOne: 'double -0',
      doubleMinusInt: 'double -0',
      floor: 'double -0',
      ceil: 'double -0',
      intTimesInt: 'int +0',
      intMinusInt: 'int +0',
      intMod: 'int +0',
    });
  });

  it('matches a stored -0.0 by { $type: "double" }, not "int", and keeps it on a round trip', async () => {
    const coll = t.db.collection<any>('stored');
    await coll.deleteMany({});
    await coll.insertOne({ _id: 1, z: new Double(-0) });
    expect(await coll.countDocuments({ z: { $type: 'double' } })).toBe(1);
    expect(await coll.countDocuments({ z: { $type: 'int' } })).toBe(0);
    const doc = await coll.findOne({ _id: 1 }, { promoteValues: false });
    expect(Object.is((doc!['z'] as { value: number }).value, -0)).toBe(true);
  });
});
