import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, invokeService, type Application, type Params } from 'plume';
import { BadRequest } from 'plume/errors';
import { createHandler, toRuntimeHandler } from 'plume/http';
import {
  createDataValidator,
  createQueryValidator,
  getValidator,
  isValidated,
  querySyntax,
  resolve,
  resolveData,
  resolveExternal,
  resolveQuery,
  resolveResult,
  Type,
  validateData,
  validateQuery,
  virtual,
} from 'plume/schema';
import { afterEach, describe, expect, it } from 'vitest';

interface User extends Record<string, unknown> {
  id: number;
  email: string;
  password?: string;
  age?: number;
}

/**
 * An in-memory users service that remembers the params of the last call. Methods run with `this` =
 * the registered wrapper (which inherits from this object), so state lives in mutated objects.
 */
class MemoryUsers {
  store: User[] = [];
  seen: { params?: Params } = {};

  find(params: Params = {}) {
    this.seen.params = params;
    const query = params.query ?? {};
    const age = query.age as { $gt?: unknown } | undefined;
    const data = this.store.filter((u) => age?.$gt === undefined || (u.age ?? 0) > (age.$gt as number));
    return Promise.resolve(
      params.paginate === false ? data : { total: data.length, limit: 10, skip: 0, data },
    );
  }
  get(id: number | string, params: Params = {}) {
    this.seen.params = params;
    const user = this.store.find((u) => u.id === Number(id));
    return Promise.resolve(user);
  }
  create(data: Omit<User, 'id'>, params: Params = {}) {
    this.seen.params = params;
    const user = { ...data, id: this.store.length + 1 } as User;
    this.store.push(user);
    return Promise.resolve(user);
  }
  patch(id: number | string, data: Partial<User>) {
    const user = this.store.find((u) => u.id === Number(id));
    if (user) Object.assign(user, data);
    return Promise.resolve(user);
  }
}

const queryAjv = createQueryValidator();
const dataAjv = createDataValidator();
const userSchema = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String({ format: 'email' }),
    password: Type.String({ minLength: 4 }),
    age: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
const createSchema = Type.Omit(userSchema, ['id']);
const patchSchema = Type.Partial(createSchema, { additionalProperties: false });
const querySchema = querySyntax(Type.Pick(userSchema, ['id', 'email', 'age']));

const hidePassword = resolve<User>({ password: () => undefined });

function setUp(): { app: Application; memory: MemoryUsers } {
  const app = createApp();
  const memory = new MemoryUsers();
  app.use('users', memory);
  app.service('users').hooks({
    around: { all: [resolveExternal(hidePassword)] },
    before: {
      find: [validateQuery(getValidator(querySchema, queryAjv))],
      create: [
        validateData({
          create: getValidator(createSchema, dataAjv),
          patch: getValidator(patchSchema, dataAjv),
        }),
      ],
      patch: [
        validateData({
          create: getValidator(createSchema, dataAjv),
          patch: getValidator(patchSchema, dataAjv),
        }),
      ],
    },
  });
  return { app, memory };
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(app: Application): Promise<string> {
  const server = createServer(toRuntimeHandler(createHandler(app)));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  await app.setup(server);
  servers.push({
    close: () => new Promise<void>((done) => server.close(() => done())),
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function seed(app: Application): Promise<void> {
  const users = app.service('users');
  await users.create({ email: 'ada@example.com', password: 'secret-1', age: 36 });
  await users.create({ email: 'bob@example.com', password: 'secret-2', age: 17 });
}

describe('validateQuery', () => {
  it('coerces URL strings to numbers and marks the query validated (?age[$gt]=20)', async () => {
    const { app, memory } = setUp();
    await seed(app);
    const url = await serve(app);
    const response = await fetch(`${url}/users?age[$gt]=20&$limit=5`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: User[] };
    expect(page.data.map((u) => u.email)).toEqual(['ada@example.com']);
    expect(memory.seen.params?.query).toEqual({ age: { $gt: 20 }, $limit: 5 });
    expect(isValidated(memory.seen.params?.query)).toBe(true);
  });

  it('rejects unknown operators and properties over HTTP with 400 and AJV errors', async () => {
    const { app } = setUp();
    const url = await serve(app);
    const operator = await fetch(`${url}/users?age[$where]=1`);
    expect(operator.status).toBe(400);
    const body = (await operator.json()) as { name: string; message: string; errors: unknown[] };
    expect(body.name).toBe('BadRequest');
    expect(body.message).toBe("Invalid query: /age must NOT have additional property '$where'");
    expect(body.errors.length).toBeGreaterThan(0);

    const property = await fetch(`${url}/users?password=secret-1`);
    expect(property.status).toBe(400);
    expect(((await property.json()) as { message: string }).message).toContain("'password'");
  });

  it('validates an absent query as {} and works as an around hook', async () => {
    const app = createApp();
    const memory = new MemoryUsers();
    app.use('users', memory);
    app.service('users').hooks({ around: { find: [validateQuery(getValidator(querySchema, queryAjv))] } });
    await app.service('users').find();
    expect(memory.seen.params?.query).toEqual({});
    expect(isValidated(memory.seen.params?.query)).toBe(true);
    await expect(app.service('users').find({ query: { $limit: -1 } })).rejects.toThrow(BadRequest);
  });
});

describe('validateData', () => {
  it('validates create with the create schema and patch with the patch schema', async () => {
    const { app } = setUp();
    const users = app.service('users');
    await expect(users.create({ email: 'not-an-email', password: 'secret' })).rejects.toMatchObject({
      code: 400,
      message: 'Invalid data: /email must match format "email"',
    });
    await expect(users.create({ email: 'c@example.com' })).rejects.toThrow(
      "must have required property 'password'",
    );
    // Data keeps the types the client sent: a string is not an integer.
    await expect(users.create({ email: 'c@example.com', password: 'secret', age: '40' })).rejects.toThrow(
      'Invalid data: /age must be integer',
    );
    const created = (await users.create({ email: 'c@example.com', password: 'secret', age: 40 })) as User;
    expect(created.age).toBe(40);
    // patch may leave out required properties but not break the others
    await expect(users.patch(created.id, { age: 41 })).resolves.toMatchObject({ age: 41 });
    await expect(users.patch(created.id, { age: -1 })).rejects.toThrow('/age must be >= 0');
    await expect(users.patch(created.id, { admin: true })).rejects.toThrow("additional property 'admin'");
  });

  it('validates each item of an array and uses one validator for every data method', async () => {
    const app = createApp();
    const created: unknown[] = [];
    app.use('items', {
      create: (data: unknown) => {
        created.push(data);
        return Promise.resolve(data);
      },
      get: (id: unknown) => Promise.resolve({ id }),
    });
    const validator = getValidator(Type.Object({ n: Type.Integer() }), dataAjv);
    app.service('items').hooks({ before: { all: [validateData(validator)] } });
    await expect(app.service('items').create([{ n: 1 }, { n: 2 }])).resolves.toEqual([{ n: 1 }, { n: 2 }]);
    await expect(app.service('items').create([{ n: 1 }, { n: 'x' }])).rejects.toThrow('/n must be integer');
    // get has no data: the validator is not used
    await expect(app.service('items').get(1)).resolves.toEqual({ id: 1 });
  });
});

describe('resolveExternal', () => {
  it('hides the password from HTTP get and paginated find while internal calls keep it', async () => {
    const { app } = setUp();
    await seed(app);
    const url = await serve(app);

    const one = (await (await fetch(`${url}/users/1`)).json()) as User;
    expect(one).toEqual({ id: 1, email: 'ada@example.com', age: 36 });

    const page = (await (await fetch(`${url}/users`)).json()) as { total: number; data: User[] };
    expect(page.total).toBe(2);
    expect(page.data).toHaveLength(2);
    for (const user of page.data) expect(user).not.toHaveProperty('password');

    const internal = (await app.service('users').get(1)) as User;
    expect(internal.password).toBe('secret-1');
  });

  it('sets dispatch item by item for arrays and leaves result untouched', async () => {
    const { app } = setUp();
    await seed(app);
    const context = await invokeService(app, app.service('users'), 'find', [{ paginate: false }]);
    const result = context.result as User[];
    expect(result.map((u) => u.password)).toEqual(['secret-1', 'secret-2']);
    expect(context.dispatch).toEqual([
      { id: 1, email: 'ada@example.com', age: 36 },
      { id: 2, email: 'bob@example.com', age: 17 },
    ]);
  });

  it('works as an after hook', async () => {
    const app = createApp();
    app.use('users', new MemoryUsers());
    app.service('users').hooks({ after: { all: [resolveExternal(hidePassword)] } });
    await seed(app);
    const context = await invokeService(app, app.service('users'), 'get', [2]);
    expect(context.dispatch).toEqual({ id: 2, email: 'bob@example.com', age: 17 });
    expect((context.result as User).password).toBe('secret-2');
  });
});

describe('resolveExternal of nested records', () => {
  it("sends a record another service returned internally in that service's external form (FeathersJS 5)", async () => {
    const { app } = setUp();
    await seed(app);
    app.use('messages', {
      get: async (id: number | string) => ({ id: Number(id), text: 'Hello', userId: 1 }),
    });
    const withUser = resolve<{ userId: number }>({
      user: virtual(async (message, context) => context.app.service('users').get(message.userId)),
    });
    app.service('messages').hooks({
      around: { all: [resolveExternal(resolve({})), resolveResult(withUser)] },
    });
    const url = await serve(app);
    const message = (await (await fetch(`${url}/messages/7`)).json()) as { user: User };
    // The users service's own resolveExternal hid the password of the user it returned.
    expect(message).toEqual({
      id: 7,
      text: 'Hello',
      userId: 1,
      user: { id: 1, email: 'ada@example.com', age: 36 },
    });
    const internal = (await app.service('messages').get(7)) as { user: User };
    expect(internal.user.password).toBe('secret-1');
  });
});

describe('resolveQuery', () => {
  it('resolves params.query before the method, keeping the validated mark of validateQuery', async () => {
    const { app, memory } = setUp();
    await seed(app);
    const ownAge = resolve<Record<string, unknown>>({
      age: async (value, _query, context) => (context.params.user ? { $gt: 20 } : value),
    });
    app.service('users').hooks({ before: { find: [resolveQuery(ownAge)] } });
    const page = (await app.service('users').find({ user: { id: 1 }, query: { age: { $gt: '1' } } })) as {
      data: User[];
    };
    expect(page.data.map((user) => user.email)).toEqual(['ada@example.com']);
    expect(memory.seen.params?.query).toEqual({ age: { $gt: 20 } });
    expect(isValidated(memory.seen.params?.query)).toBe(true);
  });

  it('resolves an absent query as {} and works as an around hook', async () => {
    const app = createApp();
    const memory = new MemoryUsers();
    app.use('users', memory);
    const limited = resolve<Record<string, unknown>>({ $limit: async () => 5 });
    app.service('users').hooks({ around: { all: [resolveQuery(limited)] } });
    await app.service('users').find();
    expect(memory.seen.params?.query).toEqual({ $limit: 5 });
    expect(isValidated(memory.seen.params?.query)).toBe(false);
  });
});

describe('resolveData and resolveResult', () => {
  it('resolveData adds a field before the method runs, per method', async () => {
    const app = createApp();
    const memory = new MemoryUsers();
    app.use('users', memory);
    app.service('users').hooks({
      before: {
        all: [
          resolveData({
            create: resolve<User>({
              createdAt: () => 1_700_000_000_000,
              email: (value) => (typeof value === 'string' ? value.toLowerCase() : value),
            }),
          }),
        ],
      },
    });
    const created = await app.service('users').create({ email: 'ADA@Example.com', password: 'x' });
    expect(created).toEqual({ id: 1, email: 'ada@example.com', password: 'x', createdAt: 1_700_000_000_000 });
    // patch has no resolver in the map: data is unchanged
    await expect(app.service('users').patch(1, { email: 'UP@example.com' })).resolves.toMatchObject({
      email: 'UP@example.com',
    });
  });

  it('resolveResult changes the result of internal calls too, with virtual properties and context', async () => {
    const app = createApp();
    app.use('users', new MemoryUsers());
    app.service('users').hooks({
      around: {
        all: [
          resolveResult(
            resolve<User>({
              properties: {
                label: virtual((user, context) => `${context.method}:${user.email}`),
                password: () => undefined,
              },
            }),
          ),
        ],
      },
    });
    await seed(app);
    await expect(app.service('users').get(1)).resolves.toEqual({
      id: 1,
      email: 'ada@example.com',
      age: 36,
      label: 'get:ada@example.com',
    });
    const page = (await app.service('users').find()) as { total: number; data: User[] };
    expect(page.total).toBe(2);
    expect(page.data.map((u) => u.label)).toEqual(['find:ada@example.com', 'find:bob@example.com']);
  });
});
