/**
 * Test helpers: a target database (the embedded server, or MONGODB_URL when set) and the two driver
 * majors the suite runs with.
 */
import * as mongodb7 from 'mongodb';
import * as mongodb6 from 'mongodb6';
import { startEmbeddedServer } from 'plume/embedded';
import type { EmbeddedServerOptions } from 'plume/embedded';

/** What a test needs from one driver: its client and its bson classes (each driver checks its bson major). */
export interface DriverUnderTest {
  name: string;
  MongoClient: typeof mongodb7.MongoClient;
  bson: Pick<
    typeof mongodb7,
    | 'ObjectId'
    | 'Decimal128'
    | 'Binary'
    | 'Long'
    | 'Timestamp'
    | 'BSONRegExp'
    | 'UUID'
    | 'Int32'
    | 'Double'
    | 'MinKey'
    | 'MaxKey'
  >;
}

/** The driver majors under test (driver 6 is typed as driver 7: the APIs used are the same). */
export const drivers: DriverUnderTest[] = [
  { name: 'driver 7', MongoClient: mongodb7.MongoClient, bson: mongodb7 },
  {
    name: 'driver 6',
    MongoClient: mongodb6.MongoClient as unknown as typeof mongodb7.MongoClient,
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
