/**
 * `npm run bench`: every benchmark of issue 8 in one run, printed as Markdown tables with the targets.
 *
 *   npm run bench               full: about 7–9 minutes on 2 cores
 *   npm run bench -- --quick    quick: under 2 minutes, fewer and shorter runs, up to 100 k documents
 *
 * Parts: HTTP (bench/http.ts), adapter overhead (bench/adapter.ts), embedded database
 * (bench/embedded.ts). Set MONGODB_URL to measure the adapter against MongoDB instead.
 * Absolute numbers depend on the machine and what else runs on it; read the ratios, which are
 * measured side by side in the same run.
 */
import os from 'node:os';
import { formatAdapter, runAdapterBench } from './adapter.js';
import { formatEmbedded, runEmbeddedBench } from './embedded.js';
import { formatHttp, ratio, runHttpBench, servers } from './http.js';
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

log('HTTP: starting 7 servers');
const http = await runHttpBench(
  quick
    ? { warmup: 0.3, duration: 0.8, rounds: 3, connections: 10 }
    : { warmup: 2, duration: 2.5, rounds: 5, connections: 10 },
  log,
);
console.log(
  `## HTTP\n\nautocannon, 10 connections, loopback; median of ${quick ? 3 : 5} interleaved runs of ` +
    `${quick ? 0.8 : 2.5} s per server and scenario; the × columns are medians of per-round ratios.\n\n${formatHttp(http)}\n`,
);

log('adapter overhead');
const adapter = await runAdapterBench(quick ? { ops: 50, rounds: 8 } : { ops: 100, rounds: 20 });
console.log(
  `## Adapter overhead (${adapter.database} database)\n\nMean time per call, median of ` +
    `${quick ? 8 : 20} blocks of ${quick ? 50 : 100} calls; raw, service and app.service blocks take ` +
    `turns, and each ratio is the median of the per-round ratios.\n\n${formatAdapter(adapter.rows)}\n`,
);

log('embedded database');
const sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000];
const embedded = await runEmbeddedBench({ sizes, ops: quick ? 300 : 1000, rounds: quick ? 3 : 5 });
console.log(`## Embedded database\n\n${formatEmbedded(embedded)}\n`);

// The targets, judged on this run.
const [raw, plumeHttp, plumeExpress, hono, , , feathers] = servers.map((s) => s.name) as string[];
const getOne = 'GET one by id';
const targets: [string, number, number, string][] = [
  ['Web Standard handler ÷ Hono, GET one', ratio(http, plumeHttp!, hono!, getOne), 1.0, '≥'],
  ['Web Standard handler ÷ raw node:http, GET one', ratio(http, plumeHttp!, raw!, getOne), 0.6, '≥'],
  ...['GET list of 10', getOne, 'POST JSON'].map((scenario): [string, number, number, string] => [
    `plume on Express ÷ FeathersJS 5 on Express, ${scenario}`,
    ratio(http, plumeExpress!, feathers!, scenario),
    1.2,
    '≥',
  ]),
  ...adapter.rows.map((r): [string, number, number, string] => [
    `DocDbService ÷ raw driver, ${r.operation}`,
    r.serviceRatio,
    1.1,
    '≤',
  ]),
  [
    `embedded get by _id, largest ÷ smallest size (${fmt(sizes[sizes.length - 1]!)} ÷ ${fmt(sizes[0]!)})`,
    embedded[embedded.length - 1]!.getByIdRatio,
    1.2,
    '≤ (±20 %)',
  ],
];
const lines = targets.map(([name, value, target, op]) => {
  const met =
    op === '≥' ? value >= target : op === '≤' ? value <= target : value <= target && value >= 2 - target;
  return `| ${name} | ${fmt(value, 2)}× | ${op} ${fmt(target, 2)}× | ${met ? 'met' : 'NOT met'} |`;
});
console.log(
  `## Targets (issue 8)\n\n| target | this run | goal | |\n|---|--:|--:|---|\n${lines.join('\n')}\n`,
);
log('done');
