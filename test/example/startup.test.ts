import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { connectDatabase, mongoHosts } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));

/** Runs a TypeScript file of this repository the way `npm start` does; resolves with its exit code and output. */
function runScript(file: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      process.execPath,
      [tsx, '--conditions=source', file],
      { cwd: root, env: { ...process.env, LOG_LEVEL: 'info', ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (error.code as number) : 0, output: stdout + stderr }),
    );
  });
}

/** The lines a process wrote, without npm's and tsx's own noise. */
const linesOf = (output: string) => output.split('\n').filter((line) => line.trim() !== '');

describe('start-up failures are one clear line and exit code 1', () => {
  let occupied: Server;
  let port: number;

  beforeAll(async () => {
    occupied = createServer();
    await new Promise<void>((resolve) => occupied.listen(0, '127.0.0.1', resolve));
    port = (occupied.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => occupied.close(resolve)));

  it('the example on a port in use', async () => {
    const { code, output } = await runScript('examples/api/server.ts', { PORT: String(port) });
    expect(code).toBe(1);
    expect(linesOf(output)).toHaveLength(1);
    expect(output).toContain(`port ${port} is in use (set PORT)`);
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);

  it("the README quick start pattern on a port in use: no unhandled 'error' event", async () => {
    const { code, output } = await runScript('test/example/fixtures/quickstart-port.ts', {
      PORT: String(port),
    });
    expect(code).toBe(1);
    expect(linesOf(output)).toHaveLength(1);
    expect(output).toContain(`port ${port} is in use (set PORT)`);
    expect(output).not.toContain("Unhandled 'error' event");
  }, 60_000);

  it('the example with MONGODB_URL at a closed port names the host, never the password', async () => {
    const { code, output } = await runScript('examples/api/server.ts', {
      PORT: '0',
      MONGODB_URL: `mongodb://ada:hunter2@127.0.0.1:${port + 1}/app`,
      MONGODB_TIMEOUT_MS: '1000',
    });
    expect(code).toBe(1);
    expect(linesOf(output)).toHaveLength(1);
    expect(output).toContain(`cannot reach MongoDB at 127.0.0.1:${port + 1} within 1000 ms`);
    expect(output).not.toContain('hunter2');
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);

  // No clock: the error names the bound it waited for, the driver's server selection timeout, 5 000 ms
  // by default. Without that option the driver would wait its own 30 s, past this test's timeout.
  it('an unreachable database fails within 5 s by default', async () => {
    await expect(connectDatabase(`mongodb://127.0.0.1:${port + 1}`)).rejects.toThrow(
      `cannot reach MongoDB at 127.0.0.1:${port + 1} within 5000 ms`,
    );
  }, 20_000);

  it('mongoHosts keeps the hosts only', () => {
    expect(mongoHosts('mongodb://ada:p%40ss@db1:27017,db2/app?tls=true')).toBe('db1:27017,db2');
    expect(mongoHosts('mongodb+srv://cluster0.example.net/?retryWrites=true')).toBe('cluster0.example.net');
  });
});

describe.each(['web', 'express'] as const)('health endpoints on the %s transport', (transport) => {
  let embedded: EmbeddedServer;
  let client: MongoClient;
  let running: RunningServer;

  beforeAll(async () => {
    embedded = await startEmbeddedServer({ port: 0 });
    client = await MongoClient.connect(embedded.uri, { serverSelectionTimeoutMS: 30_000 });
    const database = {
      db: client.db('plume_health'),
      client,
      uri: embedded.uri,
      embedded: true,
      description: 'test database',
      close: async () => undefined,
    };
    running = await startServer({ port: 0, transport, database, hashCost: 4 });
  });
  afterAll(async () => {
    await running?.close();
    await client?.close();
    await embedded?.stop().catch(() => undefined);
  });

  it('GET /health is 200 { status: ok } and GET /health/ready pings the database', async () => {
    const live = await fetch(`${running.url}/health`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${running.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('with the database stopped, /health stays 200 and /health/ready is 503 JSON', async () => {
    await embedded.stop();
    const ready = await fetch(`${running.url}/health/ready`, { headers: { accept: 'application/json' } });
    expect(ready.status).toBe(503);
    expect(ready.headers.get('content-type')).toMatch(/application\/json/);
    expect(await ready.json()).toMatchObject({ name: 'Unavailable', code: 503, data: { database: 'down' } });
    const live = await fetch(`${running.url}/health`);
    expect(live.status).toBe(200);
  });
});
