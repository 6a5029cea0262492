/**
 * The generic `maxTimeMS` argument and a cursor's `batchSize`, checked as MongoDB 7.0 checks them. The
 * expected codes and messages are MongoDB 7.0's answers as recorded by FerretDB's compatibility suite
 * (integration/aggregate_test.go: TestAggregateCommandMaxTimeMSErrors, TestAggregateCommandCursor).
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('command arguments ($name)', (driver) => {
  const t = connect(driver, 'command_arguments');
  const { Long, Double } = driver.bson;

  async function seeded(): Promise<string> {
    const coll = t.db.collection<any>('hundred');
    if ((await coll.countDocuments()) === 0) {
      await coll.insertMany(Array.from({ length: 110 }, (_, i) => ({ _id: i })));
    }
    return 'hundred';
  }

  const maxTimeCases: [string, () => unknown, number, string][] = [
    [
      'a negative long',
      () => Long.fromNumber(-1),
      51024,
      "BSON field 'maxTimeMS' value must be >= 0, actual value '-1'",
    ],
    [
      'a negative int',
      () => -1123123,
      51024,
      "BSON field 'maxTimeMS' value must be >= 0, actual value '-1123123'",
    ],
    ['a fraction', () => 1000.5, 2, 'maxTimeMS has non-integral value'],
    [
      '2^31',
      () => Long.fromNumber(2 ** 31),
      2,
      '2147483648 value for maxTimeMS is out of range [0, 2147483647]',
    ],
    [
      'the largest long',
      () => Long.MAX_VALUE,
      2,
      '9223372036854775807 value for maxTimeMS is out of range [0, 2147483647]',
    ],
    ['null', () => null, 2, 'maxTimeMS must be a number'],
    [
      'a string',
      () => 'string',
      14,
      "BSON field 'aggregate.maxTimeMS' is the wrong type 'string', expected types '[long, int, decimal, double']",
    ],
  ];

  it.each(maxTimeCases)('refuses maxTimeMS %s', async (_name, value, code, message) => {
    const collection = await seeded();
    const error = await failure(() =>
      t.db.command({ aggregate: collection, pipeline: [], cursor: {}, maxTimeMS: value() }),
    );
    expect(error['code']).toBe(code);
    expect(error['message']).toBe(message);
  });

  it('accepts a whole maxTimeMS of any number type', async () => {
    const collection = await seeded();
    for (const maxTimeMS of [0, 1000, Long.fromNumber(1000), new Double(1000)]) {
      const reply = await t.db.command({ aggregate: collection, pipeline: [], cursor: {}, maxTimeMS });
      expect(reply['cursor'].firstBatch).toHaveLength(101);
    }
  });

  it('reads batchSize as MongoDB does: truncated, 0 for an empty first batch', async () => {
    const collection = await seeded();
    const first = async (batchSize: unknown): Promise<number> => {
      const reply = await t.db.command({ aggregate: collection, pipeline: [], cursor: { batchSize } });
      return reply['cursor'].firstBatch.length;
    };
    expect(await first(1.9)).toBe(1);
    expect(await first(Long.fromNumber(2))).toBe(2);
    expect(await first(new Double(0))).toBe(0);
    expect(await first(Long.fromNumber(0))).toBe(0);
    expect(await first(102)).toBe(102);
    // The cursor stays open after an empty first batch and returns everything on getMore.
    // promoteLongs: false keeps the random int64 cursor id a Long (one below 2^53 would become a number).
    const reply = await t.db.command(
      { aggregate: collection, pipeline: [], cursor: { batchSize: 0 } },
      { promoteLongs: false },
    );
    const more = await t.db.command({ getMore: reply['cursor'].id, collection });
    expect(more['cursor'].nextBatch).toHaveLength(110);
  });

  it('refuses a negative or non-numeric batchSize and a cursor that is not an object', async () => {
    const collection = await seeded();
    const run = (cursor: unknown) =>
      failure(() => t.db.command({ aggregate: collection, pipeline: [], cursor }));
    for (const batchSize of [Long.fromNumber(-1), -1.1]) {
      const error = await run({ batchSize });
      expect(error['code']).toBe(51024);
      expect(error['message']).toBe("BSON field 'batchSize' value must be >= 0, actual value '-1'");
    }
    const bool = await run({ batchSize: true });
    expect(bool['code']).toBe(14);
    expect(bool['message']).toBe(
      "BSON field 'cursor.batchSize' is the wrong type 'bool', expected types '[long, int, decimal, double']",
    );
    const text = await run('invalid');
    expect(text['code']).toBe(14);
    expect(text['message']).toBe('cursor field must be missing or an object');
  });
});
