/**
 * Values that share their parts. A `$reduce` whose step is `{ a: '$$value', b: '$$value' }` holds one new
 * object per step while its BSON doubles (16 * 2^n - 11 bytes after n steps); so do nested `$let`s or
 * `$map`s that reuse their variable, and `$set` stages that reuse a field. Every walk of such a value as a
 * tree (a `$project`, a `$group`, a comparison, an update's size check) took 2^n steps and hung the server.
 *
 * MongoDB writes any of them as BSON in a buffer that cannot grow past 64 MiB: `_BufBuilder::
 * grow_reallocate` (src/mongo/bson/util/builder.h) fails with 13548 "BufBuilder attempted to grow() to N
 * bytes, past the 64MB limit." (`BufferMaxSize`). The embedded database refuses such a value with that
 * error where it is made (a variable's value, a stage's output document), in the time its memory takes.
 * The server runs in a worker, so that a hang fails the test by its timeout instead of blocking it.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

/** `initialValue` transformed by `step` once for each of `steps` steps. */
const doubling = (steps: number, initialValue: unknown, step: unknown) => ({
  $reduce: { input: { $range: [0, steps] }, initialValue, in: step },
});
const twice = { a: '$$value', b: '$$value' };
/** 16 * 2^40 - 11 bytes of BSON in 41 objects. */
const huge = doubling(40, {}, twice);
const hugeArray = doubling(40, [1], ['$$value', '$$value']);

describe.each(drivers)('values that share their parts ($name)', (driver) => {
  const state = connect(driver, 'shared_parts', { worker: true });
  const one = [{ $documents: [{ _id: 1 }] }];
  const aggregate = (pipeline: object[]) => state.db.aggregate([...one, ...pipeline]).toArray();

  async function rows() {
    const coll = state.db.collection<{ _id: number; x: number; v?: unknown }>('rows');
    await coll.deleteMany({});
    await coll.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    return coll;
  }

  /** Expects `run` to fail with 13548 and the server to answer afterwards. */
  async function refused(run: () => Promise<unknown>): Promise<void> {
    const error = await failure(run);
    expect(error['code']).toBe(13548);
    expect(error['message']).toMatch(
      /^BufBuilder attempted to grow\(\) to \d+ bytes, past the 64MB limit\.$/,
    );
    expect((await state.db.command({ ping: 1 }))['ok']).toBe(1);
  }

  it('refuses a $project computing one, as a document or an array, at a field or under a path', async () => {
    await refused(() => aggregate([{ $project: { v: huge } }]));
    await refused(() => aggregate([{ $project: { v: hugeArray } }]));
    await refused(() => aggregate([{ $project: { 'v.w': huge } }]));
    await refused(() => aggregate([{ $project: { _id: 0, v: { w: huge } } }]));
  });

  it('refuses one built by stages that reuse a field, before a $project includes or excludes it', async () => {
    const stages = Array.from({ length: 40 }, () => ({ $set: { v: { a: '$v', b: '$v' } } }));
    await refused(() => aggregate([{ $set: { v: {} } }, ...stages, { $project: { v: 1 } }]));
    await refused(() => aggregate([{ $set: { v: {} } }, ...stages, { $project: { _id: 0 } }]));
  });

  it('refuses nested $let and $map that reuse their variable', async () => {
    let nestedLet: unknown = {};
    let nestedMap: unknown = [[]];
    for (let i = 0; i < 40; i++) {
      nestedLet = { $let: { vars: { v: nestedLet }, in: { a: '$$v', b: '$$v' } } };
      nestedMap = { $map: { input: nestedMap, in: ['$$this', '$$this'] } };
    }
    await refused(() => aggregate([{ $project: { v: nestedLet } }]));
    await refused(() => aggregate([{ $project: { v: nestedMap } }]));
  });

  it('refuses one in $addFields, $replaceRoot, $group, $facet and $lookup, and in expressions that compare it', async () => {
    await refused(() => aggregate([{ $addFields: { v: huge } }]));
    await refused(() => aggregate([{ $replaceRoot: { newRoot: { v: huge } } }]));
    await refused(() => aggregate([{ $group: { _id: null, v: { $push: huge } } }]));
    await refused(() => aggregate([{ $group: { _id: huge } }]));
    await refused(() => aggregate([{ $facet: { f: [{ $project: { v: huge } }] } }]));
    const coll = await rows();
    await refused(() =>
      coll.aggregate([{ $lookup: { from: 'rows', pipeline: [{ $set: { v: huge } }], as: 'j' } }]).toArray(),
    );
    await refused(() => aggregate([{ $match: { $expr: { $eq: [huge, huge] } } }]));
    await refused(() => aggregate([{ $project: { n: { $bsonSize: huge } } }]));
  });

  it("refuses one in find's computed projection", async () => {
    const coll = await rows();
    await refused(() => coll.find({}, { projection: { v: huge } }).toArray());
    await refused(() => coll.find({}, { projection: { 'v.w': hugeArray } }).toArray());
  });

  it('refuses one in update pipelines, findAndModify, $out and $merge, writing nothing', async () => {
    const coll = await rows();
    await refused(() => coll.updateOne({ _id: 1 }, [{ $set: { v: huge } }]));
    await refused(() => coll.updateMany({}, [{ $project: { v: huge } }]));
    await refused(() => coll.findOneAndUpdate({ _id: 1 }, [{ $set: { v: huge } }]));
    await refused(() => coll.aggregate([{ $set: { v: huge } }, { $out: 'out' }]).toArray());
    await refused(() => coll.aggregate([{ $set: { v: huge } }, { $merge: { into: 'merged' } }]).toArray());
    expect(await coll.find().sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    expect(await state.db.collection('merged').countDocuments()).toBe(0);
  });

  it('keeps one up to 64 MiB: its values, and its exact $bsonSize', async () => {
    const [small] = await aggregate([{ $project: { _id: 0, v: doubling(2, {}, twice) } }]);
    expect(small).toEqual({ v: { a: { a: {}, b: {} }, b: { a: {}, b: {} } } });
    // 16 * 2^22 - 11 = 67108853 bytes is just below 64 MiB (67108864), so MongoDB measures it; one more
    // step passes the limit.
    const sizes = (steps: number) =>
      aggregate([{ $project: { _id: 0, n: { $bsonSize: doubling(steps, {}, twice) } } }]);
    expect(await sizes(22)).toEqual([{ n: 67108853 }]);
    await refused(() => sizes(23));
  });

  it('passes one of 32 MiB through a $project that drops or keeps other fields', async () => {
    const measured = (project: object) =>
      aggregate([
        { $set: { v: doubling(21, {}, twice), w: 1 } },
        { $project: project },
        { $project: { _id: 0, n: { $bsonSize: '$v' } } },
      ]);
    expect(await measured({ w: 0 })).toEqual([{ n: 33554421 }]);
    expect(await measured({ v: 1 })).toEqual([{ n: 33554421 }]);
  });
});
