import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Starts `examples/api/server.ts` as a script on a random port; resolves once it printed its URL. */
async function startExample(
  transport: 'web' | 'express',
): Promise<{ child: ChildProcess; url: URL; output: () => string }> {
  // LOG_LEVEL: the start-up line with the URL is an info line (vitest's default is silent).
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'info' };
  delete env.MONGODB_URL;
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'examples/api/server.ts', `--transport=${transport}`],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    const check = (): void => {
      const match = /on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1]) resolve(new URL(match[1]));
    };
    child.stdout.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`the example exited (${code}) before listening:\n${output}`)),
    );
  });
  return { child, url, output: () => output };
}

/** Opens a connection and sends `text`; `received()` is what came back so far. */
function openConnection(url: URL, text: string): { socket: Socket; received(): string } {
  const socket = connect(Number(url.port), url.hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  socket.write(text);
  return { socket, received: () => received };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('SIGTERM on the example server', () => {
  const children = new Set<ChildProcess>();
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  // Both transports at once: most of the time is spent starting the child and waiting for it.
  it.concurrent.for(['web', 'express'] as const)(
    '%s: stops accepting, finishes the in-flight request, ends event streams and exits 0',
    // Starting the example (tsx compiles it) takes 10 s and more on a loaded 2-core machine.
    { timeout: 60_000 },
    async (transport, { expect }) => {
      const started = await startExample(transport);
      const { child, url } = started;
      children.add(child);
      const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

      // An event stream that would never end by itself.
      const stream = openConnection(
        url,
        `GET /messages/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n`,
      );
      await until(() => stream.received().includes('\r\n\r\n'));
      expect(stream.received()).toMatch(/^HTTP\/1\.1 200/);

      // A signup whose body is only half sent when the signal arrives.
      const body = JSON.stringify({ email: 'late@example.com', password: 'correct horse battery' });
      const half = Math.floor(body.length / 2);
      const inFlight = openConnection(
        url,
        `POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
      );
      // The server has the request once a second request on another connection was answered.
      const probe = await fetch(new URL('/messages', url), { headers: { connection: 'close' } });
      expect(probe.status).toBe(200);
      await probe.text();

      child.kill('SIGTERM');
      await until(() => started.output().includes('SIGTERM'));

      // New connections are refused once the server stopped listening.
      const refused = await new Promise<string>((resolve) => {
        const socket = connect(Number(url.port), url.hostname);
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');

      // The in-flight request still completes.
      inFlight.socket.write(body.slice(half));
      await until(() => /\r\n\r\n\{.*\}$/s.test(inFlight.received()));
      expect(inFlight.received()).toMatch(/^HTTP\/1\.1 201 /);
      expect(inFlight.received()).toContain('"email":"late@example.com"');
      expect(inFlight.received()).not.toContain('password');

      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      // The event stream ended instead of holding the shutdown open.
      await until(() => stream.socket.readableEnded || stream.socket.destroyed);
      expect(started.output()).not.toMatch(/Error|at .+:\d+:\d+/);
    },
  );
});
