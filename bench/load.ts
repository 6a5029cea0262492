/**
 * The load generator of the HTTP benchmarks, and the CPU time a server spends per request.
 *
 * With `wrk` on the PATH (Debian: `apt-get install wrk`) the load comes from wrk, a C program, pinned
 * to the last core with `taskset` while servers are pinned to the first (`serverCommand`): the
 * server under test then has a core of its own and the load generator never competes with it.
 * Without wrk, autocannon runs in this process, which on a small machine saturates before the fastest
 * servers do (it then measures itself as much as the server: read the ratios with that in mind).
 *
 * CPU per request is read from `/proc/<pid>/stat` (Linux), the server's user + system time over a
 * run divided by the requests it answered: it does not count time spent waiting for a core, so it
 * is the steadier measure on a busy machine.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';

const run = promisify(execFile);

/** A request repeated for the length of a run. */
export interface LoadRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What one run measured. */
export interface LoadResult {
  requests: number;
  seconds: number;
  p99Ms: number;
  /** Non-2xx answers, socket errors and timeouts. */
  failures: number;
}

const has = (command: string): boolean => spawnSync('which', [command], { stdio: 'ignore' }).status === 0;
const cores = os.cpus().length;
/** Servers on core 0 and wrk on the last core, when there are two cores or more and taskset exists. */
const pin = cores >= 2 && has('taskset');
const useWrk = has('wrk') && process.env.BENCH_LOAD !== 'autocannon';

/** Which load generator this run uses, for the report. */
export const loadGenerator = useWrk
  ? `wrk (1 thread${pin ? `, pinned to core ${cores - 1}; servers pinned to core 0` : ''})`
  : 'autocannon (in the benchmark process; install wrk for a load generator that does not compete with the servers)';

/** The command and arguments that start `node args…` as a server: pinned to core 0 when wrk runs on another. */
export function serverCommand(args: string[]): [string, string[]] {
  return pin && useWrk ? ['taskset', ['-c', '0', process.execPath, ...args]] : [process.execPath, args];
}

/** Loads `url` with `request` for `seconds` over `connections` connections. */
export function load(
  url: string,
  request: LoadRequest,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  return useWrk
    ? loadWithWrk(url, request, seconds, connections)
    : loadWithAutocannon(url, request, seconds, connections);
}

async function loadWithAutocannon(
  url: string,
  request: LoadRequest,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: url + request.path,
    method: request.method as autocannon.Request['method'],
    headers: request.headers,
    body: request.body,
    connections,
    duration: seconds,
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** wrk sends the method, headers and body a Lua script sets; one script per distinct request. */
function wrkScript(request: LoadRequest): string | undefined {
  if (request.method === 'GET' && request.headers === undefined && request.body === undefined)
    return undefined;
  const lines = [`wrk.method = ${JSON.stringify(request.method)}`];
  if (request.body !== undefined) lines.push(`wrk.body = ${JSON.stringify(request.body)}`);
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  }
  const file = join(os.tmpdir(), `plume-bench-${process.pid}-${request.method}-${lines.length}.lua`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const toMs = (value: string, unit: string): number =>
  Number(value) * (unit === 'us' ? 0.001 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 1);

async function loadWithWrk(
  url: string,
  request: LoadRequest,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const script = wrkScript(request);
  // wrk takes whole seconds.
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${Math.max(1, Math.round(seconds))}s`,
    '--latency',
    '--timeout',
    '5s',
  ];
  if (script !== undefined) args.push('-s', script);
  args.push(url + request.path);
  const { stdout: output } = pin
    ? await run('taskset', ['-c', String(cores - 1), 'wrk', ...args])
    : await run('wrk', args);
  const total = /(\d+) requests in ([\d.]+)(\w+)/.exec(output);
  const p99 = /^\s*99%\s+([\d.]+)(\w+)/m.exec(output);
  if (total === null || p99 === null) throw new Error(`unexpected wrk output:\n${output}`);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output);
  return {
    requests: Number(total[1]),
    seconds: toMs(total[2]!, total[3]!) / 1000,
    p99Ms: toMs(p99[1]!, p99[2]!),
    failures:
      Number(non2xx?.[1] ?? 0) +
      (errors === null ? 0 : errors.slice(1).reduce((sum, n) => sum + Number(n), 0)),
  };
}

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** The CPU time (user + system) process `pid` has used, in µs; `NaN` where `/proc` is not available. */
export function cpuTimeUs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, inside parentheses): utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
  } catch {
    return Number.NaN;
  }
}
