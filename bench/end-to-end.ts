/**
 * End to end with a database: `GET /messages/:id` and `POST /messages` through a MongoDB adapter on
 * the embedded database, on three servers in the same run (bench/servers/db-*.ts):
 * plume's Web Standard handler with `DocDbService`, FeathersJS 5 on Express with `@feathersjs/mongodb`,
 * and hand-written Fastify routes calling the driver (the floor). This process starts the embedded
 * database in a worker thread (or uses `MONGODB_URL`), seeds 1 000 documents and loads the servers with autocannon in
 * interleaved rounds, as bench/http.ts does.
 *
 * Each server is warmed up at least 4 s per scenario: the driver's path takes several thousand requests
 * before V8 has optimised it (CPU time per request falls by half or more over the first 10 s of load).
 *
 * Part of `npm run bench`; alone, with the same load (50 connections, 5 rounds of 3 s):
 * npm run build && npx tsx bench/end-to-end.ts [--quick] [--connections=50] [--rounds=5]
 * [--profile [--only=db-plume-http.ts,db-fastify.ts]]
 * (`--profile`: instead, where the time goes — CPU µs per request of server and database split by
 * CPU profiles into HTTP, framework, driver and database; see bench/end-to-end-profile.ts)
 */
import { pathToFileURL } from 'node:url';
import { MongoClient } from 'mongodb';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { formatHttp, runHttpBench, type HttpOptions, type HttpRow, type Scenario } from './http.js';
import { optionValue } from './arguments.js';

export const endToEndServers = [
  { name: 'plume Web Standard + DocDbService', file: 'db-plume-http.ts' },
  { name: 'FeathersJS 5 + @feathersjs/mongodb on Express', file: 'db-feathers.ts' },
  { name: 'Fastify + driver (floor)', file: 'db-fastify.ts' },
] as const;

/** Seconds of load per server and scenario before the measured rounds, at least. */
const MIN_WARMUP_SECONDS = 4;

export const endToEndScenarioNames = { get: 'GET one from the database', post: 'POST to the database' };

export interface EndToEndResult {
  rows: HttpRow[];
  scenarios: Scenario[];
  database: string;
}

export async function runEndToEndBench(
  options: Pick<HttpOptions, 'warmup' | 'duration' | 'slices' | 'rounds' | 'connections' | 'profile'>,
  log: (line: string) => void = () => undefined,
): Promise<EndToEndResult> {
  let server: EmbeddedServer | undefined;
  const url = process.env.MONGODB_URL;
  // In a worker thread, so the database does not share an event loop with autocannon.
  if (url === undefined) server = await startEmbeddedServer({ worker: true });
  const collectionName = `end_to_end_${process.pid}`;
  const client = new MongoClient(url ?? server!.uri);
  try {
    const collection = client.db('plume_bench').collection(collectionName);
    await collection.deleteMany({});
    await collection.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({ text: `message number ${i}`, userId: i % 100 })),
    );
    const one = await collection.findOne({ userId: 3 });
    const scenarios: Scenario[] = [
      { name: endToEndScenarioNames.get, method: 'GET', path: `/messages/${String(one!._id)}` },
      {
        name: endToEndScenarioNames.post,
        method: 'POST',
        path: '/messages',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'A new message, posted by the benchmark', userId: 2 }),
      },
    ];
    const rows = await runHttpBench(
      {
        ...options,
        warmup: Math.max(options.warmup, MIN_WARMUP_SECONDS),
        serverList: endToEndServers,
        scenarioList: scenarios,
        env: { BENCH_MONGODB_URL: url ?? server!.uri, BENCH_COLLECTION: collectionName },
      },
      log,
    );
    await collection.drop();
    return { rows, scenarios, database: url === undefined ? 'embedded' : 'MONGODB_URL' };
  } finally {
    await client.close();
    await server?.stop();
  }
}

/** The tables, with ratios to the Fastify floor and to FeathersJS. */
export function formatEndToEnd(result: EndToEndResult): string {
  return formatHttp(result.rows, result.scenarios, [
    [endToEndServers[2].name, '× Fastify floor'],
    [endToEndServers[1].name, '× FeathersJS'],
  ]);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  if (process.argv.includes('--profile')) {
    const { formatBreakdown, runBreakdown } = await import('./end-to-end-profile.js');
    const only = optionValue('only');
    const rows = await runBreakdown(
      {
        ...(quick ? { seconds: 3, warmup: 4, rounds: 1 } : { seconds: 4, warmup: 6, rounds: 3 }),
        servers: endToEndServers,
        names: endToEndScenarioNames,
        only: only?.split(','),
      },
      console.error,
    );
    console.log(formatBreakdown(rows));
  } else {
    // The load of `npm run bench` (bench/run.ts), so that a run alone measures what the full run
    // measures: at 10 connections instead of 50, plume's ratio to the floor came out 0.1–0.2 higher.
    const result = await runEndToEndBench(
      {
        warmup: quick ? 1 : 2,
        duration: Number(optionValue('duration') ?? (quick ? 1 : 4)),
        slices: Number(optionValue('slices') ?? (quick ? 1 : 4)),
        rounds: Number(optionValue('rounds') ?? (quick ? 3 : 5)),
        connections: Number(optionValue('connections') ?? 50),
      },
      console.error,
    );
    console.log(`database: ${result.database}\n\n${formatEndToEnd(result)}`);
  }
}
