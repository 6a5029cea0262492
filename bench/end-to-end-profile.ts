/**
 * End to end, where the time goes: the CPU time per request of the server process and of the
 * database process, split by CPU profiles into Node's HTTP, the framework (and route code), the
 * adapter (plume's `DocDbService`, `@feathersjs/mongodb`), the MongoDB driver (with `bson`), garbage
 * collection and the rest (event loop, promise jobs), and for
 * the database into its query engine and the rest (wire protocol, sockets, GC).
 *
 * The embedded database runs in a process of its own (`bin/plume-db.js`, so it can be profiled
 * apart); each server of bench/end-to-end.ts runs once per scenario with `node --cpu-prof`, is warmed
 * up, then loaded (bench/load.ts: wrk when installed), in rounds (order reversed every other round; medians reported). Only the profile samples taken during the measured load count, and
 * their shares split the CPU time both processes used during it (`/proc/<pid>/stat`, Linux), so the
 * figures are CPU µs per request, much less sensitive to a busy machine than req/s.
 *
 * Run: npm run build && npx tsx bench/end-to-end.ts --profile [--quick] [--only=db-plume-http.ts,db-fastify.ts]
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import type { BenchServer, Scenario } from './http.js';
import { cpuTimeUs, load, serverCommand } from './load.js';
import { startProcess, stopProcess } from './processes.js';
import { fmt, median, table } from './stats.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where a server's CPU time goes, µs per request (shares of its profile × its measured CPU time). */
export const serverParts = ['HTTP (Node.js)', 'framework', 'adapter', 'driver', 'GC', 'other'] as const;
/** Where the database's CPU time goes, µs per request. */
export const databaseParts = ['query engine', 'wire, sockets, GC'] as const;

export interface BreakdownRow {
  server: string;
  scenario: string;
  reqPerSec: number;
  serverCpuUs: number;
  databaseCpuUs: number;
  serverSplit: Record<(typeof serverParts)[number], number>;
  databaseSplit: Record<(typeof databaseParts)[number], number>;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Monotonic clock in µs, the clock of V8's profile timestamps. */
const clockUs = (): number => Number(process.hrtime.bigint() / 1000n);

type Classify = (stack: ProfileNode['callFrame'][]) => string;

/**
 * A server's sample: the driver if it is anywhere on the stack, else the innermost HTTP, adapter or
 * framework frame.
 */
const classifyServer: Classify = (stack) => {
  if (stack.some((f) => /\/node_modules\/(mongodb|bson)\//.test(f.url))) return 'driver';
  for (const { url } of stack) {
    if (/^node:(_http_|net$|stream|internal\/streams|internal\/http)/.test(url)) return 'HTTP (Node.js)';
    // plume's own files are under src/ (tsx) or dist/ (the built package the servers import).
    if (/\/(src|dist)\/(adapter|docdb)\/|\/node_modules\/@feathersjs\/(mongodb|adapter-commons)\//.test(url))
      return 'adapter';
    if (/\/(src|dist|bench|node_modules)\//.test(url) && !url.includes('/node_modules/tsx/'))
      return 'framework';
  }
  return stack[0]?.functionName === '(garbage collector)' ? 'GC' : 'other';
};

const classifyDatabase: Classify = (stack) =>
  stack.some((f) => /\/(src|dist)\/embedded\/(engine|commands)\//.test(f.url))
    ? 'query engine'
    : 'wire, sockets, GC';

/** Busy time by part within [from, to] (µs on the profile clock), leaf-first stacks. */
function split(profile: Profile, from: number, to: number, classify: Classify): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const parts = new Map<string, number>();
  const cache = new Map<number, string>();
  let time = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    time += dt;
    if (time < from || time > to) return;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === '(idle)') return;
    let part = cache.get(id);
    if (part === undefined) {
      const stack: ProfileNode['callFrame'][] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        stack.push(byId.get(at)!.callFrame);
      }
      part = classify(stack);
      cache.set(id, part);
    }
    parts.set(part, (parts.get(part) ?? 0) + dt);
  });
  return parts;
}

/** The profile of the main thread in `dir` (the one busiest in the window; tsx's loader thread writes one too). */
function mainProfile(dir: string, from: number, to: number): Profile {
  const profiles = readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile);
  const busy = (p: Profile): number => [...split(p, from, to, () => 'x').values()].reduce((a, b) => a + b, 0);
  return profiles.sort((a, b) => busy(b) - busy(a))[0]!;
}

/** Shares of `parts` applied to `cpuUs` (the measured CPU time per request). */
function scale<K extends string>(
  names: readonly K[],
  parts: Map<string, number>,
  cpuUs: number,
): Record<K, number> {
  const total = [...parts.values()].reduce((a, b) => a + b, 0);
  return Object.fromEntries(names.map((name) => [name, ((parts.get(name) ?? 0) / total) * cpuUs])) as Record<
    K,
    number
  >;
}

/** Starts `node args…` (a server: pinned like bench/http.ts' servers; else not pinned) and waits for `ready`. */
async function start(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  server = true,
): Promise<[ChildProcess, string]> {
  const [command, commandArgs] = server ? serverCommand(args) : [process.execPath, args];
  const started = await startProcess(command, commandArgs, { ready, name: args.join(' '), cwd: root, env });
  return [started.child, started.ready];
}

export interface BreakdownOptions {
  /** Seconds of measured load per server and scenario, after `warmup` seconds. */
  seconds: number;
  warmup: number;
  /** The servers (bench/servers files) and the names of the GET and POST scenarios. */
  servers: readonly BenchServer[];
  names: { get: string; post: string };
  /** Server files to run; default all. */
  only?: string[] | undefined;
  /** Runs of every server and scenario, in an order reversed every other round; medians are reported. */
  rounds: number;
}

export async function runBreakdown(
  options: BreakdownOptions,
  log: (line: string) => void = () => undefined,
): Promise<BreakdownRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'plume-where-'));
  const databaseDir = join(dir, 'database');
  const [database, uri] = await start(
    ['--cpu-prof', `--cpu-prof-dir=${databaseDir}`, join(root, 'bin', 'plume-db.js'), '--port', '0'],
    {},
    /(mongodb:\/\/\S+)/,
    false,
  );
  const windows: { row: BreakdownRow; from: number; to: number }[] = [];
  try {
    const collectionName = `where_${process.pid}`;
    const client = await new MongoClient(uri).connect();
    const collection = client.db('plume_bench').collection(collectionName);
    await collection.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({ text: `message number ${i}`, userId: i % 100 })),
    );
    const one = await collection.findOne({ userId: 3 });
    await client.close();
    const scenarios: Scenario[] = [
      { name: options.names.get, method: 'GET', path: `/messages/${String(one!._id)}` },
      {
        name: options.names.post,
        method: 'POST',
        path: '/messages',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'A new message, posted by the benchmark', userId: 2 }),
      },
    ];
    const env = { BENCH_MONGODB_URL: uri, BENCH_COLLECTION: collectionName };
    const chosen = options.servers.filter((s) => options.only?.includes(s.file) ?? true);
    for (let round = 0; round < options.rounds; round++) {
      for (const server of round % 2 === 0 ? chosen : [...chosen].reverse()) {
        for (const scenario of scenarios) {
          const profileDir = join(dir, `${server.file}-${scenario.method}-${round}`);
          mkdirSync(profileDir);
          const [child, port] = await start(
            [
              '--import',
              'tsx',
              '--cpu-prof',
              `--cpu-prof-dir=${profileDir}`,
              join('bench', 'servers', server.file),
              '0',
            ],
            env,
            /LISTENING (\d+)/,
          );
          await load(`http://127.0.0.1:${port}`, scenario, options.warmup, 50);
          const [from, serverBefore, databaseBefore] = [
            clockUs(),
            cpuTimeUs(child.pid),
            cpuTimeUs(database.pid),
          ];
          const result = await load(`http://127.0.0.1:${port}`, scenario, options.seconds, 50);
          const [to, serverAfter, databaseAfter] = [clockUs(), cpuTimeUs(child.pid), cpuTimeUs(database.pid)];
          await stopProcess(child);
          const requests = result.requests;
          if (result.failures > 0) throw new Error(`${server.name}: failed requests in ${scenario.name}`);
          const serverCpuUs = (serverAfter - serverBefore) / requests;
          const row: BreakdownRow = {
            server: server.name,
            scenario: scenario.name,
            reqPerSec: requests / result.seconds,
            serverCpuUs,
            databaseCpuUs: (databaseAfter - databaseBefore) / requests,
            serverSplit: scale(
              serverParts,
              split(mainProfile(profileDir, from, to), from, to, classifyServer),
              serverCpuUs,
            ),
            databaseSplit: scale(databaseParts, new Map(), 0),
          };
          windows.push({ row, from, to });
          log(`round ${round + 1}: ${server.name}, ${scenario.name}: done`);
        }
      }
    }
  } finally {
    await stopProcess(database);
  }
  for (const { row, from, to } of windows) {
    row.databaseSplit = scale(
      databaseParts,
      split(mainProfile(databaseDir, from, to), from, to, classifyDatabase),
      row.databaseCpuUs,
    );
  }
  rmSync(dir, { recursive: true, force: true });
  const groups = new Map<string, BreakdownRow[]>();
  for (const { row } of windows) {
    const key = `${row.server}\u0000${row.scenario}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map(medianRow);
}

/** Each number the median of the rounds' numbers. */
function medianRow(rows: BreakdownRow[]): BreakdownRow {
  const of = (pick: (row: BreakdownRow) => number): number => median(rows.map(pick));
  const first = rows[0]!;
  return {
    server: first.server,
    scenario: first.scenario,
    reqPerSec: of((r) => r.reqPerSec),
    serverCpuUs: of((r) => r.serverCpuUs),
    databaseCpuUs: of((r) => r.databaseCpuUs),
    serverSplit: Object.fromEntries(
      serverParts.map((p) => [p, of((r) => r.serverSplit[p])]),
    ) as BreakdownRow['serverSplit'],
    databaseSplit: Object.fromEntries(
      databaseParts.map((p) => [p, of((r) => r.databaseSplit[p])]),
    ) as BreakdownRow['databaseSplit'],
  };
}

export function formatBreakdown(rows: BreakdownRow[]): string {
  return table(
    [
      'server',
      'scenario',
      'req/s',
      'server CPU µs/req',
      ...serverParts,
      'database CPU µs/req',
      ...databaseParts,
    ],
    rows.map((r) => [
      r.server,
      r.scenario,
      fmt(r.reqPerSec),
      fmt(r.serverCpuUs),
      ...serverParts.map((part) => fmt(r.serverSplit[part])),
      fmt(r.databaseCpuUs),
      ...databaseParts.map((part) => fmt(r.databaseSplit[part])),
    ]),
  );
}
