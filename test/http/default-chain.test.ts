/**
 * `createHandler(app)` without a middleware array runs the default chain as one step; with the array
 * `[errorHandler(), queryParser(), bodyParser()]` it composes the same three. Both must answer every
 * request alike: status, headers a client reads, and body. Over real HTTP (`toRuntimeHandler`) and
 * through the handler called directly with plain `Request` objects (another runtime's path).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp, type Application, type HookContext, type Params } from 'plume';
import { BadRequest, NotFound } from 'plume/errors';
import { bodyParser, createHandler, errorHandler, queryParser, type RequestHandler } from 'plume/http';
import type { RunningServer } from '../transports/servers.js';
import { serve } from './helpers.js';

interface Note {
  id: number;
  text: string;
}

function createNotesApp(): Application {
  const notes: Note[] = [{ id: 1, text: 'first' }];
  const app = createApp();
  app.use(
    'notes',
    {
      async find(params: Params) {
        return { query: params.query, notes };
      },
      async get(id: string) {
        const note = notes.find((item) => String(item.id) === id);
        if (note === undefined) throw new NotFound(`No note ${id}`);
        return note;
      },
      async create(data: Note) {
        return { ...data, id: 2 };
      },
      async archive(data: unknown) {
        return { archived: data };
      },
      async remove(id: string) {
        if (id === 'crash') throw new Error('secret internal detail');
        return { id };
      },
    },
    { methods: ['find', 'get', 'create', 'archive', 'remove'] },
  );
  app.use('users/:userId/posts', {
    async find(params: Params) {
      return { route: params.route, query: params.query };
    },
  });
  app.service('notes').hooks({
    before: {
      create: [
        (context: HookContext) => {
          if ((context.data as Note | undefined)?.text === 'refuse')
            throw new BadRequest('Refused by a hook');
        },
      ],
    },
  });
  return app;
}

/** Requests that cover routing, the REST mapping, query and body parsing, and every error path. */
const cases: { name: string; path: string; init?: RequestInit }[] = [
  { name: 'GET list with a nested query', path: '/notes?filter[text]=first&$limit=2' },
  { name: 'GET one', path: '/notes/1' },
  { name: 'GET one that is not there (404 from the service)', path: '/notes/9' },
  { name: 'unknown path (404)', path: '/nothing/here' },
  { name: 'placeholders and a percent-encoded route value', path: '/users/a%20b/posts?x=1' },
  { name: 'malformed percent-encoding (400)', path: '/notes/%E0%A4%A' },
  { name: 'HEAD', path: '/notes/1', init: { method: 'HEAD' } },
  {
    name: 'POST JSON (201)',
    path: '/notes',
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"new"}' },
  },
  {
    name: 'POST a form',
    path: '/notes',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'text=a&text=b',
    },
  },
  {
    name: 'POST invalid JSON (400)',
    path: '/notes',
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":' },
  },
  {
    name: 'POST refused by a hook (400)',
    path: '/notes',
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"refuse"}' },
  },
  {
    name: 'POST with X-Service-Method (custom method)',
    path: '/notes',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-method': 'archive' },
      body: '{"ids":[1]}',
    },
  },
  {
    name: 'POST with X-Service-Method naming a standard method (405)',
    path: '/notes',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-method': 'remove' },
      body: '{}',
    },
  },
  { name: 'POST on an id (405 with Allow)', path: '/notes/1', init: { method: 'POST', body: '{}' } },
  {
    name: 'PUT on a service without update (405 before the unreadable body)',
    path: '/notes/1',
    init: { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{' },
  },
  { name: 'DELETE', path: '/notes/1', init: { method: 'DELETE' } },
  {
    name: 'a service error that is not a plume error (500, message hidden)',
    path: '/notes/crash',
    init: { method: 'DELETE' },
  },
  {
    name: 'a cross-origin request',
    path: '/notes/1',
    init: { headers: { origin: 'https://app.example' } },
  },
];

/** What a client sees of a response: status, the headers that matter, and the body text. */
async function observe(response: Response): Promise<unknown> {
  const headers: Record<string, string | null> = {};
  for (const name of ['content-type', 'access-control-allow-origin', 'allow', 'vary']) {
    headers[name] = response.headers.get(name);
  }
  return { status: response.status, headers, body: await response.text() };
}

describe('createHandler(app) runs the default chain as one step', () => {
  const servers: RunningServer[] = [];
  let oneStep: string;
  let composed: string;

  beforeAll(async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const first = await serve(createNotesApp());
    const second = await serve(createNotesApp(), [errorHandler(), queryParser(), bodyParser()]);
    servers.push(first, second);
    oneStep = first.url;
    composed = second.url;
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await Promise.all(servers.map((server) => server.close()));
  });

  it.each(cases)('answers $name over HTTP as the composed chain does', async ({ path, init }) => {
    const expected = await observe(await fetch(`${composed}${path}`, init));
    const actual = await observe(await fetch(`${oneStep}${path}`, init));
    expect(actual).toEqual(expected);
  });

  it('gives the answers the composed chain gives when called with plain Requests', async () => {
    const handlers: RequestHandler[] = [
      createHandler(createNotesApp()),
      createHandler(createNotesApp(), [errorHandler(), queryParser(), bodyParser()]),
    ];
    for (const { path, init } of cases) {
      const [actual, expected] = await Promise.all(
        handlers.map(async (handler) => observe(await handler(new Request(`http://localhost${path}`, init)))),
      );
      expect(actual, path).toEqual(expected);
    }
  });

  it('answers the specific statuses the cases are meant to reach', async () => {
    const status = async (path: string, init?: RequestInit) =>
      (await fetch(`${oneStep}${path}`, init)).status;
    expect(await status('/notes?x=1')).toBe(200);
    expect(await status('/notes/9')).toBe(404);
    expect(await status('/notes/%E0%A4%A')).toBe(400);
    expect(await status('/notes/1', { method: 'POST', body: '{}' })).toBe(405);
    expect(await status('/notes/crash', { method: 'DELETE' })).toBe(500);
    const created = await fetch(`${oneStep}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"new"}',
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ text: 'new', id: 2 });
    const archived = await fetch(`${oneStep}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-method': 'archive' },
      body: '{"ids":[1]}',
    });
    expect(await archived.json()).toEqual({ archived: { ids: [1] } });
  });

  it("logs 5xx errors to the app's logger, as errorHandler() does", async () => {
    const logged: unknown[] = [];
    const logger = {
      level: 'debug',
      error: (...args: unknown[]) => logged.push(args),
      warn: () => undefined,
      info: () => undefined,
      debug: () => undefined,
      trace: () => undefined,
      child() {
        return logger;
      },
    };
    const app = createNotesApp();
    app.set('logger', logger);
    const handler = createHandler(app);
    const response = await handler(new Request('http://localhost/notes/crash', { method: 'DELETE' }));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret internal detail');
    expect(logged.length).toBeGreaterThan(0);
  });
});
