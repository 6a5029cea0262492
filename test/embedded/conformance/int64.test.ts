/**
 * int64 (`Long`) values keep their type. Each case names where the expected answer comes from.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('int64 type conformance ($name)', (driver) => {
  const t = connect(driver, 'int64');
  const { Long } = driver.bson;

  // Source: BSON corpus, mongodb/specifications source/bson-corpus/tests/int64.json (an int64 round-trips
  // as type 0x12 whatever its magnitude), and MongoDB manual, $type
  // (https://www.mongodb.com/docs/manual/reference/operator/query/type/): alias "long" is BSON type 18.
  it('a Long within ±2^53 round-trips as a Long and matches $type long', async () => {
    const coll = t.db.collection<any>('longs');
    await coll.insertMany([
      { _id: 1, v: Long.fromNumber(42) },
      { _id: 2, v: Long.fromNumber(-(2 ** 53)) },
      { _id: 3, v: 42 },
    ]);
    const raw = await coll.findOne({ _id: 1 }, { promoteLongs: false });
    expect(Long.isLong(raw!['v'])).toBe(true);
    expect(String(raw!['v'])).toBe('42');
    const big = await coll
      .find({ _id: { $in: [1, 2] } }, { useBigInt64: true })
      .sort({ _id: 1 })
      .toArray();
    expect(big.map((d) => d['v'])).toEqual([42n, -(2n ** 53n)]);
    const byAlias = await coll
      .find({ v: { $type: 'long' } })
      .sort({ _id: 1 })
      .toArray();
    expect(byAlias.map((d) => d['_id'])).toEqual([1, 2]);
    expect((await coll.find({ v: { $type: 18 } }).toArray()).map((d) => d['_id']).sort()).toEqual([1, 2]);
    expect((await coll.find({ v: { $type: 'int' } }).toArray()).map((d) => d['_id'])).toEqual([3]);
    await coll.updateOne({ _id: 1 }, { $set: { w: Long.fromNumber(7) } });
    const updated = await coll.findOne({ _id: 1 }, { promoteLongs: false });
    expect(Long.isLong(updated!['w'])).toBe(true);
  });
});
