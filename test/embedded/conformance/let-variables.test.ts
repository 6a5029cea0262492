/**
 * `let` variables on every command that takes them: values are expressions evaluated once
 * (`{ $literal: 'bar' }` is `'bar'`). Each case names where the expected answer comes from.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('let variables conformance ($name)', (driver) => {
  const t = connect(driver, 'letvars');
  let counter = 0;

  async function collection() {
    counter++;
    const coll = t.db.collection<any>(`let_${counter}`);
    await coll.insertMany([{ _id: 1 }, { _id: 2 }]);
    return coll;
  }

  const letVars = { id: 1, x: 'foo', y: { $literal: 'bar' } };
  const byId = { $expr: { $eq: ['$_id', '$$id'] } };

  // Source: driver spec crud/tests/unified/updateOne-let.yml, "UpdateOne with let option" (5.0+).
  it('update: let binds $$x and evaluates { $literal }', async () => {
    const coll = await collection();
    const r = await coll.updateOne(byId, [{ $set: { x: '$$x', y: '$$y' } }], { let: letVars });
    expect(r.matchedCount).toBe(1);
    expect(r.modifiedCount).toBe(1);
    expect(await coll.find().toArray()).toEqual([{ _id: 1, x: 'foo', y: 'bar' }, { _id: 2 }]);
  });

  // Source: driver spec crud/tests/unified/updateMany-let.yml / bulkWrite-updateOne-let.yml (let on the
  // update command of a bulk write).
  it('bulk write: let applies to its update and delete statements', async () => {
    const coll = await collection();
    await coll.bulkWrite([{ updateOne: { filter: byId, update: [{ $set: { y: '$$y' } }] } }], {
      let: letVars,
    });
    await coll.bulkWrite([{ deleteOne: { filter: { $expr: { $eq: ['$_id', '$$gone'] } } } }], {
      let: { gone: { $add: [1, 1] } },
    });
    expect(await coll.find().toArray()).toEqual([{ _id: 1, y: 'bar' }]);
  });

  // Source: driver spec crud/tests/unified/bulkWrite-deleteOne-let.yml (deleteOne with let, 5.0+).
  it('delete: let variables in the filter', async () => {
    const coll = await collection();
    const r = await coll.deleteOne(byId, { let: letVars });
    expect(r.deletedCount).toBe(1);
    expect(await coll.find().toArray()).toEqual([{ _id: 2 }]);
  });

  // Source: driver spec crud/tests/unified/findOneAndUpdate-let.yml (findAndModify with let, 5.0+).
  it('findAndModify: let in the query and the pipeline update', async () => {
    const coll = await collection();
    const doc = await coll.findOneAndUpdate(byId, [{ $set: { x: '$$x', y: '$$y' } }], {
      let: letVars,
      returnDocument: 'after',
    });
    expect(doc).toEqual({ _id: 1, x: 'foo', y: 'bar' });
  });

  // Source: MongoDB manual, "find" command (https://www.mongodb.com/docs/manual/reference/command/find/),
  // option `let` (5.0+): "variables ... accessible by the query expression"; and "aggregate" command, option `let`.
  it('find and aggregate: let variables, evaluated once', async () => {
    const coll = await collection();
    expect(await coll.find(byId, { let: letVars }).toArray()).toEqual([{ _id: 1 }]);
    const out = await coll
      .aggregate([{ $match: byId }, { $project: { y: '$$y', sum: '$$sum' } }], {
        let: { ...letVars, sum: { $add: [1, 2] } },
      })
      .toArray();
    expect(out).toEqual([{ _id: 1, y: 'bar', sum: 3 }]);
  });
});
