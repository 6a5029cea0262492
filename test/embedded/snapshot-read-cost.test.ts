/**
 * What a snapshot read outside a transaction (`readConcern: { level: 'snapshot' }`) costs the writes
 * after it. It used to pin every collection's state when it took its point in time, so the next plain
 * write to each collection copied that collection's documents map and indexes (O(documents)), whether
 * the read ever read it or not. A point in time now reads as a transaction does: it pins only what it
 * reads, and a write to a collection it has not read keeps only the document it replaced. The copy is
 * seen here, without timing anything, as the live state object a write replaces; the answers of
 * snapshot reads are pinned through the driver in conformance/snapshot-reads.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/embedded/engine/database.js';
import { releaseExpiredPoints, snapshotReader } from '../../src/embedded/engine/point-in-time.js';
import { deleteStatement, insertOne, updateStatement } from '../../src/embedded/engine/write.js';

const N = 20_000;

/** An engine with a small collection `db.small` and one of {@link N} documents `db.large`. */
function engineWithLarge() {
  const engine = new Engine();
  const small = engine.create('db', 'small');
  const large = engine.create('db', 'large');
  insertOne(engine, small, undefined, { _id: 1 });
  for (let i = 0; i < N; i++) insertOne(engine, large, undefined, { _id: i, v: i });
  return { engine, small, large };
}

describe('a snapshot read outside a transaction', () => {
  it('leaves writes to a collection it has not read copying nothing, and still reads it as it was', () => {
    const { engine, small, large } = engineWithLarge();
    const { reader } = snapshotReader(engine, undefined);
    expect(engine.readState(small, reader).docs.size).toBe(1);
    const live = large.state;
    insertOne(engine, large, undefined, { _id: 'new' });
    updateStatement(engine, large, undefined, { q: { _id: 0 }, u: { $set: { v: 'changed' } } });
    deleteStatement(engine, large, undefined, { _id: 1 }, 1);
    // The live state was written in place: no copy of its 20,000 documents.
    expect(large.state).toBe(live);
    // Read later, the collection is as it was at the point in time.
    const then = engine.readState(large, reader);
    expect(then.docs.size).toBe(N);
    expect([...then.docs.values()].find((d) => d['_id'] === 0)).toEqual({ _id: 0, v: 0 });
    expect([...then.docs.values()].find((d) => d['_id'] === 1)).toEqual({ _id: 1, v: 1 });
    expect([...then.docs.values()].find((d) => d['_id'] === 'new')).toBeUndefined();
    expect(engine.readState(large, undefined).docs.size).toBe(N);
  });

  it('copies a collection it read at most once, at the first write after the read', () => {
    const { engine, large } = engineWithLarge();
    const { reader } = snapshotReader(engine, undefined);
    const read = engine.readState(large, reader);
    const live = large.state;
    insertOne(engine, large, undefined, { _id: 'first' });
    const copied = large.state;
    expect(copied).not.toBe(live);
    insertOne(engine, large, undefined, { _id: 'second' });
    expect(large.state).toBe(copied);
    expect(read.docs.size).toBe(N);
  });

  it('lets writes go in place again once its point in time has left the history window', () => {
    const { engine, large } = engineWithLarge();
    const { reader } = snapshotReader(engine, undefined);
    engine.readState(large, reader);
    // What the server's one-second timer does once 300 s have passed.
    reader.readableUntil = Date.now() - 1;
    releaseExpiredPoints(engine);
    const live = large.state;
    insertOne(engine, large, undefined, { _id: 'after' });
    expect(large.state).toBe(live);
    expect(engine.pointsInTime.size).toBe(0);
  });
});
