import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequest, Conflict } from 'plume/errors';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer } from 'plume/embedded';
import { databases, type TestDatabase } from './databases.js';

/**
 * A multi `patch` the database refuses part-way. MongoDB applies `updateMany` to one document after
 * another and stops at the first it refuses, keeping the earlier ones changed (manual, "Write
 * Operation Atomicity": a multi-document write is atomic per document only; "db.collection.updateMany()
 * … if an error occurs, the operation does not roll back updates made before the error"). The service
 * puts those records back, so the call changes nothing.
 */
describe.each(databases)('DocDbService multi patch that fails part-way ($name)', (factory) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await factory.start();
  });
  afterAll(async () => {
    await database?.stop();
  });

  const people = [
    { name: 'ann', email: 'ann@example.com', n: 1, team: 'a' },
    { name: 'bob', email: 'bob@example.com', n: 2, team: 'a' },
    { name: 'cyd', email: 'cyd@example.com', n: 'three', team: 'a' },
  ];

  async function setup() {
    const collection = database.collection('multi_patch');
    await collection.createIndex({ email: 1 }, { unique: true });
    await collection.insertMany(people.map((person) => ({ ...person })));
    const service = new DocDbService({ Model: collection, multi: true });
    const stored = async () =>
      (await collection
        .find({}, { projection: { _id: 0 } })
        .sort({ name: 1 })
        .toArray()) as unknown[];
    return { service, stored };
  }

  it('a unique index refusing the second record leaves the first unchanged', async () => {
    const { service, stored } = await setup();
    const failure = service.patch(null, { email: 'same@example.com' }, { query: { team: 'a' } });
    await expect(failure).rejects.toBeInstanceOf(Conflict);
    expect(await stored()).toEqual(people);
  });

  it('$inc refused on the third record leaves the first two unchanged', async () => {
    const { service, stored } = await setup();
    const failure = service.patch(null, { $inc: { n: 10 } }, { query: { team: 'a', $sort: { name: 1 } } });
    await expect(failure).rejects.toBeInstanceOf(BadRequest);
    expect(await stored()).toEqual(people);
  });

  it('a multi patch the database accepts changes every match', async () => {
    const { service, stored } = await setup();
    await service.patch(null, { team: 'b' }, { query: { team: 'a' } });
    expect(await stored()).toEqual(people.map((person) => ({ ...person, team: 'b' })));
  });

  // Driver options in params.docdb (a write concern, the caller's own session) go with the transaction.
  it('a multi patch with a write concern, or in a session of the caller, is all or nothing too', async () => {
    const { service, stored } = await setup();
    await service.patch(null, { team: 'b' }, { query: { team: 'a' }, docdb: { writeConcern: { w: 1 } } });
    expect(await stored()).toEqual(people.map((person) => ({ ...person, team: 'b' })));
    const session = database.client.startSession();
    try {
      const failure = service.patch(null, { $inc: { n: 10 } }, { query: { team: 'b' }, docdb: { session } });
      await expect(failure).rejects.toBeInstanceOf(BadRequest);
      expect(session.inTransaction()).toBe(false);
    } finally {
      await session.endSession();
    }
    expect(await stored()).toEqual(people.map((person) => ({ ...person, team: 'b' })));
  });
});

/**
 * Putting records back must not undo what another client wrote meanwhile: an acknowledged write is never
 * lost. The failing update is held for a while on the server (the failCommand fail point's
 * blockConnection, MongoDB's testing fail point) so that another client's patch lands while it runs.
 */
describe('DocDbService multi patch that fails while another client writes (embedded)', () => {
  it('keeps the write another client made to one of the records while the failing update ran', async () => {
    const server = await startEmbeddedServer();
    const client = await MongoClient.connect(server.uri, { monitorCommands: true });
    try {
      const collection = client.db('race').collection('people');
      await collection.insertMany([
        { name: 'ann', n: 1 },
        { name: 'bob', n: 2 },
      ]);
      const service = new DocDbService({ Model: collection, multi: true });
      await client.db('admin').command({
        configureFailPoint: 'failCommand',
        mode: { times: 1 },
        data: { failCommands: ['update'], blockConnection: true, blockTimeMS: 500, errorCode: 11000 },
      });
      const updating = new Promise<void>((resolve) =>
        client.on('commandStarted', (event) => event.commandName === 'update' && resolve()),
      );
      const failing = service.patch(null, { team: 'x' }, { query: {} });
      await updating;
      await collection.updateOne({ name: 'bob' }, { $set: { n: 20 } }); // acknowledged
      await expect(failing).rejects.toBeInstanceOf(Conflict);
      const stored = await collection
        .find({}, { projection: { _id: 0 } })
        .sort({ name: 1 })
        .toArray();
      expect(stored).toEqual([
        { name: 'ann', n: 1 },
        { name: 'bob', n: 20 },
      ]);
    } finally {
      await client.close();
      await server.stop();
    }
  });
});
