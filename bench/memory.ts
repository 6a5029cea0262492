/**
 * Memory: V8 heap bytes allocated per request by a server, for `GET /messages/3` and `POST /messages`
 * (the HTTP benchmark's service), plume's Web Standard handler vs Hono on `@hono/node-server`.
 *
 * Each server runs in a child process started with `--expose-gc` and a 64 MB young generation, with
 * the request listener of bench/servers/<name>.ts on a `node:http` server. The client sends its
 * requests (one at a time, keep-alive) from a worker thread, whose heap is a separate isolate, so the
 * main thread's heap holds only what the server allocates. A measured batch is: full `gc()`, read
 * `heapUsed`, N requests, read `heapUsed`; with a young generation that large no collection runs during
 * a batch (batches during which one ran are discarded), so the difference is what the batch allocated.
 * This counts allocations, not time, so it does not depend on how busy the machine is.
 *
 * Part of `npm run bench`; alone: npm run build && npx tsx bench/memory.ts
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { fmt, median, table } from './stats.js';
import { optionValue } from './arguments.js';

const benchDir = dirname(fileURLToPath(import.meta.url));

/** The servers compared, by file under bench/servers (each exports `listener`). */
export const memoryServers = [
  { name: 'plume Web Standard (toRuntimeHandler)', file: 'plume-http.ts' },
  { name: 'Hono (@hono/node-server)', file: 'hono.ts' },
] as const;

export const memoryScenarios = [
  { name: 'GET one by id', method: 'GET', path: '/messages/3' },
  {
    name: 'POST JSON',
    method: 'POST',
    path: '/messages',
    body: JSON.stringify({ text: 'A new message, posted by the benchmark', userId: 2 }),
  },
] as const;

export interface MemoryOptions {
  /** Requests per measured batch. */
  requests: number;
  /** Measured batches per scenario; the median is reported. */
  batches: number;
}

export interface MemoryRow {
  server: string;
  scenario: string;
  /** Median over batches of heap bytes allocated per request. */
  bytesPerRequest: number;
  /** Batches kept (no collection ran during them). */
  batches: number;
}

// The client: CommonJS, evaluated in a worker thread. Sends `count` requests one after another.
const clientSource = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function one(scenario) {
  return new Promise((resolve, reject) => {
    const headers = scenario.body === undefined ? {} :
      { 'content-type': 'application/json', 'content-length': Buffer.byteLength(scenario.body) };
    const req = http.request({ host: '127.0.0.1', port: workerData.port, method: scenario.method,
      path: scenario.path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode < 300 ? resolve() : reject(new Error('status ' + res.statusCode))));
    });
    req.on('error', reject);
    req.end(scenario.body);
  });
}
parentPort.on('message', async ({ scenario, count }) => {
  for (let i = 0; i < count; i++) await one(scenario);
  parentPort.postMessage('done');
});
`;

/** Child side: serve `file`'s listener and measure every scenario; prints one JSON line. */
async function measureInChild(file: string, options: MemoryOptions): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('bench/memory.ts --child needs node --expose-gc');
  const { listener } = (await import(pathToFileURL(join(benchDir, 'servers', file)).href)) as {
    listener: Parameters<typeof createServer>[0];
  };
  const server = createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const worker = new Worker(clientSource, {
    eval: true,
    workerData: { port: (server.address() as AddressInfo).port },
  });
  let collections = 0;
  const observer = new PerformanceObserver((list) => (collections += list.getEntries().length));
  observer.observe({ entryTypes: ['gc'] });
  const run = async (scenario: (typeof memoryScenarios)[number], count: number): Promise<void> => {
    worker.postMessage({ scenario, count });
    const [reply] = (await once(worker, 'message')) as [string];
    if (reply !== 'done') throw new Error(String(reply));
  };
  // Lets the observer receive the entries of collections that already ran.
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));
  const results: Record<string, number[]> = {};
  for (const scenario of memoryScenarios) {
    await run(scenario, Math.max(3000, options.requests * 4)); // warm-up: optimised code, caches filled
    const perRequest: number[] = [];
    for (let batch = 0; batch < options.batches; batch++) {
      gc();
      await settle();
      const seen = collections;
      const before = process.memoryUsage().heapUsed;
      await run(scenario, options.requests);
      const after = process.memoryUsage().heapUsed;
      await settle();
      if (collections === seen) perRequest.push((after - before) / options.requests);
    }
    results[scenario.name] = perRequest;
  }
  observer.disconnect();
  await worker.terminate();
  server.close();
  console.log(`MEMORY ${JSON.stringify(results)}`);
}

/** Runs every server of {@link memoryServers} in its own child process, one after another. */
export async function runMemoryBench(options: MemoryOptions): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  for (const server of memoryServers) {
    const args = [
      '--import',
      'tsx',
      '--expose-gc',
      '--min-semi-space-size=64',
      '--max-semi-space-size=64',
      fileURLToPath(import.meta.url),
      `--child=${server.file}`,
      `--requests=${options.requests}`,
      `--batches=${options.batches}`,
    ];
    const child = spawn(process.execPath, args, {
      cwd: dirname(benchDir),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (output += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    const line = /^MEMORY (.*)$/m.exec(output);
    if (code !== 0 || line === null)
      throw new Error(`memory bench of ${server.file} failed (exit ${String(code)})`);
    const results = JSON.parse(line[1]!) as Record<string, number[]>;
    for (const scenario of memoryScenarios) {
      const batches = results[scenario.name] ?? [];
      rows.push({
        server: server.name,
        scenario: scenario.name,
        bytesPerRequest: median(batches),
        batches: batches.length,
      });
    }
  }
  return rows;
}

/** Bytes per request of `server` ÷ the same of `reference` in `scenario`. */
export function memoryRatio(rows: MemoryRow[], server: string, reference: string, scenario: string): number {
  const a = rows.find((r) => r.server === server && r.scenario === scenario)?.bytesPerRequest;
  const b = rows.find((r) => r.server === reference && r.scenario === scenario)?.bytesPerRequest;
  return a === undefined || b === undefined ? Number.NaN : a / b;
}

export function formatMemory(rows: MemoryRow[]): string {
  return table(
    ['scenario', 'server', 'heap bytes / request', 'batches', '× Hono'],
    rows.map((r) => [
      r.scenario,
      r.server,
      fmt(r.bytesPerRequest),
      fmt(r.batches),
      `${fmt(memoryRatio(rows, r.server, memoryServers[1].name, r.scenario), 2)}×`,
    ]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const options = {
    requests: Number(optionValue('requests') ?? 500),
    batches: Number(optionValue('batches') ?? 7),
  };
  const child = optionValue('child');
  if (child !== undefined) await measureInChild(child, options);
  else console.log(formatMemory(await runMemoryBench(options)));
}
