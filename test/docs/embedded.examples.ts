/**
 * The examples of docs/embedded.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import { MongoClient, type Collection } from 'mongodb';
import { repairDataDirectory, startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';

/** "Development: MongoDB when MONGODB_URL is set, the embedded database otherwise". */
export async function connectDatabase(name = 'myapp') {
  let uri = process.env.MONGODB_URL;
  let embedded: EmbeddedServer | undefined;
  if (!uri) {
    embedded = await startEmbeddedServer();
    uri = embedded.uri;
  }
  const client = await MongoClient.connect(uri);
  const db = client.db(name);
  return {
    db,
    client,
    async close() {
      await client.close();
      await embedded?.stop();
    },
  };
}

/** "Tests": a fresh in-memory server per test file. */
export async function startTestDatabase() {
  const server = await startEmbeddedServer(); // in memory, free port, 127.0.0.1
  const client = await MongoClient.connect(server.uri);
  const db = client.db('test');
  const stop = async () => {
    await client.close();
    await server.stop();
  };
  return { db, stop };
}

/** "Options": data kept on disk, a fixed port, scans in a worker thread. */
export async function startPersistentServer(dbPath: string, port = 27017) {
  const server = await startEmbeddedServer({ dbPath, port, worker: true });
  console.log(`MongoDB-compatible server at ${server.uri}`);
  return server;
}

/** "TTL indexes": documents expire after `expireAfterSeconds`, counted from a `Date` field. */
export async function createSessionsCollection(sessions: Collection) {
  await sessions.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 });
  await sessions.insertOne({ user: 'ada', expiresAt: new Date(Date.now() + 60 * 60 * 1000) });
}

/** "Full-text search". */
export async function searchArticles(articles: Collection, words: string) {
  await articles.createIndex({ title: 'text', body: 'text' }, { weights: { title: 3 } });
  const byText = await articles
    .find({ $text: { $search: words } }, { projection: { title: 1, score: { $meta: 'textScore' } } })
    .sort({ score: { $meta: 'textScore' } })
    .toArray();
  const byStage = await articles
    .aggregate([{ $search: { text: { query: words, path: ['title', 'body'] } } }, { $limit: 10 }])
    .toArray();
  return { byText, byStage };
}

/** "Damaged data files and repair": salvage into a new snapshot, the originals kept aside. */
export function repairData(dbPath: string) {
  const report = repairDataDirectory(dbPath);
  console.log(`${report.documents} documents salvaged; originals in ${report.movedTo}`);
  return report;
}
