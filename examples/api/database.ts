import { MongoClient, type Db } from 'mongodb';
import { startEmbeddedServer } from 'plume/embedded';

/** A connected database and how to close it (and the embedded server, when one was started). */
export interface Database {
  db: Db;
  client: MongoClient;
  /** `MONGODB_URL`, or the embedded server's URI. */
  uri: string;
  /** True when running on the embedded database. */
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Connects to `MONGODB_URL` when it is set, otherwise starts the embedded MongoDB-compatible
 * database in this process (also when `url` is empty), so the example runs on a fresh machine with
 * nothing installed.
 */
export async function connectDatabase(
  url = process.env.MONGODB_URL,
  name = 'plume-example',
): Promise<Database> {
  const server = url ? undefined : await startEmbeddedServer();
  const uri = server?.uri ?? url!;
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
  await client.connect();
  return {
    db: client.db(name),
    client,
    uri,
    embedded: server !== undefined,
    async close() {
      await client.close();
      await server?.stop();
    },
  };
}
