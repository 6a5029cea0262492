/**
 * A transaction reads every collection as of one point in time, its first operation, whichever
 * collection it touches first. Sources: MongoDB manual, Read Concern "snapshot"
 * (https://www.mongodb.com/docs/manual/reference/read-concern-snapshot/: a query "returns
 * majority-committed data as it appears across shards from a specific single point in time"), and
 * "Transactions and Read Concern" (https://www.mongodb.com/docs/manual/core/transactions/#transactions-and-read-concern:
 * the transaction's operations read from one snapshot); MongoDB's jstests/core/txns/read_concern.js
 * (whatever its readConcern, a transaction does not see a document inserted after its first read).
 */
import { describe, expect, it } from 'vitest';
import type { ClientSession, Collection, Db } from 'mongodb';
import { connect, drivers } from '../helpers.js';

describe.each(drivers)('transaction snapshot across collections ($name)', (driver) => {
  const t = connect(driver, 'txnsnap');

  /** Fresh collections `<prefix>_a` (one document pointing at B's `_id: 1`) and `<prefix>_b`. */
  async function seed(db: Db, prefix: string): Promise<{ a: Collection<any>; b: Collection<any> }> {
    const a = db.collection<any>(`${prefix}_a`);
    const b = db.collection<any>(`${prefix}_b`);
    await a.insertOne({ _id: 1, ref: 1 });
    await b.insertMany([
      { _id: 1, v: 'old', to: 2 },
      { _id: 2, v: 'gone', to: null },
    ]);
    return { a, b };
  }

  /** What another client commits to B once the transaction has started: an insert, an update, a delete. */
  async function changeB(b: Collection<any>): Promise<void> {
    await b.insertOne({ _id: 3, v: 'new', to: 1 });
    await b.updateOne({ _id: 1 }, { $set: { v: 'changed' } });
    await b.deleteOne({ _id: 2 });
  }

  const before = [
    { _id: 1, v: 'old', to: 2 },
    { _id: 2, v: 'gone', to: null },
  ];

  /** A read of B in the transaction, and what it gives when it sees B as it was before {@link changeB}. */
  interface Read {
    name: string;
    run(a: Collection<any>, b: Collection<any>, s: ClientSession): Promise<unknown>;
    expected: unknown;
  }
  const reads: Read[] = [
    {
      name: 'find',
      run: (_a, b, s) => b.find({}, { session: s }).sort({ _id: 1 }).toArray(),
      expected: before,
    },
    {
      name: 'aggregate',
      run: (_a, b, s) => b.aggregate([{ $sort: { _id: 1 } }], { session: s }).toArray(),
      expected: before,
    },
    {
      name: 'countDocuments',
      run: (_a, b, s) => b.countDocuments({ v: { $in: ['old', 'gone'] } }, { session: s }),
      expected: 2,
    },
    {
      name: 'distinct',
      run: async (_a, b, s) => (await b.distinct('v', {}, { session: s })).sort(),
      expected: ['gone', 'old'],
    },
    {
      name: '$lookup',
      run: (a, b, s) =>
        a
          .aggregate(
            [
              { $lookup: { from: b.collectionName, localField: 'ref', foreignField: '_id', as: 'b' } },
              { $project: { b: 1 } },
            ],
            { session: s },
          )
          .toArray(),
      expected: [{ _id: 1, b: [before[0]] }],
    },
    {
      name: '$unionWith',
      run: (a, b, s) =>
        a
          .aggregate([{ $project: { _id: 1 } }, { $unionWith: { coll: b.collectionName } }], { session: s })
          .toArray(),
      expected: [{ _id: 1 }, ...before],
    },
    {
      name: '$graphLookup',
      run: async (a, b, s) => {
        const [doc] = await a
          .aggregate(
            [
              {
                $graphLookup: {
                  from: b.collectionName,
                  startWith: '$ref',
                  connectFromField: 'to',
                  connectToField: '_id',
                  as: 'chain',
                },
              },
            ],
            { session: s },
          )
          .toArray();
        return (doc!['chain'] as { _id: number }[]).map((d) => d._id).sort();
      },
      expected: [1, 2],
    },
    {
      name: 'a view on B',
      run: (_a, b, s) =>
        t.db.collection<any>(`${b.collectionName}_view`).find({}, { session: s }).sort({ _id: 1 }).toArray(),
      expected: before.map(({ _id, v }) => ({ _id, v })),
    },
  ];

  const firsts = [
    { first: 'reads A', touch: (a: Collection<any>, s: ClientSession) => a.findOne({}, { session: s }) },
    {
      first: 'writes A',
      touch: (a: Collection<any>, s: ClientSession) =>
        a.updateOne({ _id: 1 }, { $set: { seen: true } }, { session: s }),
    },
  ];

  describe.each(firsts)('a transaction whose first operation $first', ({ first, touch }) => {
    it.each(reads)('sees B as of that operation in $name after others changed B', async (read) => {
      const prefix = `${first.replace(' ', '_')}_${read.name.replace(/\W/g, '')}`;
      const { a, b } = await seed(t.db, prefix);
      await t.db.createCollection(`${prefix}_b_view`, {
        viewOn: `${prefix}_b`,
        pipeline: [{ $project: { v: 1 } }],
      });
      const s = t.client.startSession();
      try {
        s.startTransaction();
        await touch(a, s);
        await changeB(b);
        expect(await read.run(a, b, s)).toEqual(read.expected);
        await s.commitTransaction();
      } finally {
        await s.endSession();
      }
      // Outside the transaction, and in the next one, the changes are there.
      const after = [
        { _id: 1, v: 'changed', to: 2 },
        { _id: 3, v: 'new', to: 1 },
      ];
      expect(await b.find({}).sort({ _id: 1 }).toArray()).toEqual(after);
      const next = t.client.startSession();
      try {
        next.startTransaction();
        expect(await b.find({}, { session: next }).sort({ _id: 1 }).toArray()).toEqual(after);
        await next.abortTransaction();
      } finally {
        await next.endSession();
      }
    });
  });

  it('a collection created after the first operation reads empty; the next transaction sees it', async () => {
    const { a } = await seed(t.db, 'created');
    const c = t.db.collection<any>('created_c');
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await a.findOne({}, { session: s });
      await c.insertOne({ _id: 1 });
      expect(await c.find({}, { session: s }).toArray()).toEqual([]);
      expect(await c.countDocuments({}, { session: s })).toBe(0);
      await s.commitTransaction();
    } finally {
      await s.endSession();
    }
    const next = t.client.startSession();
    try {
      next.startTransaction();
      expect(await c.find({}, { session: next }).toArray()).toEqual([{ _id: 1 }]);
      await next.abortTransaction();
    } finally {
      await next.endSession();
    }
  });

  it('writes B may not touch a document others changed after the first operation', async () => {
    const { a, b } = await seed(t.db, 'conflict');
    const s = t.client.startSession();
    try {
      s.startTransaction();
      await a.findOne({}, { session: s });
      await changeB(b);
      // Source: MongoDB manual, "Production Considerations" → "In-progress Transactions and Write Conflicts"
      // (https://www.mongodb.com/docs/manual/core/transactions-production-consideration/#in-progress-transactions-and-write-conflicts):
      // the document changed after the snapshot, so the transaction's write conflicts (112).
      const error = await b.updateOne({ _id: 1 }, { $set: { v: 'mine' } }, { session: s }).catch((e) => e);
      expect(error['code']).toBe(112);
    } finally {
      await s.abortTransaction().catch(() => undefined);
      await s.endSession();
    }
    expect(await b.findOne({ _id: 1 })).toEqual({ _id: 1, v: 'changed', to: 2 });
  });
});
