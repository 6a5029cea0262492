/**
 * mongoose on the embedded database: `Model.watch()` delivers change events as MongoDB's Change Events
 * page describes them (https://www.mongodb.com/docs/manual/reference/change-events/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import { dbName, startTarget } from './helpers.js';

describe('mongoose on the embedded database', () => {
  let target: { uri: string; stop(): Promise<void> };
  let connection: mongoose.Connection;

  beforeAll(async () => {
    target = await startTarget();
    connection = await mongoose.createConnection(target.uri, { dbName: dbName('mongoose') }).asPromise();
  });
  afterAll(async () => {
    await connection.dropDatabase().catch(() => undefined);
    await connection.close();
    await target.stop();
  });

  it('Model.watch() reports inserts and updates with fullDocument updateLookup', async () => {
    const Note = connection.model('Note', new mongoose.Schema({ text: String, done: Boolean }));
    await Note.init();
    const stream = Note.watch([{ $match: { operationType: { $in: ['insert', 'update'] } } }], {
      fullDocument: 'updateLookup',
      maxAwaitTimeMS: 100,
    });
    const events: Record<string, any>[] = [];
    const twoEvents = new Promise<void>((resolve, reject) => {
      stream.on('change', (change: Record<string, any>) => {
        events.push(change);
        if (events.length === 2) resolve();
      });
      stream.on('error', reject);
    });
    // mongoose opens the driver's stream asynchronously (no event tells when): give it time to start.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const note = await Note.create({ text: 'hello', done: false });
    await Note.updateOne({ _id: note._id }, { $set: { done: true } });
    await twoEvents;
    await stream.close();
    expect(events.map((e) => e['operationType'])).toEqual(['insert', 'update']);
    expect(events[0]!['fullDocument']).toMatchObject({ text: 'hello', done: false });
    expect(events[1]!['updateDescription']['updatedFields']).toEqual({ done: true });
    expect(events[1]!['fullDocument']).toMatchObject({ text: 'hello', done: true });
  });
});
