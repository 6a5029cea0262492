/**
 * A client that stays connected while the embedded server stops and starts again on the same port
 * (and data directory), as an app does across a database restart.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { tempDir } from '../support/temp-dir.js';

describe('embedded server restarted under a connected client', () => {
  let server: EmbeddedServer | undefined;
  let client: MongoClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.stop();
  });

  it('serves the client again once back, although a change stream was waiting for events when it stopped', async () => {
    const dir = tempDir('plume-restart-client-');
    server = await startEmbeddedServer({ dbPath: dir });
    client = await MongoClient.connect(`${server.uri}?replicaSet=plume`, { serverSelectionTimeoutMS: 5000 });
    const notes = client.db('app').collection('notes');
    await notes.insertOne({ text: 'before' });
    const changes = notes.watch([], { maxAwaitTimeMS: 3000 });
    await changes.tryNext();
    // A getMore waits for events on the server while it stops. The driver re-checks the server at once
    // when that getMore fails only after minHeartbeatFrequencyMS (500 ms) since its last check.
    const next = changes.next();
    await sleep(1000);
    const port = server.port;
    await server.stop();
    server = await startEmbeddedServer({ dbPath: dir, port });
    // Before the fix, the driver's monitor hung on its closed connection: server selection timed out.
    expect(await notes.findOne({ text: 'before' }, { projection: { _id: 0 } })).toEqual({ text: 'before' });
    await notes.insertOne({ text: 'after' });
    // The change stream resumed across the restart (a closed connection is a resumable error).
    expect(await next).toMatchObject({ operationType: 'insert', fullDocument: { text: 'after' } });
    await changes.close();
  });
});
