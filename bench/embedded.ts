/**
 * The embedded database through the official driver, as the collection grows: bulk insert and
 * `insertOne` ops/s, get-by-`_id` latency (the issue requires it flat, ±20 %, from 1 k to 1 M
 * documents) and an indexed equality `find` returning 10 documents, at each size.
 *
 * Part of `npm run bench`; alone: npx tsx --conditions=source bench/embedded.ts [maxDocs]
 */
import { pathToFileURL } from 'node:url';
import { MongoClient } from 'mongodb';
import { startEmbeddedServer } from 'plume/embedded';
import { fmt, median, now, percentile, table } from './stats.js';

interface Doc {
  _id: number;
  name: string;
  n: number;
  /** Ten documents share each group value; `group` is indexed. */
  group: number;
}

/** Measurements at one collection size. */
export interface EmbeddedRow {
  docs: number;
  /** Documents per second loaded with `insertMany` batches of 10 000 while growing to this size. */
  bulkInsertPerSec: number;
  insertOnePerSec: number;
  getByIdPerSec: number;
  getByIdMedianUs: number;
  getByIdP99Us: number;
  /** `find({ group })` on the indexed field, 10 documents per answer. */
  indexedFindPerSec: number;
  indexedFindMedianUs: number;
}

export interface EmbeddedOptions {
  sizes: number[];
  /** Operations timed per measurement. */
  ops: number;
}

const random = (count: number): number => Math.floor(Math.random() * count);

/** Times `ops` sequential calls of `fn`, returning each call's latency in µs. */
async function time(ops: number, fn: () => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < ops; i++) {
    const start = now();
    await fn();
    latencies.push((now() - start) / 1000);
  }
  return latencies;
}

const perSec = (latencies: number[]): number =>
  1e6 / (latencies.reduce((a, b) => a + b, 0) / latencies.length);

export async function runEmbeddedBench(options: EmbeddedOptions): Promise<EmbeddedRow[]> {
  const server = await startEmbeddedServer();
  const client = new MongoClient(server.uri);
  try {
    const coll = client.db('bench').collection<Doc>('docs');
    await coll.createIndex({ group: 1 });
    let count = 0;
    let extra = 1_000_000_000; // `_id`s of insertOne documents, kept apart from the loaded range
    const rows: EmbeddedRow[] = [];
    const makeDoc = (i: number): Doc => ({ _id: i, name: `doc ${i}`, n: i, group: Math.floor(i / 10) });
    // Warm the driver and the server's code paths so the first size is not measured cold.
    await coll.insertOne(makeDoc(extra++));
    await time(options.ops, () => coll.findOne({ _id: extra - 1 }));
    await time(options.ops, () => coll.find({ group: 0 }).toArray());
    for (const size of options.sizes) {
      const loadStart = now();
      const loaded = size - count;
      while (count < size) {
        const batch = Array.from({ length: Math.min(10_000, size - count) }, (_, i) => makeDoc(count + i));
        await coll.insertMany(batch, { ordered: false });
        count += batch.length;
      }
      const bulkInsertPerSec = loaded / ((now() - loadStart) / 1e9);
      const inserts = await time(options.ops, () => coll.insertOne(makeDoc(extra++)));
      // Three interleaved samples each; the median smooths out GC pauses and neighbours on the machine.
      const gets: number[][] = [];
      const finds: number[][] = [];
      for (let round = 0; round < 3; round++) {
        gets.push(await time(options.ops, () => coll.findOne({ _id: random(count) })));
        finds.push(await time(options.ops, () => coll.find({ group: random(count / 10) }).toArray()));
      }
      const getAll = gets.flat();
      rows.push({
        docs: size,
        bulkInsertPerSec,
        insertOnePerSec: perSec(inserts),
        getByIdPerSec: median(gets.map(perSec)),
        getByIdMedianUs: median(getAll),
        getByIdP99Us: percentile(getAll, 99),
        indexedFindPerSec: median(finds.map(perSec)),
        indexedFindMedianUs: median(finds.flat()),
      });
    }
    return rows;
  } finally {
    await client.close();
    await server.stop();
  }
}

/** The results as a Markdown table, with get-by-`_id` latency relative to the smallest size. */
export function formatEmbedded(rows: EmbeddedRow[]): string {
  const base = rows[0]?.getByIdMedianUs ?? Number.NaN;
  return table(
    [
      'documents',
      'insertMany docs/s',
      'insertOne ops/s',
      'get by _id ops/s',
      'get median µs',
      'get p99 µs',
      'get vs first size',
      'indexed find ops/s',
      'find median µs',
    ],
    rows.map((r) => [
      fmt(r.docs),
      fmt(r.bulkInsertPerSec),
      fmt(r.insertOnePerSec),
      fmt(r.getByIdPerSec),
      fmt(r.getByIdMedianUs),
      fmt(r.getByIdP99Us),
      `${fmt(r.getByIdMedianUs / base, 2)}×`,
      fmt(r.indexedFindPerSec),
      fmt(r.indexedFindMedianUs),
    ]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const max = Number(process.argv[2] ?? 1_000_000);
  const sizes = [1_000, 10_000, 100_000, 1_000_000].filter((n) => n <= max);
  console.log(formatEmbedded(await runEmbeddedBench({ sizes, ops: 2000 })));
}
