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
  /** What the start-up line says: the embedded database (in memory) or the MongoDB host, without credentials. */
  description: string;
  close(): Promise<void>;
}

/** The database could not be reached in time: the message names the host, never the credentials. */
export class DatabaseUnreachable extends Error {
  override name = 'DatabaseUnreachable';
}

/**
 * The hosts of a MongoDB connection string without user name, password or options:
 * `mongodb://ada:secret@db1:27017,db2/app?tls=true` gives `db1:27017,db2`.
 */
export function mongoHosts(url: string): string {
  const rest = url.replace(/^mongodb(\+srv)?:\/\//, '');
  const authority = rest.split(/[/?]/, 1)[0] ?? '';
  return authority.slice(authority.lastIndexOf('@') + 1);
}

/** The one-line message of a `DatabaseUnreachable`; `undefined` for any other error. */
export function describeDatabaseError(error: unknown): string | undefined {
  return error instanceof DatabaseUnreachable ? error.message : undefined;
}

/** `MONGODB_TIMEOUT_MS`, else 5 000: how long start-up waits for MongoDB. */
function timeoutFromEnvironment(): number {
  const value = Number(process.env.MONGODB_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : 5_000;
}

/**
 * Connects to `MONGODB_URL` when it is set, otherwise starts the embedded MongoDB-compatible
 * database in this process, in memory (also when `url` is empty), so the example runs on a fresh
 * machine with nothing installed. Waits at most `timeoutMs` (default `MONGODB_TIMEOUT_MS`, else
 * 5 000) for MongoDB, then throws `DatabaseUnreachable` naming the host.
 */
export async function connectDatabase(
  url = process.env.MONGODB_URL,
  name = 'plume-example',
  timeoutMs = timeoutFromEnvironment(),
): Promise<Database> {
  const server = url ? undefined : await startEmbeddedServer();
  const uri = server?.uri ?? url!;
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: timeoutMs, connectTimeoutMS: timeoutMs });
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    await server?.stop();
    const reason = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
    throw new DatabaseUnreachable(
      `cannot reach MongoDB at ${mongoHosts(uri)} within ${timeoutMs} ms (set MONGODB_URL, or MONGODB_TIMEOUT_MS to wait longer): ${reason}`,
      { cause: error },
    );
  }
  return {
    db: client.db(name),
    client,
    uri,
    embedded: server !== undefined,
    description:
      server === undefined
        ? `MongoDB at ${mongoHosts(uri)}`
        : 'the embedded database, in memory: data is lost on exit (set MONGODB_URL to use MongoDB)',
    async close() {
      await client.close();
      await server?.stop();
    },
  };
}
