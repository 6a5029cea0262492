/**
 * Soak test of the example API (`npm run soak`): the example server runs in a child process (its
 * database in a worker thread there, so the app's heap is measured alone), and autocannon drives it
 * at saturation over loopback for a bounded time with a mix of authenticated reads and writes, while
 * a few Server-Sent Events clients follow `messages/stream`.
 *
 * Reports errors (connection errors, timeouts and non-2xx answers: must all be 0), throughput, p50
 * and p99 latency, and the server's RSS and heap (after a forced GC) at the start, every 10 s and at
 * the end. Exits 1 when there was any error, or when the heap after GC grew by more than
 * `--max-heap-growth` MiB (default 64) — the sign of memory growing without bound.
 *
 * Options: `--duration=<seconds>` (default 60), `--connections=<n>` (default 50),
 * `--transport=web|express` (default web), `--streams=<n>` SSE clients (default 5),
 * `--max-heap-growth=<MiB>` (default 64).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

interface Memory {
  rss: number;
  heapUsed: number;
}

type FromServer = { type: 'listening'; url: string } | { type: 'memory'; memory: Memory };

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

const MiB = 1024 * 1024;
const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;

/** Child mode: serve the example and answer memory requests from the parent. */
async function serve(): Promise<void> {
  const { startEmbeddedServer } = await import('plume/embedded');
  const { connectDatabase } = await import('../examples/api/database.js');
  const { startServer } = await import('../examples/api/server.js');
  // The database runs in a worker thread: its data does not count in this isolate's heap.
  const embedded = await startEmbeddedServer({ worker: true });
  const database = await connectDatabase(embedded.uri, 'plume_soak');
  const transport = option('transport', 'web') === 'express' ? 'express' : 'web';
  const { createLogger } = await import('plume');
  // An access line per request would flood the output under load: warnings and errors only.
  const logger = createLogger({ level: 'warn', pretty: false });
  const running = await startServer({ port: 0, transport, database, logger });
  const send = (message: FromServer): void => {
    process.send?.(message);
  };
  process.on('message', (message: { type: string }) => {
    if (message.type === 'memory') {
      globalThis.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      send({ type: 'memory', memory: { rss, heapUsed } });
    } else if (message.type === 'stop') {
      void (async () => {
        await running.close();
        await database.close();
        await embedded.stop();
        process.exit(0);
      })();
    }
  });
  send({ type: 'listening', url: running.url });
}

function nextMessage<T extends FromServer['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<FromServer, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: FromServer): void => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as Extract<FromServer, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`the server exited with code ${String(code)}`)));
  });
}

async function memoryOf(child: ChildProcess): Promise<Memory> {
  const reply = nextMessage(child, 'memory');
  child.send({ type: 'memory' });
  return (await reply).memory;
}

async function json(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** Follows `messages/stream` until `signal` aborts; counts the events received. */
function follow(
  url: string,
  signal: AbortSignal,
  counter: { events: number; failed: number },
): Promise<void> {
  return (async () => {
    try {
      const response = await fetch(`${url}/messages/stream`, { signal });
      if (!response.ok || response.body === null) throw new Error(`stream answered ${response.status}`);
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        counter.events += decoder.decode(value, { stream: true }).split('\n\n').length - 1;
      }
    } catch (error) {
      if (!signal.aborted) {
        counter.failed += 1;
        console.error('event stream failed:', error);
      }
    }
  })();
}

async function main(): Promise<void> {
  const duration = Number(option('duration', '60'));
  const connections = Number(option('connections', '50'));
  const transport = option('transport', 'web');
  const streams = Number(option('streams', '5'));
  const maxHeapGrowth = Number(option('max-heap-growth', '64')) * MiB;

  const child = fork(fileURLToPath(import.meta.url), ['--serve', `--transport=${transport}`], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const { url } = await nextMessage(child, 'listening');
    console.log(`soak: examples/api on ${transport} at ${url}, ${connections} connections, ${duration} s`);

    const credentials = { email: 'soak@example.com', password: 'soak password 1' };
    const user = await json(`${url}/users`, { method: 'POST', body: JSON.stringify(credentials) });
    const login = await json(`${url}/authentication`, {
      method: 'POST',
      body: JSON.stringify({ strategy: 'local', ...credentials }),
    });
    const auth = { authorization: `Bearer ${String(login.accessToken)}` };
    const headers = { ...auth, 'content-type': 'application/json' };
    const userId = String(user._id);

    const requests: autocannon.Request[] = [
      { method: 'GET', path: '/messages?$limit=10&$sort[createdAt]=-1' },
      { method: 'POST', path: '/messages', headers, body: JSON.stringify({ text: 'soak message' }) },
      { method: 'GET', path: '/messages?text[$regex]=^soak&text[$options]=i&$limit=5' },
      { method: 'GET', path: `/users/${userId}`, headers: auth },
      { method: 'GET', path: `/users/${userId}/messages?$limit=5&include=user` },
      { method: 'POST', path: '/messages', headers, body: JSON.stringify({ text: 'another soak message' }) },
    ];

    // Warm up (JIT, connection pools), then measure the starting point.
    await autocannon({ url, connections, duration: 3, requests });
    const start = await memoryOf(child);
    console.log(`start: rss ${mib(start.rss)}, heap after GC ${mib(start.heapUsed)}`);

    const controller = new AbortController();
    const counter = { events: 0, failed: 0 };
    const followers = Array.from({ length: streams }, () => follow(url, controller.signal, counter));

    const run = autocannon({ url, connections, duration, requests, timeout: 10 });
    const sampler = setInterval(() => {
      void memoryOf(child).then((memory) =>
        console.log(`  rss ${mib(memory.rss)}, heap after GC ${mib(memory.heapUsed)}`),
      );
    }, 10_000);
    const result = await run;
    clearInterval(sampler);
    controller.abort();
    await Promise.all(followers);
    // Let in-flight work and timers settle before the last reading.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const end = await memoryOf(child);

    const errors = result.errors + result.timeouts + result.non2xx;
    const growth = end.heapUsed - start.heapUsed;
    console.log(
      [
        `requests: ${result.requests.total} (${Math.round(result.requests.average)}/s), ` +
          `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
        `errors: ${errors} (connection errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx})`,
        `event streams: ${streams} clients, ${counter.events} events, ${counter.failed} failed`,
        `end: rss ${mib(end.rss)}, heap after GC ${mib(end.heapUsed)} (${growth >= 0 ? '+' : ''}${mib(growth)})`,
      ].join('\n'),
    );
    const failures: string[] = [];
    if (errors > 0 || counter.failed > 0) failures.push('errors during the soak');
    if (growth > maxHeapGrowth) failures.push(`heap grew by more than ${mib(maxHeapGrowth)}`);
    if (failures.length > 0) {
      console.log(`FAIL: ${failures.join('; ')}`);
      process.exitCode = 1;
    } else console.log('OK');
  } finally {
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      child.send({ type: 'stop' });
      await exited;
    }
  }
}

if (process.argv.includes('--serve')) await serve();
else await main();
