/**
 * Snapshot reads outside transactions: `readConcern: { level: 'snapshot' }` with and without
 * `atClusterTime`. Each case names where the expected answer comes from.
 */
import { describe, expect, it } from 'vitest';
import { connect, drivers, failure } from '../helpers.js';

describe.each(drivers)('snapshot read conformance ($name)', (driver) => {
  const t = connect(driver, 'snapreads');
  const { Timestamp } = driver.bson;

  // Source: driver spec sessions/tests/unified/snapshot-sessions.yml ("Find operation with snapshot",
  // "Distinct operation with snapshot", "Aggregate operation with snapshot", "Mixed operation with
  // snapshot"): reads in a snapshot session see the data as of its first read, later writes by others
  // stay invisible; a new snapshot session sees them.
  it('a snapshot session reads the data as of its first read', async () => {
    const coll = t.db.collection<any>('snapcoll');
    await coll.insertMany([
      { _id: 1, x: 11 },
      { _id: 2, x: 11 },
    ]);
    const s = t.client.startSession({ snapshot: true });
    try {
      expect(await coll.findOne({ _id: 1 }, { session: s })).toEqual({ _id: 1, x: 11 });
      await coll.updateOne({ _id: 1 }, { $inc: { x: 1 } });
      await coll.insertOne({ _id: 3, x: 33 });
      await t.db.collection<any>('latecoll').insertOne({ _id: 1 });
      expect(await coll.findOne({ _id: 1 }, { session: s })).toEqual({ _id: 1, x: 11 });
      expect(await coll.find({}, { session: s }).toArray()).toHaveLength(2);
      expect(await coll.aggregate([{ $match: { _id: 1 } }], { session: s }).toArray()).toEqual([
        { _id: 1, x: 11 },
      ]);
      expect(await coll.distinct('x', {}, { session: s })).toEqual([11]);
      expect(await t.db.collection<any>('latecoll').find({}, { session: s }).toArray()).toEqual([]);
    } finally {
      await s.endSession();
    }
    const fresh = t.client.startSession({ snapshot: true });
    try {
      expect(await coll.findOne({ _id: 1 }, { session: fresh })).toEqual({ _id: 1, x: 12 });
    } finally {
      await fresh.endSession();
    }
  });

  // Source: as above, and db_raii.cpp (MongoDB 7.0): a snapshot read takes each collection from the
  // catalog as of its read timestamp (CollectionCatalog::establishConsistentCollection), so a collection
  // first read after others changed, or dropped, it still reads as of the session's first read.
  it('a snapshot session reads a collection it had not read yet, or one dropped since, as of its first read', async () => {
    const first = t.db.collection<any>('firstread');
    const later = t.db.collection<any>('laterread');
    const dropped = t.db.collection<any>('droppedread');
    await first.insertOne({ _id: 1 });
    await later.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    await dropped.insertOne({ _id: 1, x: 'kept' });
    const s = t.client.startSession({ snapshot: true });
    try {
      expect(await first.find({}, { session: s }).toArray()).toEqual([{ _id: 1 }]);
      await later.insertOne({ _id: 3, x: 3 });
      await later.updateOne({ _id: 1 }, { $set: { x: 'changed' } });
      await later.deleteOne({ _id: 2 });
      await dropped.drop();
      expect(await later.find({}, { session: s }).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, x: 1 },
        { _id: 2, x: 2 },
      ]);
      expect(await later.countDocuments({}, { session: s })).toBe(2);
      expect(await dropped.find({}, { session: s }).toArray()).toEqual([{ _id: 1, x: 'kept' }]);
    } finally {
      await s.endSession();
    }
    expect(await later.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, x: 'changed' },
      { _id: 3, x: 3 },
    ]);
  });

  // Source: MongoDB manual, Read Concern "snapshot" (https://www.mongodb.com/docs/manual/reference/read-concern-snapshot/):
  // atClusterTime reads the data as of that time; a time outside the snapshot history fails with
  // SnapshotTooOld rather than returning current data.
  it('atClusterTime reads that time, or is refused, never answered with current data', async () => {
    const coll = t.db.collection<any>('attime');
    await coll.insertOne({ _id: 1, v: 'old' });
    const first = await t.db.command({ find: 'attime', filter: {}, readConcern: { level: 'snapshot' } });
    const time = first['cursor']['atClusterTime'] ?? first['atClusterTime'];
    expect(time._bsontype).toBe('Timestamp');
    await coll.updateOne({ _id: 1 }, { $set: { v: 'new' } });
    const again = await t.db.command({
      find: 'attime',
      filter: {},
      readConcern: { level: 'snapshot', atClusterTime: time },
    });
    expect(again['cursor']['firstBatch']).toEqual([{ _id: 1, v: 'old' }]);
    const tooOld = await failure(() =>
      t.db.command({
        find: 'attime',
        filter: {},
        readConcern: { level: 'snapshot', atClusterTime: new Timestamp({ t: 1, i: 1 }) },
      }),
    );
    expect(tooOld['codeName']).toBe('SnapshotTooOld');
    expect(tooOld['code']).toBe(239);
  });
});
