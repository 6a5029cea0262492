/**
 * Test helpers: a target database (the embedded server, or MONGODB_URL when set) and the two driver
 * majors the suite runs with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import * as mongodb7 from 'mongodb';
import * as mongodb6 from 'mongodb6';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServerOptions } from 'plume/embedded';

/** What a test needs from one driver: its client and its bson classes (each driver checks its bson major). */
export interface DriverUnderTest {
  name: string;
  MongoClient: typeof mongodb7.MongoClient;
  MongoServerError: typeof mongodb7.MongoServerError;
  bson: Pick<
    typeof mongodb7,
    | 'ObjectId'
    | 'Decimal128'
    | 'Binary'
    | 'Long'
    | 'Timestamp'
    | 'BSONRegExp'
    | 'BSONSymbol'
    | 'Code'
    | 'UUID'
    | 'Int32'
    | 'Double'
    | 'MinKey'
    | 'MaxKey'
    | 'DBRef'
    | 'BSON'
  >;
}

/** The driver majors under test (driver 6 is typed as driver 7: the APIs used are the same). */
export const drivers: DriverUnderTest[] = [
  {
    name: 'driver 7',
    MongoClient: mongodb7.MongoClient,
    MongoServerError: mongodb7.MongoServerError,
    bson: mongodb7,
  },
  {
    name: 'driver 6',
    MongoClient: mongodb6.MongoClient as unknown as typeof mongodb7.MongoClient,
    MongoServerError: mongodb6.MongoServerError as unknown as typeof mongodb7.MongoServerError,
    bson: mongodb6 as unknown as typeof mongodb7,
  },
];

/** True when the suite runs against a real MongoDB. */
export const external = Boolean(process.env['MONGODB_URL']);

/** Starts the embedded server unless MONGODB_URL is set. */
export async function startTarget(
  options: EmbeddedServerOptions = {},
): Promise<{ uri: string; stop(): Promise<void> }> {
  const url = process.env['MONGODB_URL'];
  if (url) return { uri: url, stop: async () => {} };
  return startEmbeddedServer(options);
}

let counter = 0;
/** A database name unique to this process and call. */
export function dbName(prefix: string): string {
  counter++;
  return `plume_${prefix}_${process.pid}_${counter}`;
}

/** A connected client and a fresh database for one describe block (dropped afterwards). */
export interface Connected {
  client: mongodb7.MongoClient;
  db: mongodb7.Db;
  uri: string;
}

/**
 * Registers beforeAll/afterAll hooks that start a target, connect `driver` and create a unique database.
 * Read the returned object's fields inside tests only.
 */
export function connect(
  driver: DriverUnderTest,
  prefix: string,
  options: EmbeddedServerOptions = {},
): Connected {
  const state = {} as Connected;
  let target: { uri: string; stop(): Promise<void> } | undefined;
  beforeAll(async () => {
    target = await startTarget(options);
    state.uri = target.uri;
    state.client = new driver.MongoClient(target.uri, { serverSelectionTimeoutMS: 5000 });
    await state.client.connect();
    state.db = state.client.db(dbName(prefix));
  });
  afterAll(async () => {
    await state.db?.dropDatabase().catch(() => undefined);
    await state.client?.close();
    await target?.stop();
  });
  return state;
}

/** Runs `fn` and returns the error it rejects with (fails when it resolves). */
export async function failure(fn: () => Promise<unknown>): Promise<Record<string, any>> {
  try {
    await fn();
  } catch (error) {
    return error as Record<string, any>;
  }
  throw new Error('expected the operation to fail');
}

/** A fresh collection `evaluate` of `db` holding the one document `{ _id: 1 }`. */
async function oneDocument(db: mongodb7.Db): Promise<mongodb7.Collection<any>> {
  const coll = db.collection<any>('evaluate');
  await coll.deleteMany({});
  await coll.insertOne({ _id: 1 });
  return coll;
}

/**
 * Each expression of `fields` evaluated by `$project` on one document, as `type value` strings
 * (`Decimal128 2.5`, `Double NaN`), so that a test sees the BSON type MongoDB gives each result.
 */
export async function typedResults(
  db: mongodb7.Db,
  fields: Record<string, unknown>,
): Promise<Record<string, string>> {
  const coll = await oneDocument(db);
  const [row] = await coll
    .aggregate([{ $project: { _id: 0, ...fields } }], { promoteValues: false })
    .toArray();
  return Object.fromEntries(
    Object.entries(row!).map(([k, v]) => [k, `${(v as Record<string, string>)['_bsontype']} ${String(v)}`]),
  );
}

/** The error evaluating `expression` by `$project` on one document fails with. */
export async function expressionFailure(db: mongodb7.Db, expression: unknown): Promise<Record<string, any>> {
  const coll = await oneDocument(db);
  return failure(() => coll.aggregate([{ $project: { v: expression } }]).toArray());
}

/**
 * Runs `round(db, n)` for n = 1 … `rounds` against the embedded server on one fresh data directory,
 * the server restarted between rounds (a write of round 1 is read back from the data files in round 2).
 * `db` is the database `name`; the directory is removed afterwards.
 */
export async function acrossRestarts(
  name: string,
  rounds: number,
  round: (db: mongodb7.Db, n: number) => Promise<void>,
): Promise<void> {
  const dbPath = mkdtempSync(join(tmpdir(), `plume-${name}-`));
  try {
    for (let n = 1; n <= rounds; n++) {
      const server = await startEmbeddedServer({ dbPath });
      const client = await mongodb7.MongoClient.connect(server.uri);
      try {
        await round(client.db(name), n);
      } finally {
        await client.close();
        await server.stop();
      }
    }
  } finally {
    rmSync(dbPath, { recursive: true, force: true });
  }
}

let freshCollections = 0;
/** `pipeline` run on a fresh collection of `db` holding `docs` (the manual's example collections). */
export async function aggregateOn(
  db: mongodb7.Db,
  docs: Record<string, unknown>[],
  pipeline: Record<string, unknown>[],
): Promise<Record<string, any>[]> {
  freshCollections++;
  const coll = db.collection<any>(`fresh_${freshCollections}`);
  await coll.deleteMany({});
  if (docs.length) await coll.insertMany(docs);
  return coll.aggregate(pipeline).toArray();
}

/** A fresh collection `name` of `db` holding `docs`, with an index on each of `keys` (built first). */
export async function indexedCollection(
  db: mongodb7.Db,
  name: string,
  docs: { _id: number; [field: string]: unknown }[],
  ...keys: Record<string, 1 | -1 | 'hashed'>[]
): Promise<mongodb7.Collection<{ _id: number; [field: string]: unknown }>> {
  const coll = db.collection<{ _id: number; [field: string]: unknown }>(name);
  await coll.drop().catch(() => undefined);
  for (const key of keys) await coll.createIndex(key);
  await coll.insertMany(docs);
  return coll;
}

/** A value read with `promoteValues: false` as `type value` (`Long 3`; arrays element by element). */
export function typed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(typed);
  const type = (value as { _bsontype?: string } | null)?._bsontype;
  return type ? `${type} ${String(value)}` : value;
}
