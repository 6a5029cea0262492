import { createApp, type Application, type Id, type Params } from 'plume';
import {
  AuthenticationService,
  AuthenticationStrategy,
  JWTStrategy,
  LocalStrategy,
  hashPassword,
  protect,
  type AuthenticationRequest,
  type AuthenticationServiceOptions,
  type ParseRequest,
} from 'plume/authentication';
import { NotAuthenticated, NotFound } from 'plume/errors';

export const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

/** An in-memory users service with string ids; `find` matches top-level fields exactly and honours `$limit`. */
export class MemoryUsers {
  readonly id = 'id';
  readonly records = new Map<string, Record<string, unknown>>();
  readonly findCalls: Params[] = [];
  private next = 1;

  async find(params: Params = {}) {
    this.findCalls.push(params);
    const { $limit, ...query } = params.query ?? {};
    const found = [...this.records.values()].filter((record) =>
      Object.entries(query).every(([key, value]) => record[key] === value),
    );
    return typeof $limit === 'number' ? found.slice(0, $limit) : found;
  }

  async get(id: Id) {
    const record = this.records.get(String(id));
    if (record === undefined) throw new NotFound(`No record found for id '${String(id)}'`);
    return record;
  }

  async create(data: Record<string, unknown>) {
    const record = { ...data, id: String(this.next++) };
    this.records.set(record.id, record);
    return record;
  }

  async patch(id: Id, data: Record<string, unknown>) {
    const record = { ...(await this.get(id)), ...data };
    this.records.set(String(id), record);
    return record;
  }

  async remove(id: Id) {
    const record = await this.get(id);
    this.records.delete(String(id));
    return record;
  }
}

/** A custom strategy: reads `X-Api-Key` and accepts keys from its `keys` setting. */
export class ApiKeyStrategy extends AuthenticationStrategy {
  override async parse(request: ParseRequest): Promise<AuthenticationRequest | null> {
    const key = request.headers['x-api-key'];
    return key === undefined ? null : { strategy: this.name, apiKey: key };
  }

  override async authenticate(authentication: AuthenticationRequest) {
    const keys = this.configuration.keys;
    if (
      typeof authentication.apiKey !== 'string' ||
      !Array.isArray(keys) ||
      !keys.includes(authentication.apiKey)
    ) {
      throw new NotAuthenticated('Invalid API key');
    }
    return { authentication: { strategy: this.name }, apiClient: { key: authentication.apiKey } };
  }
}

export interface AuthApp {
  app: Application;
  auth: AuthenticationService;
  users: MemoryUsers;
}

/**
 * An app (from `make`, default `createApp()`) with a `users` memory service (hashPassword with cost 4,
 * protect('password')) and an authentication service with jwt, local and api-key strategies. Not set up.
 */
export function createAuthApp(
  options: AuthenticationServiceOptions = {},
  app: Application = createApp(),
): AuthApp {
  const users = new MemoryUsers();
  app.use('users', users);
  app.service('users').hooks({
    before: { create: [hashPassword('password')], patch: [hashPassword('password')] },
    after: { all: [protect('password')] },
  });
  const auth = new AuthenticationService(app, {
    secret: SECRET,
    entity: 'user',
    service: 'users',
    authStrategies: ['jwt', 'local', 'api-key'],
    local: { hashSize: 4 },
    'api-key': { keys: ['key-1'] },
    ...options,
  });
  auth.register('jwt', new JWTStrategy());
  auth.register('local', new LocalStrategy());
  auth.register('api-key', new ApiKeyStrategy());
  app.use('authentication', auth);
  return { app, auth, users };
}

/** base64url of a JSON value, to craft tokens by hand. */
export function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}
