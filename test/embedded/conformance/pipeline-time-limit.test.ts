/**
 * `maxTimeMS` on an aggregation whose time goes into computing stages, not regex matching: MongoDB
 * checks for interrupts as its stages produce documents and answers MaxTimeMSExpired (50, "operation
 * exceeded time limit": https://www.mongodb.com/docs/manual/reference/method/cursor.maxTimeMS/). Such
 * a pipeline ran to its end whatever its time limit.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('maxTimeMS in computing stages ($name)', (driver) => {
  const t = connect(driver, 'timelimit');
  const count = 2000;

  async function numbers(name: string) {
    const coll = t.db.collection<any>(name);
    await coll.insertMany(Array.from({ length: count }, (_, i) => ({ _id: i, x: i })));
    return coll;
  }

  // Each document's window holds every document before it: quadratic work in all.
  const running = {
    $setWindowFields: {
      sortBy: { x: 1 },
      output: {
        top: {
          $topN: { n: 2, sortBy: { x: -1 }, output: '$x' },
          window: { documents: ['unbounded', 'current'] },
        },
      },
    },
  };

  it('stops $setWindowFields at maxTimeMS', async () => {
    const coll = await numbers('windows');
    const error = await failure(() => coll.aggregate([running], { maxTimeMS: 1 }).toArray());
    expect(error).toMatchObject({ code: 50, message: 'operation exceeded time limit' });
    const [last] = await coll.aggregate([running, { $sort: { x: -1 } }, { $limit: 1 }]).toArray();
    expect(last).toEqual({ _id: count - 1, x: count - 1, top: [count - 1, count - 2] });
  });

  it('stops a $lookup with a pipeline at maxTimeMS', async () => {
    const coll = await numbers('joins');
    const lookup = {
      $lookup: {
        from: 'joins',
        let: { v: '$x' },
        pipeline: [{ $match: { $expr: { $lt: ['$x', '$$v'] } } }, { $count: 'n' }],
        as: 'below',
      },
    };
    const error = await failure(() => coll.aggregate([lookup], { maxTimeMS: 1 }).toArray());
    expect(error).toMatchObject({ code: 50, message: 'operation exceeded time limit' });
    const [one] = await coll.aggregate([{ $match: { _id: 3 } }, lookup]).toArray();
    expect(one).toEqual({ _id: 3, x: 3, below: [{ n: 3 }] });
  });
});
