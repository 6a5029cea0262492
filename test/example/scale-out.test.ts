/**
 * Scale-out: one plume-db and two example API processes. Messages created on instance A reach an SSE
 * client of instance B (through plume/sync), in order and within a second; B killed and restarted
 * resumes the stream from the client's Last-Event-ID without losing any.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const children = new Set<ChildProcess>();

/** Spawns `args` and resolves with the first match of `pattern` in its stdout. */
async function start(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: string }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  const match = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const found = pattern.exec(output);
      if (found?.[1]) resolve(found[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}):\n${output}`)));
  });
  return { child, match };
}

async function startApi(mongodbUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const { child, match } = await start(
    ['--conditions=source', '--import', 'tsx', 'examples/api/server.ts'],
    // The start-up line is a pino line at info (the test run sets LOG_LEVEL=silent otherwise).
    { MONGODB_URL: mongodbUrl, PORT: '0', PLUME_SECRET: 'scale-out-test-secret', LOG_LEVEL: 'info' },
    /API on (http:\/\/[^\s"]+)/,
  );
  return { child, url: match };
}

interface SseEvent {
  id: string;
  data: { text: string };
  at: number;
}

/** Opens `messages/stream` and collects its events as they arrive. */
async function openStream(url: string, lastEventId?: string): Promise<{ events: SseEvent[]; close(): void }> {
  const abort = new AbortController();
  const response = await fetch(`${url}/messages/stream`, {
    signal: abort.signal,
    headers: lastEventId ? { 'last-event-id': lastEventId } : {},
  });
  expect(response.status).toBe(200);
  const events: SseEvent[] = [];
  const reader = response.body!.getReader();
  void (async () => {
    let buffer = '';
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      buffer += new TextDecoder().decode(chunk.value);
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1] ?? '';
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data !== undefined)
          events.push({ id, data: JSON.parse(data) as { text: string }, at: Date.now() });
      }
    }
  })();
  return { events, close: () => abort.abort() };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('two example API instances on one plume-db', () => {
  let dbUrl: string;
  let a: { child: ChildProcess; url: string };
  let token: string;

  async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${a.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }
  const create = async (text: string): Promise<number> => {
    const created = await post('/messages', { text }, { authorization: `Bearer ${token}` });
    expect(created.status).toBe(201);
    return Date.now();
  };

  beforeAll(async () => {
    dbUrl = (await start(['bin/plume-db.js', '--port', '0'], {}, /^(mongodb:\S+)/m)).match;
    a = await startApi(dbUrl);
    const email = 'scale@example.com';
    expect((await post('/users', { email, password: 'correct horse' })).status).toBe(201);
    token = (await post('/authentication', { strategy: 'local', email, password: 'correct horse' })).body[
      'accessToken'
    ] as string;
  }, 60_000);

  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('delivers messages created on A to an SSE client of B within 1 s, in order, and none lost across a restart of B', async () => {
    let b = await startApi(dbUrl);
    const first = await openStream(b.url);
    const sentAt: number[] = [];
    for (let i = 1; i <= 5; i++) {
      sentAt.push(await create(`live ${i}`));
      await until(() => first.events.length === i);
    }
    expect(first.events.map((e) => e.data.text)).toEqual(['live 1', 'live 2', 'live 3', 'live 4', 'live 5']);
    first.events.forEach((event, i) => expect(event.at - sentAt[i]!).toBeLessThan(1000));
    first.close();

    // B dies; messages keep coming on A; B comes back and the client resumes from its last event id.
    b.child.kill('SIGKILL');
    for (let i = 1; i <= 3; i++) await create(`while B was down ${i}`);
    b = await startApi(dbUrl);
    const resumed = await openStream(b.url, first.events[4]!.id);
    await until(() => resumed.events.length === 3);
    await create('after the restart');
    await until(() => resumed.events.length === 4);
    expect(resumed.events.map((e) => e.data.text)).toEqual([
      'while B was down 1',
      'while B was down 2',
      'while B was down 3',
      'after the restart',
    ]);
    resumed.close();
  }, 90_000);
});
