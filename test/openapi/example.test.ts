import { randomBytes } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { default as addFormatsModule } from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getServiceMeta } from 'plume';
import type { OpenApiDocument } from 'plume/openapi';
import { connectDatabase, type Database } from '../../examples/api/database.js';
import { startServer, type RunningServer } from '../../examples/api/server.js';

// ajv-formats is CommonJS: depending on the loader its default export is the function or a namespace.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

// Deep JSON read in assertions.
type Loose = Record<string, any>;

/** One call of the walk: an operation of the document, its path parameters and what to send. */
interface Step {
  operationId: string;
  params?: () => Record<string, string>;
  query?: string;
  body?: unknown;
  headers?: () => Record<string, string>;
  /** The status the example must answer (a documented one). Default: the operation's only 2xx. */
  status?: number;
  /** Keeps what later steps need. */
  keep?: (body: any) => void;
}

const state = { userId: '', token: '', messageId: '' };
const bearer = () => ({ authorization: `Bearer ${state.token}` });
const email = 'walker@example.com';

// Every operation of the example's document, in an order that makes each call succeed (and a few
// documented errors). An operation missing here, or a step naming an undocumented one, fails the test.
const walk: Step[] = [
  {
    operationId: 'createUsers',
    body: { email, password: 'correct horse', name: 'Walker' },
    keep: (b) => (state.userId = b._id),
  },
  {
    operationId: 'createAuthentication',
    body: { strategy: 'local', email, password: 'correct horse' },
    keep: (b) => (state.token = b.accessToken),
  },
  { operationId: 'findUsers', headers: bearer, query: '$sort[email]=1&$limit=5' },
  { operationId: 'findUsers', status: 401 },
  { operationId: 'getUsers', params: () => ({ id: state.userId }), headers: bearer },
  { operationId: 'patchUsers', params: () => ({ id: state.userId }), headers: bearer, body: { name: 'W.' } },
  {
    operationId: 'createMessages',
    status: 201,
    headers: bearer,
    body: { text: 'Hello' },
    keep: (b) => (state.messageId = b._id),
  },
  { operationId: 'createMessages', body: { text: 'no token' }, status: 401 },
  { operationId: 'createMessages', headers: () => ({ 'x-service-method': 'stats' }), body: {}, status: 200 },
  { operationId: 'findMessages', query: 'include=user&$sort[createdAt]=-1&text[$regex]=hel&ignoreCase=true' },
  { operationId: 'findMessages', query: '$limit=nope', status: 400 },
  { operationId: 'getMessages', params: () => ({ id: state.messageId }) },
  { operationId: 'getMessages', params: () => ({ id: '0123456789abcdef01234567' }), status: 404 },
  {
    operationId: 'updateMessages',
    params: () => ({ id: state.messageId }),
    headers: bearer,
    body: { text: 'Hi' },
  },
  {
    operationId: 'patchMessages',
    params: () => ({ id: state.messageId }),
    headers: bearer,
    body: { text: 'Hey' },
  },
  {
    operationId: 'findUsersUserIdMessages',
    params: () => ({ userId: state.userId }),
    query: '$sort[createdAt]=1&$limit=2',
  },
  { operationId: 'findMessagesStream' },
  { operationId: 'findHealth' },
  { operationId: 'findHealthReady' },
  { operationId: 'removeMessages', params: () => ({ id: state.messageId }), headers: bearer },
  { operationId: 'removeAuthentication', params: () => ({ id: state.token }), headers: bearer },
  { operationId: 'removeAuthenticationWithoutId', headers: bearer },
  { operationId: 'removeUsers', params: () => ({ id: state.userId }), headers: bearer },
];

/** The documented (HTTP method, path) of every operation id. */
function operationsOf(
  document: OpenApiDocument,
): Map<string, { verb: string; path: string; operation: Loose }> {
  const found = new Map<string, { verb: string; path: string; operation: Loose }>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [verb, operation] of Object.entries(item as Loose)) {
      if (verb !== 'parameters') found.set(operation.operationId, { verb, path, operation });
    }
  }
  return found;
}

describe.each(['web', 'express'] as const)('the example API document on the %s transport', (transport) => {
  let database: Database;
  let running: RunningServer;
  let document: OpenApiDocument;

  beforeAll(async () => {
    database = await connectDatabase('', `plume_openapi_${randomBytes(4).toString('hex')}`);
    running = await startServer({ port: 0, transport, database, hashCost: 4 });
    const response = await fetch(`${running.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    document = (await response.json()) as OpenApiDocument;
  });

  afterAll(async () => {
    await running?.close();
    await database?.db.dropDatabase().catch(() => undefined);
    await database?.close();
  });

  it('GET /openapi.json answers a document the OpenAPI 3.1 schema accepts, with every service described', async () => {
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.info.title).toBe('plume example API');
    expect(document['x-plume-undescribed']).toBeUndefined();
    expect(document.components.securitySchemes).toEqual({
      jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      'api-key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
  });

  it('GET /docs answers the reference page, its files come from swagger-ui-dist, other names are a JSON 404', async () => {
    const page = await fetch(`${running.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    for (const [file, type] of [
      ['swagger-ui-bundle.js', /^text\/javascript/],
      ['swagger-ui.css', /^text\/css/],
      ['init.js', /^text\/javascript/],
    ] as const) {
      expect(html).toContain(`"/docs/${file}"`);
      const asset = await fetch(`${running.url}/docs/${file}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(type);
      expect((await asset.text()).length).toBeGreaterThan(file === 'init.js' ? 20 : 100_000);
    }
    const missing = await fetch(`${running.url}/docs/..%2Fpackage.json`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ name: 'NotFound', code: 404, className: 'not-found' });
  });

  it('the documented $select parameter works with a single value, as a client generated from the document sends it', async () => {
    const parameters = Object.values(document.components.parameters ?? {}) as Loose[];
    const select = parameters.find((parameter) => parameter.name.startsWith('$select'))!;
    const response = await fetch(`${running.url}/messages?${encodeURIComponent(select.name)}=text`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('documents every route the services answer', () => {
    const documented = new Set(
      [...operationsOf(document).values()].map(({ verb, path }) => `${verb.toUpperCase()} ${path}`),
    );
    for (const [path, service] of Object.entries(running.app.services)) {
      const options = getServiceMeta(service)!.options;
      if (options.openapi === false) continue;
      const collection = `/${path.replace(/:(\w+)/g, '{$1}')}`;
      for (const method of options.methods) {
        const route =
          {
            find: `GET ${collection}`,
            get: `GET ${collection}/{id}`,
            update: `PUT ${collection}/{id}`,
            patch: `PATCH ${collection}/{id}`,
            remove: `DELETE ${collection}/{id}`,
          }[method] ?? `POST ${collection}`;
        expect(documented, `${path}.${method}`).toContain(route);
      }
    }
  });

  it('every documented operation answers over HTTP with a documented status and a body of the documented shape', async () => {
    const operations = operationsOf(document);
    expect(new Set(walk.map((step) => step.operationId))).toEqual(new Set(operations.keys()));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const step of walk) {
      const { verb, path, operation } = operations.get(step.operationId)!;
      const params = step.params?.() ?? {};
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
      const controller = new AbortController();
      const response = await fetch(`${running.url}${url}${step.query ? `?${step.query}` : ''}`, {
        method: verb.toUpperCase(),
        headers: {
          ...(step.body !== undefined && { 'content-type': 'application/json' }),
          ...step.headers?.(),
        },
        body: step.body === undefined ? undefined : JSON.stringify(step.body),
        signal: controller.signal,
      });
      const label = `${step.operationId}: ${verb.toUpperCase()} ${url}`;
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith('2'));
      const expected = step.status ?? (successes.length === 1 ? Number(successes[0]) : 0);
      expect(response.status, label).toBe(expected);
      const documented = operation.responses[String(response.status)] ?? operation.responses.default;
      const answer = documented.$ref
        ? (document.components.responses as Loose)[documented.$ref.split('/').pop()]
        : documented;
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!;
      if (answer.content === undefined) {
        expect(await response.text(), label).toBe('');
        continue;
      }
      expect(Object.keys(answer.content), label).toContain(contentType);
      if (contentType !== 'application/json') {
        controller.abort(); // an event stream does not end by itself
        continue;
      }
      const body: unknown = await response.json();
      const validate = ajv.compile({
        ...answer.content[contentType].schema,
        components: document.components,
      });
      expect(validate(body) ? [] : validate.errors, label).toEqual([]);
      step.keep?.(body);
    }
  });
});
