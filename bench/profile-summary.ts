/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`, e.g. `bench/http.ts --profile`): the
 * functions with the most self time, and self time by file, as shares of the time not idle.
 * Run: npx tsx bench/profile-summary.ts bench/profiles/plume-http.cpuprofile [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(idle)') {
    idle += dt;
    return;
  }
  total += dt;
  const short = url.replace(/^file:\/\/.*?\/(node_modules|src|bench)\//, '$1/');
  const key = `${functionName || '(anonymous)'}  ${short}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  const where =
    short === ''
      ? `(native) ${functionName}`
      : short.includes('undici')
        ? 'undici (fetch Request/Response/Headers)'
        : short.startsWith('node:')
          ? 'node internals'
          : short;
  byFile.set(where, (byFile.get(where) ?? 0) + dt);
});
const top = Number(topArg ?? 40);
const pct = (v: number): string => `${((100 * v) / total).toFixed(1).padStart(5)} %`;
console.log(
  `busy ${(total / 1000).toFixed(0)} ms sampled (idle ${(idle / 1000).toFixed(0)} ms left out); shares of busy time\n\nself time by function:`,
);
for (const [key, value] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${pct(value)}  ${key}`);
console.log('\nself time by file:');
for (const [key, value] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${pct(value)}  ${key}`);

// Inclusive time of our own functions (bench/ and src/): the time spent in them and all they call.
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
const inclusive = new Map<string, number>();
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
    const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
    if (
      !/\/(src|bench)\//.test(url) &&
      !url.includes('node_modules/express/') &&
      !url.includes('node_modules/router/')
    )
      continue;
    const short = url.replace(/^file:\/\/.*?\/(node_modules|src|bench)\//, '$1/');
    const key = `${functionName || '(anonymous)'}  ${short}:${lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
  }
});
console.log('\ninclusive time (own code, express, router):');
for (const [key, value] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${pct(value)}  ${key}`);
