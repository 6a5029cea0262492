/**
 * Get-by-_id latency of the embedded server as the collection grows (1 k → 1 M documents).
 * The issue requires it to stay flat (±20 %). Run: npx tsx --conditions=source bench/embedded.ts [maxDocs]
 */
import { MongoClient } from 'mongodb';
import { startEmbeddedServer } from 'plume/embedded';

const max = Number(process.argv[2] ?? 1_000_000);
const sizes = [1_000, 10_000, 100_000, 1_000_000].filter((n) => n <= max);
const server = await startEmbeddedServer();
const client = new MongoClient(server.uri);
const coll = client.db('bench').collection<{ _id: number; name: string; n: number }>('docs');
let count = 0;
const results: { docs: number; usPerOp: number }[] = [];
for (const size of sizes) {
  while (count < size) {
    const batch = Array.from({ length: Math.min(10_000, size - count) }, (_, i) => ({
      _id: count + i,
      name: `doc ${count + i}`,
      n: count + i,
    }));
    await coll.insertMany(batch, { ordered: false });
    count += batch.length;
  }
  const ops = 3000;
  for (let i = 0; i < 300; i++) await coll.findOne({ _id: Math.floor(Math.random() * count) });
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) await coll.findOne({ _id: Math.floor(Math.random() * count) });
  const usPerOp = Number(process.hrtime.bigint() - start) / 1000 / ops;
  results.push({ docs: size, usPerOp: Math.round(usPerOp) });
  console.log(`${size.toLocaleString('en')} docs: findOne by _id ${usPerOp.toFixed(0)} µs/op`);
}
const base = results[0]!.usPerOp;
for (const r of results)
  console.log(`${r.docs.toLocaleString('en')}: ${(r.usPerOp / base).toFixed(2)}× the 1 k latency`);
await client.close();
await server.stop();
