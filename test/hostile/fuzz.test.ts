import fc from 'fast-check';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, getServiceMethod, restArguments, type Params } from 'plume';
import { FORBIDDEN_OPERATORS, STANDARD_OPERATORS, filterQuery, isPlainObject } from 'plume/adapter';
import { queryParser as expressQueryParser } from 'plume/express';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer, type EmbeddedServer } from 'plume/embedded';
import { isPlumeError } from 'plume/errors';
import { parseQueryString } from 'plume/http';
import { expectPrototypesUnchanged, ownKeysDeep, PROTOTYPE_KEYS, snapshotPrototypes } from './pollution.js';
import { captureLogger, hostileTransports, serverErrors, type ServedApp } from './servers.js';

/** Runs `fn`; anything it throws must be a plume error (a 4xx the transports answer as JSON). */
function plumeErrorsOnly<T>(fn: () => T): { ok: true; value: T } | { ok: false; code: number } {
  try {
    return { ok: true, value: fn() };
  } catch (error: unknown) {
    if (!isPlumeError(error)) throw new Error(`threw a non-plume error: ${String(error)}`, { cause: error });
    expect(error.code).toBeGreaterThanOrEqual(400);
    expect(error.code).toBeLessThan(500);
    return { ok: false, code: error.code };
  }
}

const hostileTokens = [
  'a',
  'b',
  '$where',
  '$in',
  '$or',
  ...PROTOTYPE_KEYS,
  'toString',
  'hasOwnProperty',
  'valueOf',
  '[',
  ']',
  '[]',
  '[0]',
  '[99999999]',
  '[__proto__]',
  '[constructor][prototype]',
  '=',
  '&',
  '&&',
  ';',
  '+',
  '.',
  '%',
  '%5B',
  '%5D',
  '%3D',
  '%26',
  '%00',
  '%ZZ',
  '%E0%A4%A',
  '%C0%AF',
  '%FF',
  '%F0%9F%92%A9',
  '\u0000',
  '\uD800',
  '😀',
  ' ',
  '%20',
];

/** Query strings made of the pieces hostile clients combine: brackets, prototype keys, bad escapes. */
const hostileQueryString = fc
  .array(fc.oneof(fc.constantFrom(...hostileTokens), fc.string({ maxLength: 4 })), { maxLength: 40 })
  .map((parts) => parts.join(''));

const anyQueryString = fc.oneof(
  hostileQueryString,
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.webQueryParameters(),
  // Deep brackets: a[b][c][d]… far past the parser's depth.
  fc.nat(200).map((depth) => `a${'[b]'.repeat(depth)}=1`),
);

const parsers: [string, (query: string) => unknown][] = [
  ['plume/http parseQueryString', parseQueryString],
  ['plume/express queryParser()', expressQueryParser()],
  ['plume/express queryParser({ arrayLimit: 1000 })', expressQueryParser({ arrayLimit: 1000 })],
];

describe.each(parsers)('%s with arbitrary query strings', (_name, parse) => {
  it('returns a plain object without prototype keys, or throws a plume error', () => {
    const before = snapshotPrototypes();
    fc.assert(
      fc.property(anyQueryString, (queryString) => {
        const result = plumeErrorsOnly(() => parse(queryString));
        if (!result.ok) return;
        expect(typeof result.value).toBe('object');
        const keys = ownKeysDeep(result.value).filter(({ key }) =>
          (PROTOTYPE_KEYS as readonly string[]).includes(key),
        );
        expect(keys).toEqual([]);
      }),
      { numRuns: 500 },
    );
    expectPrototypesUnchanged(before);
  });
});

const operatorKeys = [
  ...STANDARD_OPERATORS,
  ...FORBIDDEN_OPERATORS,
  '$regex',
  '$options',
  '$exists',
  '$elemMatch',
  '$nor',
  '$not',
  '$text',
  '$search',
  '$limit',
  '$skip',
  '$sort',
  '$select',
  '$',
  '$unknown',
];
const queryKey = fc.oneof(
  fc.constantFrom(...operatorKeys, ...PROTOTYPE_KEYS, 'name', 'age', '_id', 'a.b', ''),
  fc.string({ maxLength: 6 }),
);
const leaf = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('1', '-1', 'asc', '10', '-5', '1e999', '0x10', '99999999999999999999'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
/** JSON-like trees with operator, filter and prototype keys anywhere: what qs or JSON.parse can hand a service. */
const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('tree'), { maxLength: 4 }),
    fc.dictionary(queryKey, tie('tree'), { maxKeys: 4 }),
  ),
}));
const query = fc.oneof(
  fc.dictionary(queryKey, tree, { maxKeys: 5 }),
  tree,
  fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withSparseArray: true }),
  // JSON.parse gives `__proto__` as an own key, unlike an object literal.
  fc.jsonValue().map((value) => JSON.parse(`{"__proto__":{"polluted":true},"q":${JSON.stringify(value)}}`)),
);

/** Every `$` key inside plain objects and arrays (what the database would read as operators). */
function operatorsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(operatorsIn);
  if (!isPlainObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(key.startsWith('$') ? [key] : []),
    ...operatorsIn(item),
  ]);
}

describe('plume/adapter filterQuery with arbitrary queries', () => {
  it('default options: a result holds only standard operators; anything else is a 400', () => {
    const before = snapshotPrototypes();
    fc.assert(
      fc.property(query, (input) => {
        const result = plumeErrorsOnly(() => filterQuery(input, { paginate: { default: 10, max: 50 } }));
        if (!result.ok) return;
        for (const operator of operatorsIn(result.value.query)) {
          expect(STANDARD_OPERATORS).toContain(operator);
        }
        const { $limit, $skip } = result.value.filters;
        expect($limit).toBeLessThanOrEqual(50);
        if ($skip !== undefined) expect(Number.isSafeInteger($skip) && $skip >= 0).toBe(true);
      }),
      { numRuns: 1000 },
    );
    expectPrototypesUnchanged(before);
  });

  it("operators: 'all' (trusted code) still never lets $where, $function, $accumulator or $expr through", () => {
    fc.assert(
      fc.property(query, (input) => {
        const result = plumeErrorsOnly(() => filterQuery(input, { operators: 'all' }));
        if (!result.ok) return;
        for (const operator of operatorsIn(result.value.query)) {
          expect(FORBIDDEN_OPERATORS).not.toContain(operator);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('an allow-list admits exactly the listed operators', () => {
    const allowed = ['$regex', '$options'];
    fc.assert(
      fc.property(query, (input) => {
        const result = plumeErrorsOnly(() => filterQuery(input, { operators: allowed }));
        if (!result.ok) return;
        for (const operator of operatorsIn(result.value.query)) {
          expect([...STANDARD_OPERATORS, ...allowed]).toContain(operator);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('REST mapping with arbitrary requests', () => {
  const app = createApp();
  const exposed = ['find', 'get', 'create', 'approve'];

  beforeAll(async () => {
    app.use(
      'things',
      {
        async find() {
          return [];
        },
        async get(id: unknown) {
          return { id };
        },
        async create(data: unknown) {
          return data;
        },
        async remove(id: unknown) {
          return { id };
        },
        async approve(data: unknown) {
          return data;
        },
        async _find() {
          return ['internal'];
        },
        async setup() {},
      },
      { methods: exposed },
    );
    await app.setup();
  });
  afterAll(() => app.teardown());

  const verb = fc.oneof(
    fc.constantFrom(
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
      'TRACE',
      'CONNECT',
      'get',
      'post',
    ),
    fc.string({ maxLength: 10 }),
  );
  const override = fc.oneof(
    fc.constant(null),
    fc.constantFrom(
      '',
      'setup',
      'teardown',
      '_find',
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
      'hooks',
      'find',
      'remove',
      'approve',
      'APPROVE',
      'approve ',
    ),
    fc.string({ maxLength: 12 }),
  );
  const id = fc.oneof(fc.constant(null), fc.string({ maxLength: 30 }));

  it('getServiceMethod picks an exposed method or throws 405, for any verb, id and X-Service-Method', () => {
    const service = app.service('things');
    fc.assert(
      fc.property(verb, id, override, (httpMethod, anId, name) => {
        const result = plumeErrorsOnly(() => getServiceMethod(service, httpMethod, anId, name));
        if (!result.ok) {
          expect(result.code).toBe(405);
          return;
        }
        expect(exposed).toContain(result.value);
        const args = restArguments(result.value, { id: anId, data: 'data', params: {} });
        expect(args.length).toBeGreaterThan(0);
        expect(args.length).toBeLessThanOrEqual(3);
      }),
      { numRuns: 2000 },
    );
  });

  it('restArguments maps any method name to at most [id, data, params] and never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, 'toString', 'find', 'patch'), fc.string()),
        (name) => {
          const params = {} as Params;
          const args = restArguments(name, { id: '1', data: 'd', params });
          expect(args.at(-1)).toBe(params);
          expect(args.every((arg) => arg === '1' || arg === 'd' || arg === params)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('app.lookup routes any path to a service, to nothing, or throws a 400', () => {
    const segment = fc.oneof(
      fc.constantFrom(
        'things',
        '',
        '.',
        '..',
        '%',
        '%ZZ',
        '%C0%AF',
        '%FF',
        '%00',
        '__proto__',
        'constructor',
        '%2F',
      ),
      fc.webSegment(),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 6 }), (segments) => {
        const path = `/${segments.join('/')}`;
        const result = plumeErrorsOnly(() => app.lookup(path));
        if (!result.ok) {
          expect(result.code).toBe(400);
          return;
        }
        if (result.value !== null) expect(result.value.path).toBe('things');
      }),
      { numRuns: 1000 },
    );
  });
});

describe.each(hostileTransports)('arbitrary HTTP requests to a DocDbService ($name)', (transport) => {
  let database: EmbeddedServer;
  let client: MongoClient;
  let served: ServedApp;
  const logger = captureLogger();

  beforeAll(async () => {
    database = await startEmbeddedServer();
    client = await MongoClient.connect(database.uri);
    const collection = client.db('fuzz').collection('items');
    await collection.insertMany([
      { text: 'a', n: 1 },
      { text: 'b', n: 2 },
    ]);
    served = await transport.serve((app) => {
      app.use(
        'items',
        new DocDbService({
          Model: collection,
          paginate: { default: 5, max: 10 },
          operators: ['$regex', '$options'],
        }),
      );
    }, logger);
  });
  afterAll(async () => {
    await served?.close();
    await client?.close();
    await database?.stop();
  });

  const segment = fc.oneof(
    fc.constantFrom(
      'items',
      'items',
      '0123456789abcdef01234567',
      '%ZZ',
      '%C0%AF',
      '__proto__',
      'constructor',
      '',
    ),
    fc.webSegment(),
  );
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'),
    path: fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`),
    query: hostileQueryString,
    serviceMethod: fc.option(fc.constantFrom('setup', '_find', 'constructor', 'find', 'nope', '__proto__'), {
      nil: undefined,
    }),
    contentType: fc.constantFrom(
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
    ),
    body: fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string({ maxLength: 40 }),
      tree.map((value) => JSON.stringify(value) ?? 'null'),
    ),
  });

  it('never answers 5xx, and errors are JSON without a stack', async () => {
    const before = snapshotPrototypes();
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, query: search, serviceMethod, contentType, body }) => {
        const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
        const headers: Record<string, string> = { accept: 'application/json' };
        if (withBody) headers['content-type'] = contentType;
        if (serviceMethod !== undefined) headers['x-service-method'] = serviceMethod;
        const response = await fetch(`${served.url}${path}?${search}`, {
          method,
          headers,
          body: withBody ? body : undefined,
          signal: AbortSignal.timeout(10_000),
        });
        const text = await response.text();
        expect(response.status, text).toBeLessThan(500);
        expect(text).not.toMatch(/\n\s+at |"stack"/);
        if (response.status >= 400 && method !== 'HEAD') {
          expect(JSON.parse(text)).toMatchObject({ code: response.status });
        }
      }),
      { numRuns: 150 },
    );
    expect(serverErrors(logger)).toEqual([]);
    expectPrototypesUnchanged(before);
  });
});
