/**
 * Instructions per request: a server of bench/servers (one that exports its `listener`) runs under
 * valgrind's callgrind, which counts the machine instructions it executes, whatever else the machine
 * is doing. After a warm-up of `--warmup` requests, counting is switched on for `--requests` more
 * (`--connections` at a time, default 4, keep-alive, from this process), then off; the count divided
 * by the requests is the figure. A count is not a time (cache misses and stalls are not in it), but
 * it does not depend on the machine's load, which req/s on a shared machine does.
 *
 * Two counts per server: the main thread's, where the requests are handled (JavaScript, Node's HTTP
 * code, and the young-generation collections, which run there), and all threads'. The difference is
 * V8's helper threads (optimising compiler, concurrent marking): about 40 % of all instructions for
 * every server, measured on 2026-11-27, and up to 15 % apart between runs of one server. The main
 * thread's count is the one to compare; it still moves by a few per cent between runs.
 * The default warm-up, 100 000 requests, is past the point where `--trace-opt` showed V8 still
 * optimising and deoptimising under valgrind (about 70 000); 10 000 gave the same main-thread counts.
 *
 * Every server runs with the same fixed young generation (`--semi-space`, default 16 MB, V8's
 * `--min-semi-space-size` and `--max-semi-space-size`). Left to V8, its size depends on what the
 * process did before the count, not on the requests: measured on 2026-11-27 after 30 000 requests,
 * one at a time, raw `node:http` had 4 MB of new space, plume and Hono 8 MB and Fastify 16 MB (its
 * start-up allocates more). Every young-generation collection costs about 400 000 instructions
 * before it copies anything (V8 walks its start-up object caches), so in one such count plume paid
 * 4,700 instructions per request for 48 collections and Fastify 650 for 5, for about the same bytes
 * allocated per request. With one size for all, a server's share of collections follows the bytes
 * it allocates. Under the HTTP benchmark's load (wrk, 50 connections) plume's and Fastify's young
 * generations grow to 16 MB by themselves, hence the default; `--semi-space=0` leaves V8's sizing.
 *
 * Some runs, of any server, count 30–45 % more (e.g. 125 k instead of 90 k for Fastify's GET one):
 * profiles of such runs show Node.js' own `process.nextTick`, which its stream code calls several
 * times per request, creating each tick object through a V8 runtime call (about 1,300 instructions
 * per property with a symbol key) instead of inline code, in the optimised code of `nextTick` and
 * of the stream functions it was inlined into. It was seen with plume and with Fastify, in some
 * runs and not in others of the same code. `--repeat=N` counts N times (a new process each time)
 * and reports the lowest main-thread count, with the others beside it.
 *
 *   npm run build && npx tsx bench/instructions.ts [--servers=plume-http.ts,hono.ts]
 *     [--scenario='GET one'] [--requests=6000] [--warmup=100000] [--connections=4] [--repeat=1]
 *     [--semi-space=16]
 *
 * With `--connections=1` the server answers one request per turn of its event loop, which repeats
 * more closely (no batching that differs from run to run) when comparing two versions of a change.
 *
 * Needs valgrind (Debian: `apt-get install valgrind`); takes one to two minutes per server and scenario.
 */
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { memoryScenarios } from './memory.js';
import { startProcess, stopProcess } from './processes.js';
import { fmt, table } from './stats.js';
import { optionValue } from './arguments.js';

const run = promisify(execFile);
const benchDir = dirname(fileURLToPath(import.meta.url));
const option = (name: string, fallback: string): string => optionValue(name) ?? fallback;

/** Child mode: serve the listener of bench/servers/<file> and print `LISTENING <port>`. */
async function serve(file: string): Promise<void> {
  const { listener } = (await import(pathToFileURL(join(benchDir, 'servers', file)).href)) as {
    listener: Parameters<typeof createServer>[1];
  };
  const server = createServer(listener);
  // Node's default of 5 s: on a busy machine a connection of the count could sit idle that long under
  // valgrind, be closed by the server and reused by the client (ECONNRESET). A longer timeout takes
  // the same code path per request, so the counts do not change.
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
  process.once('SIGTERM', () => process.exit(0));
}

/** The memory benchmark's scenarios (GET one, POST) and the list of 10. */
const scenarios = [{ name: 'GET list of 10', method: 'GET', path: '/messages' }, ...memoryScenarios] as const;
type Scenario = (typeof scenarios)[number];

/** Sends `count` requests, at most `agent.maxSockets` at a time; rejects on a non-2xx answer. */
async function send(port: number, scenario: Scenario, count: number, agent: Agent): Promise<void> {
  const connections = agent.maxSockets;
  const body = 'body' in scenario ? scenario.body : undefined;
  const headers = body === undefined ? {} : { 'content-type': 'application/json' };
  let left = count;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        { port, host: '127.0.0.1', method: scenario.method, path: scenario.path, agent, headers },
        (res) => {
          res.resume();
          res.on('end', () =>
            (res.statusCode ?? 500) < 300 ? resolve() : reject(new Error(`status ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const worker = async (): Promise<void> => {
    while (left-- > 0) await one();
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

/** Instructions per request of `file` for `scenario`. */
async function count(
  file: string,
  scenario: Scenario,
  warmup: number,
  requests: number,
  connections: number,
  semiSpace: number,
): Promise<{ main: number; all: number }> {
  const out = join(tmpdir(), `plume-callgrind-${process.pid}-${file}`);
  const { child, ready } = await startProcess(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${out}`,
      process.execPath,
      ...(semiSpace > 0 ? [`--min-semi-space-size=${semiSpace}`, `--max-semi-space-size=${semiSpace}`] : []),
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      `--serve=${file}`,
    ],
    { ready: /LISTENING (\d+)/, name: `${file} under valgrind`, stderr: 'ignore', timeoutMs: 300_000 },
  );
  const port = Number(ready);
  // The counted requests go over the warm-up's connections, as wrk's do over a whole run. On a new
  // connection V8 throws away code that has only seen the first connection's socket objects, and
  // runs unoptimised until it has compiled it again: a cost of connecting, not of a request.
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  try {
    await send(port, scenario, warmup, agent);
    await run('callgrind_control', ['-i', 'on', String(child.pid)]);
    await send(port, scenario, requests, agent);
    await run('callgrind_control', ['-i', 'off', String(child.pid)]);
    await run('callgrind_control', ['-d', String(child.pid)]);
    // The dump written on request holds the counted instructions (`totals:`), one file per thread
    // (`<out>.1-01` is the main thread's); later dumps count none.
    const totals = async (files: string): Promise<number> => {
      const { stdout } = await run('sh', ['-c', `grep -h '^totals:' ${files}`]);
      return [...stdout.matchAll(/^totals: (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    };
    return { main: (await totals(`${out}*-01`)) / requests, all: (await totals(`${out}*`)) / requests };
  } finally {
    agent.destroy();
    await stopProcess(child);
    await run('sh', ['-c', `rm -f ${out}*`]);
  }
}

const serveArg = optionValue('serve');
if (serveArg !== undefined) {
  await serve(serveArg);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = option('servers', 'plume-http.ts,hono.ts').split(',');
  const wanted = option('scenario', '');
  const warmup = Number(option('warmup', '100000'));
  const requests = Number(option('requests', '6000'));
  const connections = Number(option('connections', '4'));
  const repeat = Number(option('repeat', '1'));
  const semiSpace = Number(option('semi-space', '16'));
  const rows: string[][] = [];
  for (const scenario of scenarios.filter((s) => s.name.includes(wanted))) {
    for (const file of files) {
      const counts: { main: number; all: number }[] = [];
      for (let i = 0; i < repeat; i++) {
        const counted = await count(file, scenario, warmup, requests, connections, semiSpace);
        console.error(
          `${scenario.name}, ${file}: ${fmt(counted.main)} instructions per request (main thread), ${fmt(counted.all)} (all)`,
        );
        counts.push(counted);
      }
      // The lowest main-thread count: a run that went into the slow state described above is higher.
      const lowest = counts.reduce((a, b) => (b.main < a.main ? b : a));
      const others = counts.filter((c) => c !== lowest).map((c) => fmt(c.main));
      rows.push([scenario.name, file, fmt(lowest.main), fmt(lowest.all), others.join(', ')]);
    }
  }
  console.log(
    table(
      ['scenario', 'server', 'instructions / request, main thread', 'all threads', 'other runs, main thread'],
      rows,
    ),
  );
}
