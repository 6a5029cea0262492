/**
 * HTTP fuzzer of the example API (a tool, not a CI test): starts `examples/api` on the embedded
 * database on both transports (plume's Web Standard handler and plume on Express) and sends mutated
 * requests over raw TCP sockets and `fetch` — hostile paths, query strings, bodies, truncated and
 * chunked framing, duplicate headers, odd methods and overrides, hostile logins and tokens,
 * event-stream clients that leave mid-stream, and (framing-cases.ts) requests cut into odd writes,
 * clients leaving mid-request, pipelining, odd header values and bracketed query keys.
 *
 * It reports, per transport and category, how many requests were sent and every finding: a 5xx, an
 * error without a JSON body, a stack trace or internal path in a body, no answer within 5 s, an
 * uncaught exception or unhandled rejection, an error logged by the server, a stored document
 * the schemas forbid (a half-written record), event streams left open, and heap growth after GC.
 * Exits 1 when there is any finding.
 *
 * Run: `node --expose-gc --import tsx/esm --conditions=source test/fuzz/http-fuzz.ts`
 * Options: `--requests=<n>` per category and transport (default 200), `--seed=<n>` (default: time),
 * `--transport=web|express|both` (default both), `--concurrency=<n>` (default 8),
 * `--generators=all|framing` (default all; framing: only framing-cases.ts).
 */
import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import type { Logger } from 'plume';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';
import { GENERATORS, Random, type Case, type Target } from './cases.js';
import { FRAMING_GENERATORS } from './framing-cases.js';
import type { Reply } from './wire.js';

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

const REQUESTS = Number(option('requests', '200'));
const SEED = Number(option('seed', String(Date.now() % 1_000_000)));
const CONCURRENCY = Number(option('concurrency', '8'));
/** `--generators=framing` runs only framing-cases.ts' categories. */
const ALL_GENERATORS =
  option('generators', 'all') === 'framing' ? FRAMING_GENERATORS : [...GENERATORS, ...FRAMING_GENERATORS];
const TRANSPORTS = option('transport', 'both') === 'both' ? ['web', 'express'] : [option('transport', 'web')];

interface Finding {
  transport: string;
  category: string;
  problem: string;
  label: string;
  detail: string;
  known?: string;
}

const findings: Finding[] = [];
const processErrors: string[] = [];
process.on('uncaughtException', (error) => processErrors.push(`uncaughtException: ${error.stack ?? error}`));
process.on('unhandledRejection', (error) =>
  processErrors.push(`unhandledRejection: ${(error as Error)?.stack ?? String(error)}`),
);

/** A logger keeping what the server logs at `error` and `warn` (5xx, failures), dropping the rest. */
function capturingLogger(logged: string[]): Logger {
  const keep = (fields: unknown, message?: string): void => {
    const text = fields instanceof Error ? (fields.stack ?? String(fields)) : JSON.stringify(fields);
    logged.push(`${message ?? ''} ${text}`.slice(0, 2000));
  };
  return { error: keep, warn: keep, info: () => undefined, debug: () => undefined };
}

const INTERNALS = /\n\s+at |"stack"|\/work\/|node_modules|file:\/\/|\.ts:\d+/;

/** What is wrong with one reply, if anything. */
function problemsOf(item: Case, reply: Reply): string[] {
  const problems: string[] = [];
  if (reply.hung) return ['no answer within 5 s'];
  if (reply.dropped) return item.mayDrop === true ? [] : ['connection closed without an answer'];
  if (reply.status >= 500) problems.push(`status ${reply.status}`);
  if (INTERNALS.test(reply.text)) problems.push('stack trace or internal path in the body');
  const isHead = /HEAD/.test(item.label);
  const contentType = reply.headers['content-type'] ?? '';
  if (reply.status >= 400 && !isHead) {
    const html = item.acceptsHtml === true && contentType.includes('text/html');
    if (!html) {
      let body: unknown;
      try {
        body = JSON.parse(reply.text);
      } catch {
        problems.push(`error without a JSON body (content-type ${contentType || 'none'})`);
      }
      if (body !== undefined && (body as { code?: unknown }).code !== reply.status)
        problems.push('JSON error whose code is not the status');
    }
  }
  return problems;
}

/** Stored documents the example's schemas would never let in: signs of a half-written record. */
async function invalidDocuments(database: Database): Promise<string[]> {
  const found: string[] = [];
  for (const message of await database.db.collection('messages').find().toArray()) {
    const keys = Object.keys(message).sort().join(',');
    const ok =
      keys === '_id,createdAt,text,userId' &&
      typeof message.text === 'string' &&
      message.text.length >= 1 &&
      message.text.length <= 2000 &&
      message.userId instanceof ObjectId &&
      Number.isInteger(message.createdAt);
    if (!ok) found.push(`message ${JSON.stringify(message).slice(0, 300)}`);
  }
  for (const user of await database.db.collection('users').find().toArray()) {
    const extra = Object.keys(user).filter((key) => !['_id', 'email', 'password', 'name'].includes(key));
    const ok =
      extra.length === 0 &&
      typeof user.email === 'string' &&
      user.email === user.email.toLowerCase() &&
      typeof user.password === 'string' &&
      user.password.startsWith('$2') &&
      (user.name === undefined || typeof user.name === 'string');
    if (!ok) found.push(`user ${JSON.stringify(user).slice(0, 300)}`);
  }
  return found;
}

async function call(url: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(url + path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function heapMiB(): number {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

async function fuzzTransport(transport: 'web' | 'express', random: Random): Promise<Map<string, number>> {
  const database = await connectDatabase('', `fuzz_${randomBytes(4).toString('hex')}`);
  const logged: string[] = [];
  const secret = randomBytes(32).toString('hex');
  const running: RunningServer = await startServer({
    port: 0,
    transport,
    database,
    secret,
    hashCost: 4,
    rateLimit: false,
    apiKeys: ['fuzz-key'],
    logger: capturingLogger(logged),
  });
  const counts = new Map<string, number>();
  try {
    const created = await call(running.url, 'POST', '/users', {
      email: 'fuzz@example.com',
      password: 'correct horse',
    });
    const login = await call(running.url, 'POST', '/authentication', {
      strategy: 'local',
      email: 'fuzz@example.com',
      password: 'correct horse',
    });
    const token = login.body.accessToken as string;
    const message = await call(running.url, 'POST', '/messages', { text: 'first' }, token);
    const target: Target = {
      url: running.url,
      secret,
      userId: created.body._id as string,
      token,
      messageId: message.body._id as string,
    };

    // Messages keep being created, so event streams have something to send while clients leave.
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await call(running.url, 'POST', '/messages', { text: 'tick' }, token).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const cases: Case[] = [];
    for (const generate of ALL_GENERATORS) for (let i = 0; i < REQUESTS; i++) cases.push(generate(random));
    const heapBefore = heapMiB();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < cases.length) {
        const item = cases[next++]!;
        const reply = await item.send(target).catch((error: unknown): Reply => ({
          status: 0,
          headers: {},
          text: String(error),
          dropped: true,
          hung: false,
        }));
        counts.set(item.category, (counts.get(item.category) ?? 0) + 1);
        if (item.stream === true && reply.status === 200) continue;
        for (const problem of problemsOf(item, reply)) {
          findings.push({
            transport,
            category: item.category,
            problem,
            label: item.label.slice(0, 200),
            detail: reply.text.slice(0, 400),
            known: item.known,
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    writing = false;
    await writer;

    // Still answering after everything?
    const health = await fetch(`${running.url}/health`).then((response) => response.status, String);
    if (health !== 200)
      findings.push({ transport, category: 'after', problem: 'health', label: '', detail: String(health) });
    // Streams whose client left must be closed by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const open = (running.app.service('messages/stream') as unknown as { closers: Set<unknown> }).closers
      .size;
    if (open > 0)
      findings.push({
        transport,
        category: 'event streams',
        problem: `${open} streams still open after every client left`,
        label: '',
        detail: '',
      });
    const heapAfter = heapMiB();
    console.log(`${transport}: heap after GC ${heapBefore.toFixed(1)} MiB -> ${heapAfter.toFixed(1)} MiB`);
    if (heapAfter - heapBefore > 64)
      findings.push({
        transport,
        category: 'memory',
        problem: 'heap grew by more than 64 MiB',
        label: '',
        detail: `${heapBefore.toFixed(1)} -> ${heapAfter.toFixed(1)}`,
      });
    for (const document of await invalidDocuments(database))
      findings.push({
        transport,
        category: 'stored data',
        problem: 'invalid document',
        label: '',
        detail: document,
      });
    for (const line of logged)
      findings.push({ transport, category: 'server log', problem: 'error logged', label: '', detail: line });
  } finally {
    await running.close();
    await database.db.dropDatabase().catch(() => undefined);
    await database.close();
  }
  return counts;
}

async function main(): Promise<void> {
  console.log(`seed ${SEED}, ${REQUESTS} requests per category and transport`);
  const random = new Random(SEED);
  for (const transport of TRANSPORTS as ('web' | 'express')[]) {
    const counts = await fuzzTransport(transport, random);
    console.log(`${transport}: ${[...counts].map(([category, n]) => `${category} ${n}`).join(', ')}`);
  }
  for (const error of processErrors)
    findings.push({ transport: '-', category: 'process', problem: 'crash', label: '', detail: error });

  // One block per distinct problem, with up to 10 distinct examples.
  const seen = new Map<string, { examples: Map<string, string>; count: number }>();
  for (const finding of findings) {
    const key = `${finding.known === undefined ? '' : 'KNOWN '}${finding.transport} | ${finding.category} | ${finding.problem}${finding.known === undefined ? '' : ` (${finding.known})`}`;
    const entry = seen.get(key) ?? { examples: new Map<string, string>(), count: 0 };
    entry.count++;
    if (entry.examples.size < 10 && !entry.examples.has(finding.label))
      entry.examples.set(finding.label, finding.detail);
    seen.set(key, entry);
  }
  for (const [key, { examples, count }] of seen) {
    console.log(`\n${count}x ${key}`);
    for (const [label, detail] of examples)
      console.log(`  e.g. ${label}\n    ${detail.slice(0, 300).replace(/\n/g, '\n    ')}`);
  }
  const unknown = findings.filter((finding) => finding.known === undefined).length;
  console.log(`\n${unknown} findings, ${findings.length - unknown} known`);
  process.exit(unknown === 0 ? 0 : 1);
}

void main();
