/**
 * plume/sync latency and throughput: two app instances (each with its own MongoClient, as separate
 * processes would have) on one database; a service event emitted on A is timed until B emits it.
 *
 *   npx tsx bench/sync.ts             embedded database, in a worker thread
 *   MONGODB_URL=… npx tsx bench/sync.ts   a MongoDB replica set
 *
 * Latency: events emitted one at a time (the next after B received the previous). Throughput: a burst
 * of events emitted back to back, from the first emit to B receiving the last.
 */
import os from 'node:os';
import { MongoClient } from 'mongodb';
import { createApp, type Application } from 'plume';
import { startEmbeddedServer } from 'plume/embedded';
import { getSync, sync } from 'plume/sync';
import { fmt, now, percentile, table } from './stats.js';

const LATENCY_EVENTS = Number(process.env.SYNC_LATENCY_EVENTS ?? 1000);
const BURST_EVENTS = Number(process.env.SYNC_BURST_EVENTS ?? 5000);

const embedded = process.env.MONGODB_URL ? undefined : await startEmbeddedServer({ worker: true });
const uri = process.env.MONGODB_URL ?? embedded!.uri;
const clients: MongoClient[] = [];

async function instance(): Promise<Application> {
  const client = await MongoClient.connect(uri);
  clients.push(client);
  const app = createApp();
  app.use('messages', {
    async create(data: Record<string, unknown>) {
      return data;
    },
  });
  app.configure(sync({ Model: client.db('plume_bench_sync').collection('events') }));
  await getSync(app)!.ready;
  return app;
}

const a = await instance();
const b = await instance();
let received = 0;
let onReceive: (() => void) | undefined;
b.service('messages').on('created', () => {
  received++;
  onReceive?.();
});
const receivedCount = (n: number): Promise<void> =>
  new Promise((resolve) => {
    if (received >= n) return resolve();
    onReceive = () => {
      if (received >= n) {
        onReceive = undefined;
        resolve();
      }
    };
  });

const message = { text: 'hello from A', author: 'bench', tags: ['a', 'b'] };
const latencies: number[] = [];
for (let i = 0; i < LATENCY_EVENTS; i++) {
  const started = now();
  const target = received + 1;
  await a.service('messages').create(message);
  await receivedCount(target);
  latencies.push((now() - started) / 1e6);
}

const base = received;
const burstStarted = now();
for (let i = 0; i < BURST_EVENTS; i++) void a.service('messages').create(message);
await receivedCount(base + BURST_EVENTS);
const burstSeconds = (now() - burstStarted) / 1e9;

console.log(
  `# plume/sync (${embedded ? 'embedded database in a worker thread' : 'MONGODB_URL'})\n\n` +
    `${new Date().toISOString()} · Node.js ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'} · ` +
    `load average ${os.loadavg()[0]!.toFixed(1)}\n`,
);
console.log(
  table(
    ['measure', 'value'],
    [
      [
        `latency p50, create on A → event on B (${fmt(LATENCY_EVENTS)} events)`,
        `${fmt(percentile(latencies, 50), 2)} ms`,
      ],
      ['latency p99', `${fmt(percentile(latencies, 99), 2)} ms`],
      [`throughput, burst of ${fmt(BURST_EVENTS)} events`, `${fmt(BURST_EVENTS / burstSeconds)} events/s`],
    ],
  ),
);

await a.teardown();
await b.teardown();
for (const client of clients) await client.close();
await embedded?.stop();
