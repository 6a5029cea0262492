/**
 * The cost of building the OpenAPI document of an app with 50 services (issue 18):
 *
 *   npx tsx bench/openapi.ts [services=50]
 *
 * Each service is described like the example's `messages`: result, data, patch and `querySyntax`
 * schemas (with a `$regex` extension), pagination, `multi`, a custom method and `authenticate`
 * hooks on its writes. Prints the first build (cold), the median of 20 more (wall clock and CPU time of
 * the process, which includes the garbage collector's threads), and the document size.
 * `serveOpenApi` builds the document once per `app.setup()`, so this is a start-up cost, never a
 * per-request one.
 */
import { performance } from 'node:perf_hooks';
import { createApp, type Params } from 'plume';
import { AuthenticationService, JWTStrategy, authenticate } from 'plume/authentication';
import { openapi } from 'plume/openapi';
import { ObjectIdSchema, Type, querySyntax } from 'plume/schema';

const count = Number(process.argv[2] ?? 50);

class Records {
  options = { paginate: { default: 10, max: 50 }, multi: ['patch', 'remove'] };
  async find(_params?: Params) {
    return [];
  }
  async get(id: string) {
    return { _id: id };
  }
  async create(data: unknown) {
    return data;
  }
  async update(_id: string, data: unknown) {
    return data;
  }
  async patch(_id: string, data: unknown) {
    return data;
  }
  async remove(id: string) {
    return { _id: id };
  }
  async stats() {
    return { total: 0 };
  }
}

function buildApp() {
  const app = createApp();
  const auth = new AuthenticationService(app, {
    secret: 's'.repeat(32),
    entity: null,
    authStrategies: ['jwt'],
  });
  auth.register('jwt', new JWTStrategy());
  app.use('authentication', auth);
  for (let n = 0; n < count; n++) {
    const schema = Type.Object(
      {
        _id: ObjectIdSchema(),
        [`title${n}`]: Type.String({ minLength: 1, maxLength: 200 }),
        body: Type.String({ maxLength: 10_000 }),
        ownerId: ObjectIdSchema(),
        tags: Type.Array(Type.String()),
        score: Type.Number(),
        createdAt: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    );
    const data = Type.Omit(schema, ['_id', 'createdAt']);
    const path = n % 5 === 0 ? `groups/:groupId/records${n}` : `records${n}`;
    app.use(path, new Records(), {
      methods: ['find', 'get', 'create', 'update', 'patch', 'remove', 'stats'],
      openapi: {
        name: `Record${n}`,
        result: schema,
        data,
        patch: Type.Partial(data),
        query: querySyntax(schema, { body: { $regex: Type.String({ maxLength: 100 }) } }),
        methods: { stats: { data: Type.Object({}), result: Type.Object({ total: Type.Integer() }) } },
      },
    });
    const write = [authenticate('jwt')];
    app.service(path).hooks({ before: { create: write, update: write, patch: write, remove: write } });
  }
  return app;
}

/** Wall-clock and CPU milliseconds of `fn` (CPU time is less distorted by other processes on a busy machine). */
function measure<T>(fn: () => T): { value: T; wall: number; cpu: number } {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const value = fn();
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { value, wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const app = buildApp();
const { value: first, wall: cold, cpu: coldCpu } = measure(() => openapi(app));
const runs = Array.from({ length: 20 }, () => measure(() => openapi(app)));
const size = JSON.stringify(first).length;
console.log(
  `${count} services (${Object.keys(first.paths).length} paths, ${Object.keys(first.components.schemas).length} schemas, ` +
    `${(size / 1024).toFixed(0)} KiB of JSON): first build ${cold.toFixed(0)} ms (CPU ${coldCpu.toFixed(0)} ms), ` +
    `median of 20 more ${median(runs.map((run) => run.wall)).toFixed(0)} ms (CPU ${median(runs.map((run) => run.cpu)).toFixed(0)} ms)`,
);
