/**
 * plume/sync when the database goes away under running instances: restarted (same port and data
 * directory), or the sync collection dropped. Each instance has its own client, as separate processes do.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, type MongoClientOptions } from 'mongodb';
import { createApp, type Application } from 'plume';
import { getSync, sync, type SyncOptions } from 'plume/sync';
import { startRestartable, type RestartableDatabase } from '../support/restartable.js';
import { until } from '../support/until.js';
import { startEmbeddedServer } from 'plume/embedded';

class Notes {
  private next = 0;
  async create(data: Record<string, unknown>) {
    return { id: ++this.next, ...data };
  }
}

describe('plume/sync when the database goes away', () => {
  let database: RestartableDatabase;
  const clients: MongoClient[] = [];
  const apps: Application[] = [];
  let collectionName = 0;

  /** An app instance with a `notes` service; collects what its `created` listeners and `error` get. */
  async function instance(
    collection: string,
    clientOptions: MongoClientOptions = {},
    syncOptions: Omit<SyncOptions, 'Model'> = {},
  ) {
    const client = await MongoClient.connect(`${database.server.uri}?replicaSet=plume`, clientOptions);
    clients.push(client);
    const app = createApp();
    app.use('notes', new Notes());
    const errors: Error[] = [];
    app.on('error', (error: Error) => errors.push(error));
    app.configure(sync({ Model: client.db('sync_restart').collection(collection), ...syncOptions }));
    await getSync(app)!.ready;
    apps.push(app);
    const received: string[] = [];
    app.service('notes').on('created', (data) => received.push((data as { text: string }).text));
    return { app, errors, received, client };
  }

  beforeAll(async () => {
    database = await startRestartable('plume-sync-restart-');
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.teardown();
    for (const client of clients.splice(0)) await client.close();
    collectionName++;
  });
  afterAll(async () => {
    await database.close();
  });

  it('keeps delivering after the sync collection is dropped, and reports the drop', async () => {
    const name = `events_${collectionName}`;
    const a = await instance(name);
    const b = await instance(name);
    const feed = getSync(b.app)!.follow({ path: 'notes' });
    await feed.ready;
    await a.app.service('notes').create({ text: 'before' });
    await until(() => b.received.length === 1);
    await a.client.db('sync_restart').collection(name).drop();
    await until(() => a.errors.length > 0 && b.errors.length > 0);
    await a.app.service('notes').create({ text: 'after' });
    await until(() => b.received.length === 2);
    expect(b.received).toEqual(['before', 'after']);
    const followed = [(await feed.next()).value, (await feed.next()).value];
    expect(followed.map((event) => (event!.data as { text: string }).text)).toEqual(['before', 'after']);
    await feed.return!();
    for (const { errors } of [a, b]) {
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ name: 'GeneralError' });
      expect(errors[0]!.message).toMatch(/sync collection was dropped or renamed/);
    }
    // The TTL index that deletes old events is back on the new collection.
    const events = a.client.db('sync_restart').collection(name);
    let ttl: unknown;
    while (!ttl) ttl = (await events.indexes()).find((index) => index.name === 'at_1');
    expect(ttl).toMatchObject({ expireAfterSeconds: 3600 });
  });

  it('resumes, after an outage longer than the driver retries, from where its stream stood', async () => {
    const name = `events_${collectionName}`;
    // The driver gives up on an unreachable server after serverSelectionTimeoutMS (default 30 s); A
    // keeps the default, so its write waits for the database to be back.
    const quick = { serverSelectionTimeoutMS: 300 };
    const a = await instance(name);
    const b = await instance(name, quick);
    // B has received nothing yet: its only position is the one its stream reached.
    await database.restart(() => until(() => b.errors.length > 0));
    await a.app.service('notes').create({ text: 'after the restart' });
    await getSync(a.app)!.flush();
    await until(() => b.received.length === 1);
    expect(b.received).toEqual(['after the restart']);
    // The failure that ended its stream was reported on the app's error event.
    expect(b.errors[0]?.name).toMatch(/^Mongo(Network|ServerSelection)Error$/);
  });

  it('reports an outage once, however many reopens fail, and logs when it receives events again', async () => {
    const name = `events_${collectionName}`;
    const a = await instance(name);
    const client = await MongoClient.connect(`${database.server.uri}?replicaSet=plume`, {
      serverSelectionTimeoutMS: 300,
    });
    clients.push(client);
    // Each (re)open of B's feed calls watch() on the collection it was given: counting them shows when
    // a reopen has failed.
    let watches = 0;
    const Model = new Proxy(client.db('sync_restart').collection(name), {
      get(target, key) {
        if (key === 'watch') watches++;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const b = createApp();
    b.use('notes', new Notes());
    const errors: Error[] = [];
    b.on('error', (error: Error) => errors.push(error));
    const logged: string[] = [];
    const log = (_fields: unknown, message?: string): number => logged.push(message ?? '');
    b.set('logger', { error: log, warn: log, info: log, debug: log });
    b.configure(sync({ Model }));
    apps.push(b);
    await getSync(b)!.ready;
    const received: string[] = [];
    b.service('notes').on('created', (data) => received.push((data as { text: string }).text));
    // The third watch() starts once the first reopen has failed (1 s after the stream failed, then 2 s).
    await database.restart(() => until(() => watches >= 3, 30_000));
    await until(() => logged.length > 0, 60_000);
    await a.app.service('notes').create({ text: 'after the outage' });
    await until(() => received.length === 1);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.name).toMatch(/^Mongo(Network|ServerSelection)Error$/);
    expect(logged).toHaveLength(1);
    const failed = Number(/after (\d+) failed attempt\(s\) to reopen the feed$/.exec(logged[0]!)?.[1]);
    expect(logged[0]).toMatch(/^plume\/sync: receiving events again/);
    expect(failed).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it("logs what it reports at error level through the app's logger when the app has no error listener", async () => {
    const app = createApp();
    const logged: { fields: unknown; message?: string }[] = [];
    const ignore = (): void => undefined;
    app.set('logger', {
      error: (fields: unknown, message?: string) => logged.push({ fields, message }),
      warn: ignore,
      info: ignore,
      debug: ignore,
    });
    app.configure(sync({ Model: Promise.reject(new Error('no such collection')) }));
    apps.push(app);
    await until(() => logged.length > 0);
    expect(logged[0]!.message).toBe('plume/sync: no such collection');
    expect(logged[0]!.fields).toMatchObject({ message: 'no such collection' });
  });

  it('delivers the events emitted once the database is back, without an error, after a restart', async () => {
    const name = `events_${collectionName}`;
    const a = await instance(name);
    const b = await instance(name);
    await a.app.service('notes').create({ text: 'before' });
    await until(() => b.received.length === 1);
    await database.restart();
    // A's pool still holds the connections the restart closed: the first write after it meets one.
    await a.app.service('notes').create({ text: 'after' });
    await getSync(a.app)!.flush();
    await until(() => b.received.length === 2);
    expect(b.received).toEqual(['before', 'after']);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('tears down while the database is down, reporting the events it could not write', async () => {
    const a = await instance(`events_${collectionName}`, { serverSelectionTimeoutMS: 300 });
    apps.splice(0);
    await database.restart(async () => {
      await a.app.service('notes').create({ text: 'never written' });
      await a.app.teardown();
    });
    const report = a.errors.find((error) => /not written/.test(error.message));
    expect(report).toMatchObject({ name: 'GeneralError' });
    expect(report!.message).toMatch(/^plume\/sync: 1 event\(s\) not written to the sync collection/);
  });

  it('tears down within teardownTimeoutMs while the database is down, reporting what it could not write', async () => {
    // A's driver would wait for the database for its default serverSelectionTimeoutMS (30 s, longer
    // than this test may take): teardown gives up after teardownTimeoutMs instead.
    const a = await instance(`events_${collectionName}`, {}, { teardownTimeoutMs: 200 });
    apps.splice(0);
    await database.restart(async () => {
      await a.app.service('notes').create({ text: 'never written' });
      await a.app.service('notes').create({ text: 'never written either' });
      await a.app.teardown();
    });
    const report = a.errors.find((error) => /not written/.test(error.message));
    expect(report).toMatchObject({ name: 'GeneralError' });
    expect(report!.message).toMatch(/^plume\/sync: 2 event\(s\) not written to the sync collection/);
    expect(report!.message).toMatch(/teardownTimeoutMs/);
  });

  it('ends a follow() iterator whose stream cannot be resumed with Unavailable (503), then resumes after its last event', async () => {
    const name = `events_${collectionName}`;
    const a = await instance(name);
    const b = await instance(name, { serverSelectionTimeoutMS: 300 });
    const feed = getSync(b.app)!.follow({ path: 'notes' });
    await feed.ready;
    await a.app.service('notes').create({ text: 'before' });
    const first = await feed.next();
    let failure: unknown;
    await database.restart(async () => {
      failure = await feed.next().catch((error: unknown) => error);
      await a.app.service('notes').create({ text: 'while down' });
    });
    // The error DocDbService gives for an unreachable database (src/docdb/error-handler.ts).
    expect(failure).toMatchObject({
      name: 'Unavailable',
      code: 503,
      message: 'The database is unavailable',
      cause: { name: expect.stringMatching(/^Mongo/) },
    });
    expect(await feed.next()).toEqual({ value: undefined, done: true });
    // A client reconnecting with the last position it got (Last-Event-ID) misses nothing (once B's
    // driver, which gives up after 300 ms, sees the database again).
    while (
      !(await b.client
        .db('admin')
        .command({ ping: 1 })
        .catch(() => false))
    );
    const again = getSync(b.app)!.follow({ path: 'notes', after: first.value!.position });
    await again.ready;
    expect(((await again.next()).value!.data as { text: string }).text).toBe('while down');
    await again.return!();
  });

  it('reports the events lost when its position left the change history, then receives the new ones', async () => {
    const short = await startEmbeddedServer({ changeStreamHistory: 3 });
    const client = await MongoClient.connect(`${short.uri}?replicaSet=plume`);
    const Model = client.db('sync_restart').collection('events');
    try {
      const a = createApp();
      a.use('notes', new Notes());
      a.configure(sync({ Model }));
      apps.push(a);
      const feed = getSync(a)!.follow();
      await feed.ready;
      await a.service('notes').create({ text: 'first' });
      const old = (await feed.next()).value!.position;
      await feed.return!();
      for (let i = 0; i < 5; i++) await a.service('notes').create({ text: `pushes it out ${i}` });
      await getSync(a)!.flush();
      const c = createApp();
      c.use('notes', new Notes());
      const errors: Error[] = [];
      c.on('error', (error: Error) => errors.push(error));
      const received: string[] = [];
      c.service('notes').on('created', (data) => received.push((data as { text: string }).text));
      c.configure(sync({ Model, startAfter: old }));
      apps.push(c);
      await until(() => errors.length > 0);
      expect(errors[0]).toMatchObject({ name: 'GeneralError', cause: { code: 286 } });
      expect(errors[0]!.message).toMatch(/events emitted since this instance's last position are lost/);
      // C reopens its feed from now a moment later: emit until it receives one.
      for (let i = 0; received.length === 0; i++) {
        await a.service('notes').create({ text: `new ${i}` });
        await until(() => received.length > 0, 200).catch(() => undefined);
      }
      expect(received[0]).toMatch(/^new/);
    } finally {
      for (const app of apps.splice(0)) await app.teardown();
      await client.close();
      await short.stop();
    }
  });
});
