import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type Params } from 'plume';
import { createHandler, toRuntimeHandler } from 'plume/http';
import { listen, type RunningServer } from '../transports/servers.js';

describe('params.request.signal through toRuntimeHandler', () => {
  let server: RunningServer;
  /** Resolves when the server has seen the response of the pending request close. */
  let closed: Promise<void> = Promise.resolve();
  let markClosed: () => void = () => undefined;
  let arrived: () => void = () => undefined;
  let seen: { aborted: boolean; abortedLater?: boolean } | undefined;

  beforeAll(async () => {
    const app = createApp();
    app.use('late', {
      // Reads the signal only after the client went away.
      async find(params: Params) {
        arrived();
        await closed;
        const signal = (params.request as Request).signal;
        seen = { aborted: signal.aborted };
        return [];
      },
    });
    app.use('early', {
      // Reads the signal before the client goes away and waits for the abort.
      async find(params: Params) {
        const signal = (params.request as Request).signal;
        const aborted = signal.aborted;
        arrived();
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
        seen = { aborted, abortedLater: signal.aborted };
        return [];
      },
    });
    app.use('done', {
      async find(params: Params) {
        const signal = (params.request as Request).signal;
        seen = { aborted: signal.aborted };
        return { ok: true };
      },
    });
    const http = createServer(toRuntimeHandler(createHandler(app)));
    // Registered after toRuntimeHandler's listener, so it sees every response's 'close' after plume would.
    http.on('request', (_req: IncomingMessage, res: ServerResponse) => res.once('close', () => markClosed()));
    server = await listen(http);
    await app.setup(http);
  });

  afterAll(async () => {
    await server.close();
  });

  async function leaveEarly(path: string): Promise<void> {
    seen = undefined;
    closed = new Promise<void>((resolve) => (markClosed = resolve));
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const controller = new AbortController();
    const pending = fetch(`${server.url}${path}`, { signal: controller.signal });
    await reached;
    controller.abort();
    await expect(pending).rejects.toThrow();
    await closed;
  }

  it('is already aborted when first read after the client went away', async () => {
    await leaveEarly('/late');
    await expect.poll(() => seen).toEqual({ aborted: true });
  });

  it('aborts later when read before the client goes away', async () => {
    await leaveEarly('/early');
    await expect.poll(() => seen).toEqual({ aborted: false, abortedLater: true });
  });

  it('is not aborted for a request that completes, and the server keeps serving', async () => {
    const response = await fetch(`${server.url}/done`);
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toEqual({ aborted: false });
  });
});
