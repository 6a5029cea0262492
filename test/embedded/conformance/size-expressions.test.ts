/**
 * `$bsonSize` and `$binarySize` as MongoDB 7.0 evaluates them (src/mongo/db/pipeline/expression.cpp,
 * `ExpressionBsonSize::evaluate`: null for nullish, `arg.getDocument().toBson().objsize()` for a
 * document, else 31393 "$bsonSize requires a document input, found: <type>";
 * `ExpressionBinarySize::evaluate`: null for nullish, `strLenBytes` of a string, the binData's length,
 * else 51276 "$binarySize requires a string or BinData argument, found: <type>"). The embedded database
 * refused every pipeline naming either one (31325 "Unknown expression").
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('size expressions ($name)', (driver) => {
  const state = connect(driver, 'size_expressions');
  const { BSON, Binary, Double, Long } = driver.bson;

  it('$bsonSize is the stored size of a document, counting a field named __proto__ as MongoDB stores it', async () => {
    const coll = state.db.collection<any>('bson_size');
    // JSON.parse makes `__proto__` an own field, which the driver sends and MongoDB stores as it is.
    const docs: Record<string, unknown>[] = [
      { _id: 1, a: 'héllo', n: new Long(5), d: new Double(1), list: [1, { x: null }] },
      JSON.parse('{ "_id": 2, "__proto__": { "__proto__": 1 }, "s": "__proto__" }') as Record<
        string,
        unknown
      >,
      { _id: 3, sub: 'text' },
    ];
    await coll.insertMany(docs);
    const rows = await coll
      .aggregate([
        {
          $project: {
            root: { $bsonSize: '$$ROOT' },
            missing: { $bsonSize: '$nothing' },
            // An object expression drops a field whose value is missing: { y: 1 } is 12 bytes.
            built: { $bsonSize: { x: '$nothing', y: 1 } },
            // A computed double is stored as a double (8 bytes): { v: 1.0 } is 16 bytes.
            computed: { $bsonSize: [{ v: { $add: [0.5, 0.5] } }] },
            // -0.0 is a double too: { z: -0.0 } is 16 bytes.
            negativeZero: { $bsonSize: { z: { $literal: -0 } } },
          },
        },
        { $match: { _id: { $lt: 3 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows.map((r) => r['root'])).toEqual(docs.slice(0, 2).map((d) => BSON.serialize(d).length));
    expect(rows.map((r) => [r['missing'], r['built'], r['computed'], r['negativeZero']])).toEqual([
      [null, 12, 16, 16],
      [null, 12, 16, 16],
    ]);
    // An array is not a document (jstests/aggregation/expressions/bsonsize.js refuses [{x: 1}, {y: 2}]).
    expect(
      await failure(() => coll.aggregate([{ $project: { v: { $bsonSize: '$list' } } }]).toArray()),
    ).toMatchObject({ code: 31393, message: '$bsonSize requires a document input, found: array' });
    const bad = await failure(() =>
      coll.aggregate([{ $match: { _id: 3 } }, { $project: { v: { $bsonSize: '$sub' } } }]).toArray(),
    );
    expect(bad).toMatchObject({ code: 31393, message: '$bsonSize requires a document input, found: string' });
  });

  it('$bsonSize counts a value of every BSON type as the driver encodes it', async () => {
    const {
      BSONRegExp,
      BSONSymbol,
      Code,
      DBRef,
      Decimal128,
      Int32,
      MaxKey,
      MinKey,
      ObjectId,
      Timestamp,
      UUID,
    } = driver.bson;
    const bytes = Buffer.from([1, 2, 3]);
    // One value of each type bsonspec.org lists (undefined is sent as null), each in its own document.
    const values: unknown[] = [
      new Double(1.5),
      'héllo ✓',
      { a: 1 },
      [1, 'x'],
      new Binary(bytes),
      new Binary(bytes, Binary.SUBTYPE_BYTE_ARRAY),
      new UUID(),
      new ObjectId(),
      true,
      new Date(0),
      null,
      new BSONRegExp('a.c', 'imsx'),
      /a.c/gim,
      new DBRef('other', new ObjectId()),
      new Code('function () { return 1; }'),
      new BSONSymbol('sym'),
      new Code('x', { x: 1 }),
      new Int32(7),
      new Timestamp({ t: 1, i: 2 }),
      Long.fromNumber(2 ** 40),
      Decimal128.fromString('1.5'),
      new MinKey(),
      new MaxKey(),
    ];
    const docs = values.map((v, i) => ({ _id: i, v }));
    const coll = state.db.collection<any>('every_type');
    await coll.insertMany(docs);
    const rows = await coll
      .aggregate([{ $project: { size: { $bsonSize: '$$ROOT' } } }, { $sort: { _id: 1 } }])
      .toArray();
    // The encoded length, not driver 6's BSON.calculateObjectSize, which counts an Int32 or a BSONSymbol
    // as a document holding its `value`.
    expect(rows.map((r) => r['size'])).toEqual(docs.map((d) => BSON.serialize(d).length));
  });

  it('refuse a constant argument of another type while the pipeline is optimized, on no documents', async () => {
    // A fixed-arity expression whose arguments are all constants is evaluated by ExpressionNary's
    // optimize(), so the evaluation error comes back under the optimizer's prefix.
    const coll = state.db.collection<any>('empty');
    const refusal = (expression: unknown) =>
      failure(() => coll.aggregate([{ $project: { v: expression } }]).toArray());
    expect(await refusal({ $bsonSize: 'abc' })).toMatchObject({
      code: 31393,
      message:
        'Failed to optimize pipeline :: caused by :: $bsonSize requires a document input, found: string',
    });
    expect(await refusal({ $bsonSize: [[{ x: 1 }]] })).toMatchObject({
      code: 31393,
      message:
        'Failed to optimize pipeline :: caused by :: $bsonSize requires a document input, found: array',
    });
    expect(await refusal({ $binarySize: { $literal: 5 } })).toMatchObject({
      code: 51276,
      message:
        'Failed to optimize pipeline :: caused by :: $binarySize requires a string or BinData argument, found: int',
    });
    expect(await coll.aggregate([{ $project: { v: { $bsonSize: { a: 1 } } } }]).toArray()).toEqual([]);
  });

  it('$binarySize is a string length in UTF-8 bytes and a binData length in bytes', async () => {
    const coll = state.db.collection<any>('binary_size');
    await coll.insertOne({ _id: 1, s: 'héllo ✓', b: new Binary(Buffer.from([1, 2, 3, 4, 5])), n: 3 });
    const [row] = await coll
      .aggregate([
        {
          $project: {
            _id: 0,
            s: { $binarySize: '$s' },
            b: { $binarySize: '$b' },
            empty: { $binarySize: '' },
            missing: { $binarySize: '$nothing' },
            nil: { $binarySize: null },
          },
        },
      ])
      .toArray();
    // 'héllo ✓': h, l, l, o, space 1 byte each; é 2 bytes; ✓ 3 bytes.
    expect(row).toEqual({ s: 10, b: 5, empty: 0, missing: null, nil: null });
    const bad = await failure(() => coll.aggregate([{ $project: { v: { $binarySize: '$n' } } }]).toArray());
    expect(bad).toMatchObject({
      code: 51276,
      message: '$binarySize requires a string or BinData argument, found: int',
    });
  });
});
