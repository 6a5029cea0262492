import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp, type Params } from 'plume';
import { BadRequest } from 'plume/errors';
import { bodyParser, errorHandler, queryParser, type HandlerMiddleware } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

const echo = {
  async find(params: Params) {
    return { query: params.query, order: params.order ?? [] };
  },
};

/** How the chain `createHandler` composes treats middleware that is not a plain `async` function. */
describe('the createHandler middleware chain', () => {
  const servers: RunningServer[] = [];
  const start = async (middleware: HandlerMiddleware[]) => {
    const server = await serve(createApp().use('echo', echo), middleware);
    servers.push(server);
    return server.url;
  };

  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('answers an error a middleware throws synchronously like one it rejects with', async () => {
    const throws: HandlerMiddleware = () => {
      throw new BadRequest('Thrown at once');
    };
    const rejects: HandlerMiddleware = () => Promise.reject(new BadRequest('Rejected'));
    for (const [middleware, message] of [
      [throws, 'Thrown at once'],
      [rejects, 'Rejected'],
    ] as const) {
      const url = await start([errorHandler(), queryParser(), middleware]);
      const response = await fetch(`${url}/echo`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ name: 'BadRequest', message });
    }
  });

  it('runs middleware that returns next() without awaiting it, in order, around the service call', async () => {
    const step =
      (name: string): HandlerMiddleware =>
      (context, next) => {
        const order = (context.params.order ??= []) as string[];
        order.push(name);
        return next();
      };
    const url = await start([errorHandler(), step('a'), queryParser(), step('b'), bodyParser()]);
    const response = await fetch(`${url}/echo?x=1`);
    expect(await response.json()).toEqual({ query: { x: '1' }, order: ['a', 'b'] });
  });

  it('refuses a middleware that calls next() twice with a 500 and calls the service once', async () => {
    const find = vi.spyOn(echo, 'find');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const twice: HandlerMiddleware = async (_context, next) => {
      await next();
      await next();
    };
    const url = await start([errorHandler(), twice]);
    const response = await fetch(`${url}/echo`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ name: 'GeneralError' });
    expect(find).toHaveBeenCalledTimes(1);
  });

  it('answers with the response a middleware sets without calling next()', async () => {
    const find = vi.spyOn(echo, 'find');
    const answer: HandlerMiddleware = (context) => {
      context.response = Response.json({ early: true }, { status: 202 });
    };
    const url = await start([errorHandler(), answer]);
    const response = await fetch(`${url}/echo`);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ early: true });
    expect(find).not.toHaveBeenCalled();
  });
});
