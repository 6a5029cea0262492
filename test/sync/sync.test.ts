import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, type Db } from 'mongodb';
import { createApp, type Application, type HookContext } from 'plume';
import { getSync, sync } from 'plume/sync';
import { until } from '../support/until.js';
import { dbName, startTarget } from '../embedded/helpers.js';

/** A tiny in-memory service: create/patch/remove emit created/patched/removed. */
class Notes {
  private next = 0;
  async create(data: Record<string, unknown>) {
    return { id: ++this.next, ...data };
  }
  async patch(id: number, data: Record<string, unknown>) {
    return { id, ...data };
  }
  async remove(id: number) {
    return { id };
  }
}

interface Received {
  event: string;
  data: any;
  context: any;
}

function record(app: Application, path: string, events: string[]): Received[] {
  const out: Received[] = [];
  for (const event of events)
    app.service(path).on(event, (data: unknown, context: unknown) => out.push({ event, data, context }));
  return out;
}

describe('plume/sync: service events on every instance', () => {
  let target: { uri: string; stop(): Promise<void> };
  let client: MongoClient;
  let db: Db;
  const apps: Application[] = [];

  /** An app instance with a `notes` service, synced through the shared collection. */
  async function instance(
    options: { startAfter?: string; maxEventBytes?: number } = {},
  ): Promise<Application> {
    const app = createApp();
    app.use('notes', new Notes());
    app.configure(sync({ Model: db.collection('sync_events'), ...options }));
    await getSync(app)!.ready;
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    target = await startTarget();
    client = await MongoClient.connect(target.uri);
    db = client.db(dbName('sync'));
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.teardown();
  });
  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
    await target.stop();
  });

  it('emits every event of one instance on the others once, in order, with its data and context', async () => {
    const a = await instance();
    const b = await instance();
    const c = await instance();
    const onA = record(a, 'notes', ['created', 'patched', 'removed']);
    const onB = record(b, 'notes', ['created', 'patched', 'removed']);
    const onC = record(c, 'notes', ['created']);
    for (let i = 0; i < 20; i++) await a.service('notes').create({ text: `n${i}`, at: new Date(0) });
    await a.service('notes').patch(3, { text: 'changed' }, { query: { x: '1' }, provider: 'rest' });
    await a.service('notes').remove(4);
    await until(() => onB.length === 22 && onC.length === 20);
    // Nothing arrives twice, and A does not receive its own events back.
    await new Promise((r) => setTimeout(r, 300));
    expect(onB).toHaveLength(22);
    expect(onA).toHaveLength(22);
    expect(onB.map((e) => e.data.text ?? e.data.id)).toEqual(onA.map((e) => e.data.text ?? e.data.id));
    expect(onB[0]!.data).toEqual({ id: 1, text: 'n0', at: new Date(0) });
    const patched = onB[20]!;
    expect(patched.event).toBe('patched');
    expect(patched.context).toMatchObject({
      path: 'notes',
      method: 'patch',
      event: 'patched',
      id: 3,
      params: { query: { x: '1' }, provider: 'rest' },
    });
    expect(patched.context.app).toBe(b);
    expect(patched.context.service).toBe(b.service('notes'));
    expect((onA[20]!.context as HookContext).app).toBe(a);
  });

  it('carries custom events and services registered after configure', async () => {
    const a = await instance();
    const b = await instance();
    a.use('late', new Notes());
    b.use('late', new Notes());
    const onB = record(b, 'late', ['created', 'custom']);
    await a.service('late').create({ text: 'x' });
    a.service('late').emit('custom', { hello: 'world' });
    await until(() => onB.length === 2);
    expect(onB.map((e) => [e.event, e.data])).toEqual([
      ['created', { id: 1, text: 'x' }],
      ['custom', { hello: 'world' }],
    ]);
  });

  it('refuses data that cannot travel and events above maxEventBytes when they are emitted', async () => {
    const a = await instance({ maxEventBytes: 1000 });
    const bad = await a
      .service('notes')
      .create({ when: new Map() })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ name: 'GeneralError', code: 500 });
    expect((bad as Error).message).toMatch(/data\.when is an instance of Map/);
    const fn = await a
      .service('notes')
      .create({ f: () => 1 })
      .catch((e: unknown) => e);
    expect((fn as Error).message).toMatch(/data\.f is a function/);
    const big = await a
      .service('notes')
      .create({ text: 'x'.repeat(2000) })
      .catch((e: unknown) => e);
    expect(big).toMatchObject({ name: 'PayloadTooLarge', code: 413 });
    expect((big as Error).message).toMatch(/more than the 1000 bytes/);
  });

  it('follow() delivers every instance’s events with positions and resumes after one', async () => {
    const a = await instance();
    const b = await instance();
    const feed = getSync(b)!.follow({ path: 'notes', event: 'created' });
    await feed.ready;
    // Order holds per emitting instance; across instances it is the order the writes commit in.
    await a.service('notes').create({ text: 'one' });
    await getSync(a)!.flush();
    await b.service('notes').create({ text: 'two' });
    await getSync(b)!.flush();
    await a.service('notes').create({ text: 'three' });
    const first = (await feed.next()).value!;
    const second = (await feed.next()).value!;
    expect([first.data, second.data]).toMatchObject([{ text: 'one' }, { text: 'two' }]);
    await feed.return!();
    const again = getSync(b)!.follow({ after: first.position });
    const texts: string[] = [];
    for await (const event of again) {
      texts.push((event.data as { text: string }).text);
      if (texts.length === 2) break;
    }
    expect(texts).toEqual(['two', 'three']);
  });

  it('an instance restarted with startAfter receives what was emitted while it was down', async () => {
    const a = await instance();
    let b = await instance();
    await a.service('notes').create({ text: 'before' });
    const seen = record(b, 'notes', ['created']);
    await until(() => seen.length === 1);
    await until(() => getSync(b)!.lastPosition !== undefined);
    const position = getSync(b)!.lastPosition!;
    await b.teardown();
    apps.splice(apps.indexOf(b), 1);
    await a.service('notes').create({ text: 'while down 1' });
    await a.service('notes').create({ text: 'while down 2' });
    await getSync(a)!.flush();
    b = createApp();
    b.use('notes', new Notes());
    const after = record(b, 'notes', ['created']);
    b.configure(sync({ Model: db.collection('sync_events'), startAfter: position }));
    apps.push(b);
    await until(() => after.length === 2);
    expect(after.map((e) => e.data.text)).toEqual(['while down 1', 'while down 2']);
  });
});
