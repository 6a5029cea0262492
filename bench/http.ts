/**
 * HTTP: the same tiny in-memory service (GET a list of 10, GET one by id, POST a JSON body) on seven
 * servers, each in its own child process, loaded over loopback by wrk (or autocannon without it; see
 * bench/load.ts). Each round starts every server in a new process and warms it up, then loads each
 * server for `duration` seconds per scenario, in `slices` parts that take turns with the other
 * servers' (the order rotates every slice and round); the median req/s, p99 and CPU time per request
 * of the rounds are reported.
 *
 * Part of `npm run bench`; alone: npm run build && npx tsx bench/http.ts [--quick] [--profile]
 *   [--only=plume-http.ts,hono.ts] [--scenario='GET one'] [--compare=/path/to/other/checkout]
 *   [--rounds=5] [--duration=4] [--slices=4] [--connections=50]
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cpuTimeUs, load, serverCommand } from './load.js';
import { startProcess, stopProcess } from './processes.js';
import { fmt, median, table } from './stats.js';
import { optionValue } from './arguments.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);

/** The servers, in table order; `file` is under bench/servers. */
export const servers = [
  { name: 'node:http (raw)', file: 'node-http.ts' },
  { name: 'plume Web Standard (toRuntimeHandler)', file: 'plume-http.ts' },
  { name: 'plume on Express', file: 'plume-express.ts' },
  { name: 'Hono (@hono/node-server)', file: 'hono.ts' },
  { name: 'Fastify', file: 'fastify.ts' },
  { name: 'Express 5', file: 'express.ts' },
  { name: 'FeathersJS 5 on Express', file: 'feathers.ts' },
  // Plain Hono sends no CORS header; SEED.md makes plume send one on every response. This row is Hono
  // doing the same, with its own cors() middleware.
  { name: 'Hono + cors() (same headers as plume)', file: 'hono-cors.ts' },
] as const;

export const scenarios = [
  { name: 'GET list of 10', method: 'GET', path: '/messages' },
  { name: 'GET one by id', method: 'GET', path: '/messages/3' },
  {
    name: 'POST JSON',
    method: 'POST',
    path: '/messages',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'A new message, posted by the benchmark', userId: 2 }),
  },
] as const;

/** A server to load: `file` under bench/servers prints `LISTENING <port>` when ready. */
export interface BenchServer {
  name: string;
  file: string;
}

/** A request the load generator repeats. */
export interface Scenario {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpOptions {
  /** Seconds of load per server and scenario before measuring. */
  warmup: number;
  /** Seconds per measured run. */
  duration: number;
  /** Measured runs per (server, scenario); the median is reported. */
  rounds: number;
  /**
   * Parts each measured run is cut into, taking turns with the other servers' parts (default 1):
   * `duration / slices` seconds of load each (wrk counts whole seconds, so at least 1). On the 2-vCPU
   * machine of the README's runs, one server process measured in consecutive 1 s runs swings by up to
   * 2× over a few seconds (plume: 11,336 to 24,904 req/s in one process; raw `node:http`: 12,940 to
   * 23,795), so a server measured in one piece takes whatever phase it ran in. In slices, every
   * server gets a share of each phase.
   */
  slices?: number;
  connections: number;
  /** Start the servers with `--cpu-prof`, profiles in bench/profiles/<server> (one per process, so one per round). */
  profile?: boolean;
  /** Only these server files (e.g. `['plume-http.ts']`); default all. */
  only?: string[];
  /** Only the scenarios whose names contain one of these strings (e.g. `['GET one']`); default all. */
  scenarios?: string[];
  /**
   * Another checkout of plume (e.g. an older commit, with node_modules): its two plume servers run in
   * the same rounds, named "… (compared)", for before/after numbers measured side by side.
   */
  compare?: string;
  /** The servers to run instead of {@link servers} (bench/end-to-end.ts). */
  serverList?: readonly BenchServer[];
  /** The requests instead of {@link scenarios}. */
  scenarioList?: readonly Scenario[];
  /** Environment variables added for the server processes. */
  env?: Record<string, string>;
}

export interface HttpRow {
  server: string;
  scenario: string;
  /** Median req/s of the rounds. */
  reqPerSec: number;
  /** req/s of each round, in round order (for ratios paired round by round). */
  perRound: number[];
  p99Ms: number;
  /** Median over rounds of the server's CPU time (user + system) per request, µs; `NaN` without `/proc`. */
  cpuUsPerRequest: number;
  /** CPU µs per request of each round, in round order. */
  cpuPerRound: number[];
  /** Non-2xx answers and socket errors over all measured runs; must be 0. */
  failures: number;
}

interface Running {
  name: string;
  child: ChildProcess;
  port: number;
}

interface ServerToStart extends BenchServer {
  /** The checkout the server runs in; default this one. */
  root?: string;
}

async function startServer(
  server: ServerToStart,
  profile: boolean,
  env: Record<string, string> = {},
): Promise<Running> {
  const cwd = server.root ?? root;
  const args = ['--import', 'tsx'];
  if (profile) {
    // One folder per server: the tsx loader thread writes a profile of its own next to the main one.
    const dir = join(benchDir, 'profiles', server.file.replace('.ts', ''));
    mkdirSync(dir, { recursive: true });
    args.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  }
  args.push(join(cwd, 'bench', 'servers', server.file), '0');
  const [command, commandArgs] = serverCommand(args);
  const { child, ready } = await startProcess(command, commandArgs, {
    ready: /LISTENING (\d+)/,
    name: server.name,
    cwd,
    env,
  });
  return { name: server.name, child, port: Number(ready) };
}

export async function runHttpBench(
  options: HttpOptions,
  log: (line: string) => void = () => undefined,
): Promise<HttpRow[]> {
  const chosen: ServerToStart[] = (options.serverList ?? servers).filter(
    (s) => options.only === undefined || options.only.includes(s.file),
  );
  if (options.compare !== undefined) {
    for (const server of chosen.filter((s) => s.file.startsWith('plume-'))) {
      chosen.push({ ...server, name: `${server.name} (compared)`, root: options.compare });
    }
  }
  const loads = (options.scenarioList ?? scenarios).filter(
    (s) => options.scenarios === undefined || options.scenarios.some((name) => s.name.includes(name)),
  );
  const samples = new Map<string, { rps: number[]; p99: number[]; cpu: number[]; failures: number }>();
  for (let round = 0; round < options.rounds; round++) {
    // New server processes every round: V8 sometimes optimises Node's own hot functions (the
    // stream code that inlines `process.nextTick`) into a slower form that stays for the life of
    // the process, 30-45 % more instructions per request (see bench/instructions.ts). With one
    // process per server for the whole run, that process's luck was in every round and the median
    // could not see past it; now it is one round of five.
    const running = await startServers(chosen, options, log);
    try {
      for (const server of running) {
        for (const scenario of loads) {
          await load(`http://127.0.0.1:${server.port}`, scenario, options.warmup, options.connections);
        }
      }
      for (const scenario of loads) {
        // The drift of a shared machine falls on every server alike when they take turns in slices.
        const totals = running.map(() => ({
          requests: 0,
          seconds: 0,
          cpu: 0,
          p99: [] as number[],
          failures: 0,
        }));
        const slices = options.slices ?? 1;
        for (let slice = 0; slice < slices; slice++) {
          for (let turn = 0; turn < running.length; turn++) {
            const index = (turn + round + slice) % running.length;
            const server = running[index]!;
            const cpuBefore = cpuTimeUs(server.child.pid);
            const url = `http://127.0.0.1:${server.port}`;
            const result = await load(url, scenario, options.duration / slices, options.connections);
            const total = totals[index]!;
            total.cpu += cpuTimeUs(server.child.pid) - cpuBefore;
            total.requests += result.requests;
            total.seconds += result.seconds;
            total.p99.push(result.p99Ms);
            total.failures += result.failures;
          }
        }
        running.forEach((server, index) => {
          const total = totals[index]!;
          const key = `${server.name}\u0000${scenario.name}`;
          const entry = samples.get(key) ?? { rps: [], p99: [], cpu: [], failures: 0 };
          entry.rps.push(total.requests / total.seconds);
          entry.p99.push(median(total.p99));
          entry.cpu.push(total.cpu / total.requests);
          entry.failures += total.failures;
          samples.set(key, entry);
        });
      }
    } finally {
      await Promise.all(running.map((server) => stopProcess(server.child)));
    }
    log(`round ${round + 1}/${options.rounds} done`);
  }
  const rows: HttpRow[] = [];
  for (const scenario of loads) {
    for (const server of chosen) {
      const entry = samples.get(`${server.name}\u0000${scenario.name}`)!;
      rows.push({
        server: server.name,
        scenario: scenario.name,
        reqPerSec: median(entry.rps),
        perRound: entry.rps,
        p99Ms: median(entry.p99),
        cpuUsPerRequest: median(entry.cpu),
        cpuPerRound: entry.cpu,
        failures: entry.failures,
      });
    }
  }
  return rows;
}

/** Starts every server at once; if one fails to start, stops the others and throws. */
async function startServers(
  chosen: readonly ServerToStart[],
  options: HttpOptions,
  log: (line: string) => void,
): Promise<Running[]> {
  const started = await Promise.allSettled(
    chosen.map((s) => startServer(s, options.profile === true, options.env)),
  );
  const running: Running[] = [];
  for (const result of started) if (result.status === 'fulfilled') running.push(result.value);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(running.map((server) => stopProcess(server.child)));
    throw failed.reason;
  }
  log(`servers up: ${running.map((r) => r.name).join(', ')}`);
  return running;
}

/**
 * How `server` compares to `reference` in `scenario`, round by round: the ratio of their req/s in
 * each round, or with `measure` `'cpu'` the reference's CPU time per request divided by the server's
 * (so that above 1 means `server` does better in both). Pairing by round cancels much of the drift
 * of a shared machine.
 */
export function roundRatios(
  rows: HttpRow[],
  server: string,
  reference: string,
  scenario: string,
  measure: 'rps' | 'cpu' = 'rps',
): number[] {
  const field = measure === 'rps' ? 'perRound' : 'cpuPerRound';
  const a = rows.find((r) => r.server === server && r.scenario === scenario)?.[field];
  const b = rows.find((r) => r.server === reference && r.scenario === scenario)?.[field];
  if (a === undefined || b === undefined) return [];
  return a.map((value, round) => (measure === 'rps' ? value / b[round]! : b[round]! / value));
}

/** The median of {@link roundRatios} in req/s (`NaN` without rows): how `server` compares to `reference`. */
export function ratio(rows: HttpRow[], server: string, reference: string, scenario: string): number {
  return median(roundRatios(rows, server, reference, scenario));
}

/** The same comparison in CPU time per request: the median of {@link roundRatios} with `'cpu'`. */
export function cpuRatio(rows: HttpRow[], server: string, reference: string, scenario: string): number {
  return median(roundRatios(rows, server, reference, scenario, 'cpu'));
}

/**
 * One table per scenario: req/s, p99 and the ratios (paired by round) to each reference server, by
 * default raw node:http and Hono; a reference is `[server name, column heading]`.
 */
export function formatHttp(
  rows: HttpRow[],
  scenarioList: readonly Scenario[] = scenarios,
  references: readonly (readonly [string, string])[] = [
    [servers[0].name, '× node:http'],
    [servers[3].name, '× Hono'],
  ],
): string {
  const parts: string[] = [];
  for (const scenario of scenarioList) {
    const inScenario = rows.filter((r) => r.scenario === scenario.name);
    if (inScenario.length === 0) continue;
    const failures = inScenario.some((r) => r.failures > 0);
    parts.push(
      `**${scenario.name}** (${scenario.method} ${scenario.path})\n\n` +
        table(
          [
            'server',
            'req/s',
            'p99 ms',
            'CPU µs/req',
            ...references.map(([, heading]) => heading),
            ...references.map(([, heading]) => `${heading} (CPU)`),
            ...(failures ? ['failures'] : []),
          ],
          inScenario.map((r) => [
            r.server,
            fmt(r.reqPerSec),
            fmt(r.p99Ms, 1),
            fmt(r.cpuUsPerRequest, 1),
            ...references.map(([reference]) => `${fmt(ratio(rows, r.server, reference, scenario.name), 2)}×`),
            ...references.map(
              ([reference]) => `${fmt(cpuRatio(rows, r.server, reference, scenario.name), 2)}×`,
            ),
            ...(failures ? [fmt(r.failures)] : []),
          ]),
        ),
    );
  }
  return parts.join('\n\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const rows = await runHttpBench(
    {
      warmup: quick ? 1 : 2,
      duration: Number(optionValue('duration') ?? (quick ? 1 : 4)),
      rounds: Number(optionValue('rounds') ?? (quick ? 3 : 5)),
      slices: Number(optionValue('slices') ?? (quick ? 1 : 4)),
      connections: Number(optionValue('connections') ?? 50),
      profile: process.argv.includes('--profile'),
      only: optionValue('only')?.split(','),
      scenarios: optionValue('scenario')?.split(','),
      compare: optionValue('compare'),
    },
    console.log,
  );
  console.log(formatHttp(rows));
}
