import { randomBytes } from 'node:crypto';
import { MongoClient, type Collection, type Db, type Document } from 'mongodb';
import { startEmbeddedServer } from 'plume/embedded';

/** A connected database for one test file. */
export interface TestDatabase {
  client: MongoClient;
  db: Db;
  /** True when the server runs multi-document transactions (a replica set, a sharded cluster, or the embedded DB). */
  transactions: boolean;
  /** A fresh, randomly named collection (dropped by `stop`). */
  collection(prefix: string): Collection<Document>;
  stop(): Promise<void>;
}

/** A database the conformance suite runs against. */
export interface DatabaseFactory {
  name: string;
  start(): Promise<TestDatabase>;
}

async function connect(uri: string, stopServer: () => Promise<void>): Promise<TestDatabase> {
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`plume_test_${randomBytes(4).toString('hex')}`);
  const names: string[] = [];
  const hello = await db.admin().command({ hello: 1 });
  return {
    client,
    db,
    transactions: typeof hello.setName === 'string' || hello.msg === 'isdbgrid',
    collection(prefix) {
      const name = `${prefix}_${randomBytes(6).toString('hex')}`;
      names.push(name);
      return db.collection(name);
    },
    async stop() {
      for (const name of names)
        await db
          .collection(name)
          .drop()
          .catch(() => undefined);
      await client.close();
      await stopServer();
    },
  };
}

const embedded: DatabaseFactory = {
  name: 'embedded',
  async start() {
    const server = await startEmbeddedServer();
    return connect(server.uri, () => server.stop());
  },
};

const external: DatabaseFactory = {
  name: 'MONGODB_URL',
  start: () => connect(process.env.MONGODB_URL ?? '', async () => undefined),
};

/** The embedded database always, plus `MONGODB_URL` when it is set. */
export const databases: DatabaseFactory[] = process.env.MONGODB_URL ? [embedded, external] : [embedded];
