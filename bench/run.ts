/**
 * `npm run bench`: every benchmark of issues 8 and 20 in one run, printed as Markdown tables with the
 * targets of issue 20 (and issue 8's embedded-database target), each judged met / not met.
 *
 *   npm run bench               full: about 12–14 minutes on 2 cores (builds dist/ first)
 *   npm run bench -- --quick    quick: 3–4 minutes, fewer and shorter runs, up to 100 k documents
 *
 * Parts: HTTP (bench/http.ts), end to end with a database (bench/end-to-end.ts), memory per request
 * (bench/memory.ts), adapter overhead (bench/adapter.ts), embedded database (bench/embedded.ts).
 * Set MONGODB_URL to measure the adapter and the end-to-end scenario against MongoDB instead.
 * Absolute numbers depend on the machine and what else runs on it; read the ratios, which are
 * measured side by side in the same run.
 */
import os from 'node:os';
import { formatAdapter, runAdapterBench } from './adapter.js';
import { formatEmbedded, runEmbeddedBench } from './embedded.js';
import { endToEndScenarioNames, endToEndServers, formatEndToEnd, runEndToEndBench } from './end-to-end.js';
import {
  cpuRatio,
  formatHttp,
  ratio,
  roundRatios,
  runHttpBench,
  scenarios,
  servers,
  type HttpRow,
} from './http.js';
import { loadGenerator } from './load.js';
import { formatMemory, memoryRatio, memoryScenarios, memoryServers, runMemoryBench } from './memory.js';
import { fmt } from './stats.js';

const quick = process.argv.includes('--quick');
const started = Date.now();
const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const log = (line: string): void => console.error(`[${elapsed()}] ${line}`);

console.log(
  `# plume benchmarks (${quick ? 'quick' : 'full'} run)\n\n` +
    `${new Date().toISOString()} · Node.js ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'} · ` +
    `load average ${os.loadavg()[0]!.toFixed(1)} at start\n`,
);

// The HTTP and end-to-end parts load their servers alike; the text below describes these settings.
// Each server's measured time is cut into 1 s slices (wrk's smallest) that take turns with the other
// servers': see `slices` in bench/http.ts for why.
const loadOptions = quick
  ? { warmup: 1, duration: 1, slices: 1, rounds: 3, connections: 50 }
  : { warmup: 2, duration: 4, slices: 4, rounds: 5, connections: 50 };

log('HTTP: starting 7 servers');
const http = await runHttpBench(loadOptions, log);
console.log(
  `## HTTP\n\n${loadGenerator}, ${loadOptions.connections} connections, loopback; median of ` +
    `${loadOptions.rounds} rounds, each on new server processes, of ${loadOptions.duration} s per server and scenario, ` +
    `measured in ${loadOptions.slices} slices of ${loadOptions.duration / loadOptions.slices} s that take turns with the other servers'; ` +
    `the × columns are medians of per-round ratios, the (CPU) ` +
    `ones compare the servers' CPU time per request (reference ÷ server, so above 1 is better in both).\n\n${formatHttp(http)}\n`,
);

log('end to end: starting the database and 3 servers');
const endToEnd = await runEndToEndBench(loadOptions, log);
console.log(
  `## End to end with a database (${endToEnd.database})\n\nThe same measurement as HTTP, through a ` +
    `MongoDB adapter; POST inserts and reads the document back.\n\n${formatEndToEnd(endToEnd)}\n`,
);

log('memory per request');
const memory = await runMemoryBench(quick ? { requests: 300, batches: 3 } : { requests: 500, batches: 7 });
console.log(
  `## Memory per request\n\nV8 heap bytes the server process allocates per request (median of ` +
    `${quick ? 3 : 7} batches of ${quick ? 300 : 500} sequential requests, no collection during a batch; ` +
    `allocation counts, independent of machine load).\n\n${formatMemory(memory)}\n`,
);

log('adapter overhead');
const adapterOptions = quick ? { ops: 50, rounds: 8 } : { ops: 100, rounds: 60 };
const adapter = await runAdapterBench(adapterOptions);
console.log(
  `## Adapter overhead (${adapter.database} database)\n\nMean time per call, median of ` +
    `${adapterOptions.rounds} blocks of ${adapterOptions.ops} calls; raw, service and app.service blocks take ` +
    `turns, and each ratio is the median of the per-round ratios. CPU columns: this process's CPU ` +
    `time (client, driver and embedded database), steadier than wall time on a busy machine.\n\n${formatAdapter(adapter.rows)}\n`,
);

log('embedded database');
const sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000];
const embedded = await runEmbeddedBench({ sizes, ops: quick ? 300 : 1000, rounds: quick ? 3 : 5 });
console.log(`## Embedded database\n\n${formatEmbedded(embedded)}\n`);

// The issues' targets, judged on this run: [name, value, goal, comparison, the same in CPU time per
// request, the per-round values the median came from].
type Target = [string, number, number, string, number?, number[]?];
const [raw, plumeHttp, plumeExpress, hono, fastify, express, , honoCors] = servers.map(
  (s) => s.name,
) as string[];
const each = <T>(list: readonly T[], make: (item: T) => Target[]): Target[] => list.flatMap(make);
/** A target on the HTTP or end-to-end rows: req/s ratio, CPU ratio and the per-round ratios. */
const speedTarget = (
  name: string,
  rows: HttpRow[],
  server: string,
  reference: string,
  scenario: string,
  goal: number,
  withCpu = true,
): Target => [
  name,
  ratio(rows, server, reference, scenario),
  goal,
  '≥',
  withCpu ? cpuRatio(rows, server, reference, scenario) : undefined,
  roundRatios(rows, server, reference, scenario),
];
const targets: Target[] = [
  ...each(scenarios, ({ name }) => [
    speedTarget(`Web Standard handler ÷ Hono, ${name}`, http, plumeHttp!, hono!, name, 1.0),
    speedTarget(`Web Standard handler ÷ Fastify, ${name}`, http, plumeHttp!, fastify!, name, 1.0),
  ]),
  speedTarget(
    'Web Standard handler ÷ raw node:http, GET one by id',
    http,
    plumeHttp!,
    raw!,
    'GET one by id',
    0.85,
  ),
  ...each(scenarios, ({ name }): Target[] => [
    speedTarget(`plume on Express ÷ Express 5, ${name}`, http, plumeExpress!, express!, name, 0.95),
  ]),
  ...each(adapter.rows, (r): Target[] => [
    [`DocDbService ÷ raw driver, ${r.operation} (wall time)`, r.serviceRatio, 1.05, '≤'],
    [`DocDbService ÷ raw driver, ${r.operation} (CPU time)`, r.serviceCpuRatio, 1.05, '≤'],
  ]),
  ...each(Object.values(endToEndScenarioNames), (name): Target[] => [
    speedTarget(
      `end to end, plume + DocDbService ÷ Fastify + driver, ${name}`,
      endToEnd.rows,
      endToEndServers[0].name,
      endToEndServers[2].name,
      name,
      0.9,
      false,
    ),
  ]),
  ...each(memoryScenarios, ({ name }): Target[] => [
    [
      `heap bytes per request, plume ÷ Hono, ${name}`,
      memoryRatio(memory, memoryServers[0].name, memoryServers[1].name, name),
      1.0,
      '≤',
    ],
  ]),
  [
    `embedded get by _id, largest ÷ smallest size (${fmt(sizes[sizes.length - 1]!)} ÷ ${fmt(sizes[0]!)})`,
    embedded[embedded.length - 1]!.getByIdRatio,
    1.2,
    '≤ (±20 %)',
  ],
];
const lines = targets.map(([name, value, target, op, cpu, rounds]) => {
  const met =
    op === '≥' ? value >= target : op === '≤' ? value <= target : value <= target && value >= 2 - target;
  const inCpu = cpu === undefined ? '' : `${fmt(cpu, 2)}×`;
  const range =
    rounds === undefined || rounds.length === 0
      ? ''
      : `${fmt(Math.min(...rounds), 2)}–${fmt(Math.max(...rounds), 2)}×`;
  return `| ${name} | ${fmt(value, 2)}× | ${range} | ${inCpu} | ${op} ${fmt(target, 2)}× | ${met ? 'met' : 'NOT met'} |`;
});
console.log(
  `## Targets (issue 20; the last row issue 8)\n\nTime ratios come from this run's interleaved rounds and ` +
    `move with machine load (read the load average above); the memory ratios are allocation counts. ` +
    `"rounds" gives the lowest and highest of the per-round ratios the median ("this run") comes from. ` +
    `"in CPU time" is the same comparison made with the servers' CPU time per request (HTTP rows).\n\n` +
    `| target | this run | rounds | in CPU time | goal | |\n|---|--:|--:|--:|--:|---|\n${lines.join('\n')}\n`,
);
// Not a target: the issue compares with plain Hono, which sends no CORS header. With Hono's cors(), both
// servers send the same headers for the same work.
const sameBehaviour = scenarios.map(({ name }) => {
  const rounds = roundRatios(http, plumeHttp!, honoCors!, name);
  const range = rounds.length === 0 ? '' : `${fmt(Math.min(...rounds), 2)}–${fmt(Math.max(...rounds), 2)}×`;
  return `| ${name} | ${fmt(ratio(http, plumeHttp!, honoCors!, name), 2)}× | ${range} | ${fmt(cpuRatio(http, plumeHttp!, honoCors!, name), 2)}× |`;
});
console.log(
  `## Same behaviour: Web Standard handler ÷ Hono with cors()\n\nNot one of the targets. SEED.md requires ` +
    `\`Access-Control-Allow-Origin\` on every response; plain Hono sends none, Hono with its own \`cors()\` ` +
    `middleware sends the same CORS header as plume.\n\n| scenario | this run | rounds | in CPU time |\n` +
    `|---|--:|--:|--:|\n${sameBehaviour.join('\n')}\n`,
);

const cores = os.cpus().length;
const loadAtEnd = os.loadavg()[0]!;
if (loadAtEnd > cores) {
  console.log(
    `**Load average ${loadAtEnd.toFixed(1)} at the end on ${cores} cores: other processes competed for the ` +
      `CPU, so the req/s and wall-time ratios above are not reliable.** The memory and CPU-time rows ` +
      `depend much less on load.\n`,
  );
}
log('done');
