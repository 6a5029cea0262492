import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transports, type RunningServer } from './servers.js';

/**
 * 405 before anything else (issue 21, items 5 and 10), on every transport: a method the service does
 * not expose is refused as `MethodNotAllowed` whether or not the request has a body, and a service
 * registered with `methods: []` is internal only.
 */

const readOnly = {
  async get(id: string) {
    return { id };
  },
};

const internal = {
  async find() {
    return ['secret'];
  },
  async get(id: string) {
    return { id };
  },
  async create(data: unknown) {
    return data;
  },
};

describe.each(transports)('405 over $name', (transport) => {
  let server: RunningServer;
  const call = (method: string, path: string, body?: string) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body,
    });

  beforeAll(async () => {
    const app = transport.createApp();
    app.use('readonly', readOnly);
    app.use('internal', internal, { methods: [] });
    app.use('open', { ...internal });
    server = await transport.start(app);
  });
  afterAll(() => server.close());

  it.each([
    ['POST', '/readonly'],
    ['PUT', '/readonly/1'],
    ['PATCH', '/readonly/1'],
  ])('%s %s without a body to a service without that method is 405, not 400', async (method, path) => {
    const response = await call(method, path);
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ name: 'MethodNotAllowed', code: 405 });
  });

  it('a POST with a body to a service without create is 405 too', async () => {
    expect((await call('POST', '/readonly', '{"a":1}')).status).toBe(405);
  });

  it('a POST without a body to a service with create is still a 400 naming the missing body', async () => {
    const response = await call('POST', '/open');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('request body is required');
  });

  it('a service registered with methods: [] answers 405 to every method', async () => {
    for (const [method, path, body] of [
      ['GET', '/internal', undefined],
      ['GET', '/internal/1', undefined],
      ['POST', '/internal', '{"a":1}'],
      ['POST', '/internal', undefined],
    ] as const) {
      const response = await call(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(405);
    }
    expect(await (await call('GET', '/open')).json()).toEqual(['secret']);
  });
});
