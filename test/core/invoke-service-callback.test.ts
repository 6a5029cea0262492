/**
 * `invokeServiceCallback`, the callback form of `invokeService` that transports use: exactly one of
 * `done` and `failed` is called, once, with the final hook context or with what went wrong.
 */
import { describe, expect, it } from 'vitest';
import { createApp, invokeServiceCallback, type HookContext, type Service } from 'plume';
import { BadRequest, NotFound } from 'plume/errors';

function createThings() {
  const app = createApp();
  app.use('things', {
    async get(id: string) {
      if (id === 'missing') throw new NotFound(`No thing ${id}`);
      return { id };
    },
    async create(data: unknown) {
      return data;
    },
  });
  return { app, service: app.service('things') as Service };
}

/** Runs a call and records which callbacks were called, with what, once everything settled. */
async function call(
  app: ReturnType<typeof createThings>['app'],
  service: Service,
  method: string,
  args: unknown[],
  done: (context: HookContext) => void = () => undefined,
): Promise<{ done: HookContext[]; failed: unknown[]; synchronous: boolean }> {
  const seen = { done: [] as HookContext[], failed: [] as unknown[], synchronous: false };
  let returned = false;
  await new Promise<void>((resolve) => {
    invokeServiceCallback(
      app,
      service,
      method,
      args,
      (context) => {
        seen.done.push(context);
        done(context);
        resolve();
      },
      (error) => {
        seen.failed.push(error);
        seen.synchronous = !returned;
        resolve();
      },
    );
    returned = true;
  });
  // Let any second (wrong) callback arrive before looking.
  await new Promise((resolve) => setTimeout(resolve, 5));
  return seen;
}

describe('invokeServiceCallback', () => {
  it('gives done the final hook context of a call without hooks', async () => {
    const { app, service } = createThings();
    const seen = await call(app, service, 'get', ['7', {}]);
    expect(seen.failed).toEqual([]);
    expect(seen.done).toHaveLength(1);
    expect(seen.done[0]).toMatchObject({ method: 'get', id: '7', result: { id: '7' }, path: 'things' });
  });

  it('runs the hooks and gives done the context they changed', async () => {
    const { app, service } = createThings();
    (service as unknown as { hooks: (map: unknown) => void }).hooks({
      after: { get: [(context: HookContext) => void (context.result = { changed: true })] },
    });
    const seen = await call(app, service, 'get', ['7', {}]);
    expect(seen.done[0]?.result).toEqual({ changed: true });
  });

  it('gives failed what the service rejects with, and never calls done', async () => {
    const { app, service } = createThings();
    const seen = await call(app, service, 'get', ['missing', {}]);
    expect(seen.done).toEqual([]);
    expect(seen.failed).toHaveLength(1);
    expect(seen.failed[0]).toBeInstanceOf(NotFound);
  });

  it('gives failed what a hook throws', async () => {
    const { app, service } = createThings();
    (service as unknown as { hooks: (map: unknown) => void }).hooks({
      before: {
        create: [
          () => {
            throw new BadRequest('No');
          },
        ],
      },
    });
    const seen = await call(app, service, 'create', [{ a: 1 }, {}]);
    expect(seen.done).toEqual([]);
    expect(seen.failed[0]).toBeInstanceOf(BadRequest);
  });

  it('gives failed what done throws, once', async () => {
    const { app, service } = createThings();
    const thrown = new Error('done failed');
    const seen = await call(app, service, 'get', ['7', {}], () => {
      throw thrown;
    });
    expect(seen.done).toHaveLength(1);
    expect(seen.failed).toEqual([thrown]);
  });

  it('calls failed before returning for an object that is not a registered service', async () => {
    const { app } = createThings();
    const seen = await call(app, { async get() {} }, 'get', ['7', {}]);
    expect(seen.failed[0]).toBeInstanceOf(BadRequest);
    expect(seen.synchronous).toBe(true);
    expect(seen.done).toEqual([]);
  });

  it('calls done and failed with this = thisArg, with and without hooks and before any hook runs', async () => {
    const { app, service } = createThings();
    const target = { name: 'the request', seen: [] as string[] };
    function done(this: typeof target): void {
      this.seen.push(`done:${this.name}`);
    }
    function failed(this: typeof target): void {
      this.seen.push(`failed:${this.name}`);
    }
    const settled = () => new Promise((resolve) => setTimeout(resolve, 5));
    invokeServiceCallback(app, service, 'get', ['7', {}], done, failed, undefined, target);
    invokeServiceCallback(app, service, 'get', ['missing', {}], done, failed, undefined, target);
    invokeServiceCallback(app, { async get() {} }, 'get', ['7', {}], done, failed, undefined, target);
    await settled();
    (service as unknown as { hooks: (map: unknown) => void }).hooks({ before: { get: [() => undefined] } });
    invokeServiceCallback(app, service, 'get', ['7', {}], done, failed, undefined, target);
    invokeServiceCallback(app, service, 'get', ['missing', {}], done, failed, undefined, target);
    await settled();
    expect(target.seen.sort()).toEqual([
      'done:the request',
      'done:the request',
      'failed:the request',
      'failed:the request',
      'failed:the request',
    ]);
  });
});
