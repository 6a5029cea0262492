/**
 * The database the end-to-end servers (`db-*.ts`) share: bench/end-to-end.ts starts the embedded
 * database, seeds a collection and passes both to every server in `BENCH_MONGODB_URL` and
 * `BENCH_COLLECTION`.
 */
import { MongoClient, type Collection, type Document } from 'mongodb';

/** The seeded collection, through a client of this process (closed when the process ends). */
export async function benchCollection(): Promise<Collection<Document>> {
  const url = process.env.BENCH_MONGODB_URL;
  const name = process.env.BENCH_COLLECTION;
  if (url === undefined || name === undefined) {
    throw new Error('BENCH_MONGODB_URL and BENCH_COLLECTION must be set (bench/end-to-end.ts sets them)');
  }
  const client = await new MongoClient(url).connect();
  return client.db('plume_bench').collection(name);
}
