/**
 * Adapter overhead: `DocDbService.get/find/create/patch` against the raw driver calls that do the
 * same work, on the same database in the same run. The target is service/raw ≤ 1.05.
 * Ratios are paired: the median over rounds of service time ÷ raw time measured in the same round.
 * Each block is timed twice: wall-clock time, and the CPU time of this process (`process.cpuUsage`;
 * with the embedded database that is client, driver and database together). On a busy machine the
 * CPU time is the steadier measure: waiting for a core counts in wall time but not in CPU time.
 * A third column calls the service registered in a plume app (`app.service(...)`, empty hook chain),
 * which is what a request reaches.
 *
 * Two load-independent columns say what the time columns cannot settle on a busy machine:
 * - "own CPU µs": the adapter's own CPU time per call, the same calls on a stub collection whose
 *   methods answer at once (so driver and database are left out; minimum over blocks);
 * - "commands": the driver commands one call sends (command monitoring), raw / service: the same
 *   number means the same round trips.
 *
 * Runs on the embedded database, or on `MONGODB_URL` when it is set.
 * 60 rounds by default: the adapter's own cost is under 1 % of a call, and with 20 rounds the medians
 * still moved by several per cent from run to run (which row came out over 1.05× changed each run).
 * Part of `npm run bench`; alone: npm run build && npx tsx bench/adapter.ts [--ops=100] [--rounds=60]
 */
import { pathToFileURL } from 'node:url';
import { MongoClient, ObjectId, type Collection, type Document } from 'mongodb';
import { createApp } from 'plume';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { fmt, median, now, table } from './stats.js';
import { optionValue } from './arguments.js';

export interface AdapterOptions {
  /** Calls per block; each block is timed as a whole. */
  ops: number;
  /** Blocks per variant, interleaved raw → service → app. */
  rounds: number;
}

export interface AdapterRow {
  operation: string;
  /** Median time per call, µs. */
  rawUs: number;
  serviceUs: number;
  appUs: number;
  /** Median over rounds of service ÷ raw time in the same round. */
  serviceRatio: number;
  /** Median over rounds of app.service ÷ raw time in the same round. */
  appRatio: number;
  /** Median CPU time per call of this process, µs: raw and service. */
  rawCpuUs: number;
  serviceCpuUs: number;
  /** Median over rounds of service ÷ raw CPU time in the same round. */
  serviceCpuRatio: number;
  /** CPU µs per call spent outside driver and database (stub collection): service, app.service. */
  ownCpuUs: number;
  appOwnCpuUs: number;
  /** Driver commands (round trips) one call sends: raw, service. */
  rawCommands: number;
  serviceCommands: number;
}

type Variant = (i: number) => Promise<unknown>;

export async function runAdapterBench(
  options: AdapterOptions,
): Promise<{ rows: AdapterRow[]; database: string }> {
  let server: EmbeddedServer | undefined;
  const url = process.env.MONGODB_URL;
  if (url === undefined) server = await startEmbeddedServer();
  const client = new MongoClient(url ?? server!.uri);
  try {
    const collection = client.db('plume_bench').collection('adapter_' + String(process.pid));
    await collection.deleteMany({});
    await collection.createIndex({ userId: 1 });
    const seed = Array.from({ length: 1000 }, (_, i) => ({ text: `message ${i}`, userId: i % 100, n: i }));
    await collection.insertMany(seed);
    const ids = (await collection.find({}, { projection: { _id: 1 } }).toArray()).map((d) => String(d._id));
    const pick = (i: number): string => ids[i % ids.length]!;

    const operations = makeOperations(collection, pick);
    const ownCost = await stubCost(pick);
    const commands = await commandsPerCall(url ?? server!.uri, collection.collectionName, pick);

    const rows: AdapterRow[] = [];
    for (const [operation, variants] of Object.entries(operations)) {
      const samples: number[][] = [[], [], []];
      const cpuSamples: number[][] = [[], [], []];
      let i = 0;
      for (const variant of variants) for (let k = 0; k < 200; k++) await variant(i++); // warm-up
      for (let round = 0; round < options.rounds; round++) {
        // The order rotates each round, so no variant always runs first (or right after a slow one).
        for (let step = 0; step < 3; step++) {
          const v = (step + round) % 3;
          const variant = variants[v]!;
          const start = now();
          const cpuStart = process.cpuUsage();
          for (let k = 0; k < options.ops; k++) await variant(i++);
          const cpu = process.cpuUsage(cpuStart);
          samples[v]!.push((now() - start) / 1000 / options.ops);
          cpuSamples[v]!.push((cpu.user + cpu.system) / options.ops);
        }
      }
      const [raw, service_, app_] = samples.map(median) as [number, number, number];
      const paired = (v: number, from = samples): number =>
        median(from[v]!.map((t, round) => t / from[0]![round]!));
      rows.push({
        operation,
        rawUs: raw,
        serviceUs: service_,
        appUs: app_,
        serviceRatio: paired(1),
        appRatio: paired(2),
        rawCpuUs: median(cpuSamples[0]!),
        serviceCpuUs: median(cpuSamples[1]!),
        serviceCpuRatio: paired(1, cpuSamples),
        ownCpuUs: ownCost[operation]![0],
        appOwnCpuUs: ownCost[operation]![1],
        rawCommands: commands[operation]![0],
        serviceCommands: commands[operation]![1],
      });
    }
    await collection.drop();
    return { rows, database: url === undefined ? 'embedded' : 'MONGODB_URL' };
  } finally {
    await client.close();
    await server?.stop();
  }
}

/**
 * The same calls three ways on `collection`: raw driver, `DocDbService`, and the service registered
 * in a plume app (`app.service`, empty hook chain). Ids arrive as strings, as they do from a URL.
 */
function makeOperations(
  collection: Collection<Document>,
  pick: (i: number) => string,
): Record<string, [Variant, Variant, Variant]> {
  const service = new DocDbService({ Model: Promise.resolve(collection) });
  const app = createApp();
  app.use('messages', new DocDbService({ Model: Promise.resolve(collection) }));
  const registered = app.service('messages');
  return {
    get: [
      (i) => collection.findOne({ _id: new ObjectId(pick(i)) }),
      (i) => service.get(pick(i)),
      (i) => registered.get(pick(i)),
    ],
    'find (equality, 10 results)': [
      (i) =>
        collection
          .find({ userId: i % 100 })
          .limit(10)
          .toArray(),
      (i) => service.find({ query: { userId: i % 100, $limit: 10 } }),
      (i) => registered.find({ query: { userId: i % 100, $limit: 10 } }),
    ],
    create: [
      async (i) => {
        const doc: Document = { text: `new ${i}`, userId: i % 100, _id: new ObjectId() };
        await collection.insertOne(doc);
        return collection.findOne({ _id: doc._id as ObjectId });
      },
      (i) => service.create({ text: `new ${i}`, userId: i % 100 }),
      (i) => registered.create({ text: `new ${i}`, userId: i % 100 }),
    ],
    'patch ($set one field)': [
      (i) =>
        collection.findOneAndUpdate(
          { _id: new ObjectId(pick(i)) },
          { $set: { n: i } },
          { returnDocument: 'after' },
        ),
      (i) => service.patch(pick(i), { n: i }),
      (i) => registered.patch(pick(i), { n: i }),
    ],
  };
}

/**
 * A collection whose methods answer at once with fixed documents: what a call costs on it is the
 * cost of the code above the driver.
 */
function stubCollection(): Collection<Document> {
  const doc = { _id: new ObjectId(), text: 'message', userId: 3, n: 1 };
  const docs = Array.from({ length: 10 }, () => ({ ...doc }));
  const cursor = {
    toArray: () => Promise.resolve(docs),
    limit: () => cursor,
    sort: () => cursor,
    skip: () => cursor,
    project: () => cursor,
  };
  const stub = {
    collectionName: 'stub',
    findOne: () => Promise.resolve(doc),
    find: () => cursor,
    insertOne: (inserted: Document) => Promise.resolve({ acknowledged: true, insertedId: inserted._id }),
    findOneAndUpdate: () => Promise.resolve(doc),
  };
  return stub as unknown as Collection<Document>;
}

/**
 * CPU µs per call above the driver, per operation: [service − raw, app.service − raw] on the stub
 * collection, each the minimum over blocks (the least disturbed one).
 */
async function stubCost(pick: (i: number) => string): Promise<Record<string, [number, number]>> {
  const calls = 5000;
  const result: Record<string, [number, number]> = {};
  for (const [operation, variants] of Object.entries(makeOperations(stubCollection(), pick))) {
    const best = [Infinity, Infinity, Infinity];
    for (let block = 0; block < 7; block++) {
      for (const [v, variant] of variants.entries()) {
        const start = process.cpuUsage();
        for (let i = 0; i < calls; i++) await variant(i);
        const cpu = process.cpuUsage(start);
        best[v] = Math.min(best[v]!, (cpu.user + cpu.system) / calls);
      }
    }
    result[operation] = [best[1]! - best[0]!, best[2]! - best[0]!];
  }
  return result;
}

/** Driver commands one call sends, per operation: [raw, service], counted by command monitoring. */
async function commandsPerCall(
  uri: string,
  name: string,
  pick: (i: number) => string,
): Promise<Record<string, [number, number]>> {
  const client = new MongoClient(uri, { monitorCommands: true });
  let count = 0;
  client.on('commandStarted', () => count++);
  try {
    const collection = client.db('plume_bench').collection(name);
    const result: Record<string, [number, number]> = {};
    const calls = 20;
    for (const [operation, [raw, service]] of Object.entries(makeOperations(collection, pick))) {
      const counts: number[] = [];
      for (const variant of [raw, service]) {
        await variant(0); // connection set up outside the count
        count = 0;
        for (let i = 0; i < calls; i++) await variant(i);
        counts.push(count / calls);
      }
      result[operation] = counts as [number, number];
    }
    return result;
  } finally {
    await client.close();
  }
}

export function formatAdapter(rows: AdapterRow[]): string {
  return table(
    [
      'operation',
      'raw driver µs',
      'DocDbService µs',
      'service/raw',
      'app.service µs',
      'app/raw',
      'raw CPU µs',
      'service CPU µs',
      'service/raw CPU',
      'own CPU µs (service, app)',
      'commands (raw, service)',
    ],
    rows.map((r) => [
      r.operation,
      fmt(r.rawUs, 1),
      fmt(r.serviceUs, 1),
      `${fmt(r.serviceRatio, 2)}×`,
      fmt(r.appUs, 1),
      `${fmt(r.appRatio, 2)}×`,
      fmt(r.rawCpuUs, 1),
      fmt(r.serviceCpuUs, 1),
      `${fmt(r.serviceCpuRatio, 2)}×`,
      `${fmt(r.ownCpuUs, 1)}, ${fmt(r.appOwnCpuUs, 1)}`,
      `${fmt(r.rawCommands, 0)}, ${fmt(r.serviceCommands, 0)}`,
    ]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { rows, database } = await runAdapterBench({
    ops: Number(optionValue('ops') ?? 100),
    rounds: Number(optionValue('rounds') ?? 60),
  });
  console.log(`database: ${database}\n${formatAdapter(rows)}`);
}
