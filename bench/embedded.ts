/**
 * The embedded database through the official driver, as the collection grows: bulk insert and
 * `insertOne` ops/s, get-by-`_id` latency (the issue requires it flat, ±20 %, from 1 k to 1 M
 * documents) and an indexed equality `find` returning 10 documents, at each size.
 *
 * Part of `npm run bench`; alone: npm run build && npx tsx bench/embedded.ts [maxDocs]
 */
import { pathToFileURL } from 'node:url';
import { MongoClient, type Collection } from 'mongodb';
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
  /** Documents per second loaded with `insertMany` batches of 10 000. */
  bulkInsertPerSec: number;
  insertOnePerSec: number;
  getByIdPerSec: number;
  getByIdMedianUs: number;
  getByIdP99Us: number;
  /** Median over rounds of this size's get-by-`_id` time ÷ the smallest size's, in the same round. */
  getByIdRatio: number;
  /** `find({ group })` on the indexed field, 10 documents per answer. */
  indexedFindPerSec: number;
  indexedFindMedianUs: number;
}

export interface EmbeddedOptions {
  sizes: number[];
  /** Operations timed per measurement. */
  ops: number;
  /** Rounds over all sizes, interleaved. */
  rounds?: number;
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

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Loads one collection per size (all in the same server, so every size shares the same heap and
 * machine state), then measures get-by-`_id` and the indexed find on every size, round after round,
 * so that drift on a shared machine hits all sizes alike.
 */
export async function runEmbeddedBench(options: EmbeddedOptions): Promise<EmbeddedRow[]> {
  const rounds = options.rounds ?? 3;
  const server = await startEmbeddedServer();
  const client = new MongoClient(server.uri);
  try {
    const db = client.db('bench');
    const makeDoc = (i: number): Doc => ({ _id: i, name: `doc ${i}`, n: i, group: Math.floor(i / 10) });
    const loaded: { size: number; coll: Collection<Doc>; bulk: number; insertOne: number }[] = [];
    for (const size of options.sizes) {
      const coll = db.collection<Doc>(`docs_${size}`);
      await coll.createIndex({ group: 1 });
      const start = now();
      for (let count = 0; count < size; count += 10_000) {
        const batch = Array.from({ length: Math.min(10_000, size - count) }, (_, i) => makeDoc(count + i));
        await coll.insertMany(batch, { ordered: false });
      }
      const bulk = size / ((now() - start) / 1e9);
      // `_id`s of insertOne documents are kept apart from the loaded range.
      let extra = 1_000_000_000;
      const inserts = await time(options.ops, () => coll.insertOne(makeDoc(extra++)));
      loaded.push({ size, coll, bulk, insertOne: 1e6 / mean(inserts) });
    }
    // Warm the driver and the server's code paths so the first size is not measured cold.
    for (const { coll, size } of loaded) await time(options.ops, () => coll.findOne({ _id: random(size) }));
    const gets = loaded.map(() => [] as number[][]);
    const finds = loaded.map(() => [] as number[][]);
    for (let round = 0; round < rounds; round++) {
      for (const [index, { coll, size }] of loaded.entries()) {
        gets[index]!.push(await time(options.ops, () => coll.findOne({ _id: random(size) })));
        finds[index]!.push(await time(options.ops, () => coll.find({ group: random(size / 10) }).toArray()));
      }
    }
    return loaded.map(({ size, bulk, insertOne }, index) => {
      const all = gets[index]!.flat();
      const perRound = gets[index]!.map(mean);
      const basePerRound = gets[0]!.map(mean);
      return {
        docs: size,
        bulkInsertPerSec: bulk,
        insertOnePerSec: insertOne,
        getByIdPerSec: 1e6 / median(perRound),
        getByIdMedianUs: median(all),
        getByIdP99Us: percentile(all, 99),
        getByIdRatio: median(perRound.map((t, round) => t / basePerRound[round]!)),
        indexedFindPerSec: 1e6 / median(finds[index]!.map(mean)),
        indexedFindMedianUs: median(finds[index]!.flat()),
      };
    });
  } finally {
    await client.close();
    await server.stop();
  }
}

/** The results as a Markdown table, with get-by-`_id` time relative to the smallest size (paired by round). */
export function formatEmbedded(rows: EmbeddedRow[]): string {
  return table(
    [
      'documents',
      'insertMany docs/s',
      'insertOne ops/s',
      'get by _id ops/s',
      'get median µs',
      'get p99 µs',
      'get time vs smallest',
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
      `${fmt(r.getByIdRatio, 2)}×`,
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
