import { decodeJwt } from 'jose';
import type { Application, HookContext, NullableId, Params } from '../core/index.js';
import { GeneralError, NotAuthenticated } from '../errors/index.js';
import { checkJwtOptions, defaultJwtOptions, signAccessToken, verifyToken } from './access-token.js';
import type {
  AuthenticationConfiguration,
  AuthenticationParams,
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationServiceOptions,
  JwtOptions,
  ParseRequest,
} from './declarations.js';
import { isRecord } from './declarations.js';
import {
  checkAttempt,
  countFailure,
  createAttemptLimiters,
  reserveAttempt,
  type AttemptKeys,
  type AttemptLimiters,
} from './rate-limit.js';
import type { AuthenticationStrategy } from './strategy.js';

/** Params of `create` calls: their attempts are counted before they run (see `authenticate`). */
const loginAttempts = new WeakSet<Params>();

/** Keys of the constructor options that are not configuration. */
const registrationKeys = new Set(['path', 'isDefault', 'configKey']);

/** A copy of `entity` without `fields` (non-records are returned as they are). */
function omitFields(entity: unknown, fields: readonly string[]): unknown {
  if (!isRecord(entity) || fields.length === 0) return entity;
  const copy: Record<string, unknown> = { ...entity };
  for (const field of fields) delete copy[field];
  return copy;
}

/** The token subject for an entity id: strings and numbers as they are, ObjectIds as hex. */
function idToString(id: unknown, entity: string | null): string {
  if (typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint') return String(id);
  if (isRecord(id) && typeof id.toHexString === 'function')
    return String((id.toHexString as () => unknown)());
  throw new GeneralError(`The ${String(entity)} id cannot be used as a token subject`);
}

/**
 * The authentication service (spec: "Authentication"; REFERENCE-feathers §5). Register it with
 * `app.use('authentication', new AuthenticationService(app, { secret, entity: 'user', service: 'users',
 * authStrategies: ['jwt', 'local'] }))` and register strategies with `service.register(name, strategy)`.
 *
 * - `create` (`POST /authentication`): authenticates with one of `authStrategies` and answers 201
 *   `{ accessToken, authentication: { strategy, payload }, [entity] }`, the entity without protected
 *   fields (the local strategy's password field); a `jwt` login returns the same token.
 * - `remove` (`DELETE /authentication[/<token>]`): logout; re-authenticates `params.authentication`.
 * - `parse` and `authenticate` are used by the `authenticate` hook and the transports' middleware.
 *
 * The first service constructed for an app becomes its default (`app.get('defaultAuthentication')` is
 * its path). Configuration = `app.get(configKey)` merged with the constructor options; a missing
 * `secret`, an unknown entity service or an unregistered strategy make `setup` throw.
 */
export class AuthenticationService {
  readonly app: Application;
  /** Registered strategies by name. */
  readonly strategies = new Map<string, AuthenticationStrategy>();
  private readonly options: AuthenticationServiceOptions;
  private readonly configKey: string;
  private path: string;
  private isSetup = false;
  private limiters: AttemptLimiters | undefined;

  /**
   * `new AuthenticationService(app, options?)`, or FeathersJS' form `new AuthenticationService(app,
   * configKey, options?)`, whose second argument names the app setting holding the configuration.
   * Throws a `TypeError` when `app` is not a plume application.
   */
  constructor(app: Application, options?: AuthenticationServiceOptions);
  constructor(app: Application, configKey: string, options?: AuthenticationServiceOptions);
  constructor(
    app: Application,
    keyOrOptions: AuthenticationServiceOptions | string = {},
    moreOptions: AuthenticationServiceOptions = {},
  ) {
    if (typeof app?.get !== 'function' || typeof app.service !== 'function') {
      throw new TypeError('new AuthenticationService(app, options) needs a plume application');
    }
    const options =
      typeof keyOrOptions === 'string' ? { ...moreOptions, configKey: keyOrOptions } : keyOrOptions;
    this.app = app;
    this.options = options;
    this.configKey = options.configKey ?? 'authentication';
    this.path = options.path ?? 'authentication';
    if (options.isDefault === true || typeof app.get('defaultAuthentication') !== 'string') {
      app.set('defaultAuthentication', this.path);
    }
  }

  /** The merged configuration (app setting, then constructor options, then defaults). */
  get configuration(): AuthenticationConfiguration {
    const fromApp = this.app.get(this.configKey);
    const merged: Record<string, unknown> = { ...(isRecord(fromApp) ? fromApp : {}) };
    for (const [key, value] of Object.entries(this.options)) {
      if (!registrationKeys.has(key) && value !== undefined) merged[key] = value;
    }
    const jwtOptions = isRecord(merged.jwtOptions) ? merged.jwtOptions : {};
    return {
      ...merged,
      entity: merged.entity === null ? null : typeof merged.entity === 'string' ? merged.entity : 'user',
      authStrategies: Array.isArray(merged.authStrategies)
        ? (merged.authStrategies as string[])
        : ['jwt', 'local'],
      jwtOptions: { ...defaultJwtOptions, ...jwtOptions },
    };
  }

  /** Strategy names that are registered, in registration order. */
  getStrategyNames(): string[] {
    return [...this.strategies.keys()];
  }

  /** The registered strategies among `names` (unknown names are skipped). */
  getStrategies(...names: string[]): AuthenticationStrategy[] {
    return names.map((name) => this.strategies.get(name)).filter((s) => s !== undefined);
  }

  /**
   * Registers `strategy` under `name` (e.g. `register('jwt', new JWTStrategy())`): gives it its name,
   * the app and this service, checks its configuration (throws with a clear message) and, when the
   * service is already set up, runs its `setup`.
   */
  register(name: string, strategy: AuthenticationStrategy): this {
    if (typeof name !== 'string' || name === '') throw new TypeError('A strategy needs a non-empty name');
    strategy.setName(name);
    strategy.setApplication(this.app);
    strategy.setAuthentication(this);
    this.strategies.set(name, strategy);
    if (this.isSetup) {
      strategy.verifyConfiguration();
      void strategy.setup().catch((error: unknown) => this.app.emit('error', error));
    }
    return this;
  }

  /** The entity id of `entity` used as the token subject: `entityId`, else the entity service's `id`, else `_id`/`id`. */
  getEntityId(entity: Record<string, unknown>): unknown {
    const config = this.configuration;
    if (typeof config.entityId === 'string') return entity[config.entityId];
    let serviceId: unknown;
    try {
      serviceId =
        typeof config.service === 'string'
          ? (this.app.service(config.service) as { id?: unknown }).id
          : undefined;
    } catch {
      serviceId = undefined;
    }
    if (typeof serviceId === 'string') return entity[serviceId];
    return entity._id ?? entity.id;
  }

  /**
   * Creates an access token for `payload` with `jwtOptions` (merged over the configuration's) and
   * the configured secret. Throws `GeneralError` (500) for a missing secret or unsupported algorithm.
   */
  async createAccessToken(payload: Record<string, unknown>, options: JwtOptions = {}): Promise<string> {
    const config = this.configuration;
    return signAccessToken(payload, { ...config.jwtOptions, ...options }, config.secret);
  }

  /**
   * Verifies an access token with the configured secret and `jwtOptions` (merged with `options`) and
   * resolves to its payload. Wrong algorithm (including `none`), signature, audience, issuer, type or
   * an expired token → `NotAuthenticated` (401).
   */
  async verifyAccessToken(accessToken: string, options: JwtOptions = {}): Promise<Record<string, unknown>> {
    if (typeof accessToken !== 'string' || accessToken === '') throw new NotAuthenticated('No access token');
    const config = this.configuration;
    return verifyToken(accessToken, { ...config.jwtOptions, ...options }, config.secret);
  }

  /**
   * Asks each strategy in `names` (in order) to parse `request` and resolves to the first non-null
   * result, e.g. `{ strategy: 'jwt', accessToken }`, or `null`. Unknown names are skipped.
   */
  async parse(request: ParseRequest, ...names: string[]): Promise<AuthenticationRequest | null> {
    for (const strategy of this.getStrategies(...names)) {
      const result = await strategy.parse(request);
      if (isRecord(result)) return result;
    }
    return null;
  }

  /**
   * Authenticates `authentication` with its `strategy`, which must be among `allowed` (default:
   * `authStrategies`) and registered, and resolves to the strategy's result. No strategy, an unknown
   * one or one not allowed → `NotAuthenticated` (401); the strategy's own failures are 401 too. The
   * entity in the result has no protected fields (e.g. no password hash), so `params.user` has none.
   *
   * External calls (with `params.provider` or `params.ip`) are rate limited (`configuration.rateLimit`):
   * failed attempts count against `params.ip` and the strategy's account (`getAccountKey`); once a
   * limit is used up → `TooManyRequests` (429) with a `Retry-After` header, before the strategy runs.
   * Logins (`create`) count each attempt before it runs and give the point back when it succeeds.
   */
  async authenticate(
    authentication: AuthenticationRequest,
    params: Params,
    ...allowed: string[]
  ): Promise<AuthenticationResult> {
    const names = allowed.length > 0 ? allowed : this.configuration.authStrategies;
    const name = isRecord(authentication) ? authentication.strategy : undefined;
    if (typeof name !== 'string' || name === '') {
      throw new NotAuthenticated('Invalid authentication information (no `strategy` set)');
    }
    const strategy = this.strategies.get(name);
    if (!names.includes(name) || strategy === undefined) {
      throw new NotAuthenticated('Invalid authentication information (strategy not allowed)');
    }
    const keys = this.attemptKeys(strategy, authentication, params);
    const limiters = (this.limiters ??= createAttemptLimiters(this.configuration.rateLimit));
    let succeeded: (() => Promise<void>) | undefined;
    if (loginAttempts.has(params)) succeeded = await reserveAttempt(limiters, keys);
    else await checkAttempt(limiters, keys);
    let result: AuthenticationResult;
    try {
      result = await strategy.authenticate(authentication, { ...params, authenticated: true });
    } catch (error: unknown) {
      if (succeeded === undefined) await countFailure(limiters, keys);
      throw error;
    }
    await succeeded?.();
    // params.user must not carry the password hash into services that echo it (or into logs).
    return this.protectResult(result);
  }

  /**
   * Who an attempt counts against: `params.ip` and the strategy's account, for external calls only
   * (those with a `provider` or an `ip`); internal calls are never rate limited.
   */
  private attemptKeys(
    strategy: AuthenticationStrategy,
    authentication: AuthenticationRequest,
    params: Params,
  ): AttemptKeys {
    const ip = typeof params.ip === 'string' && params.ip !== '' ? params.ip : undefined;
    if (params.provider === undefined && ip === undefined) return {};
    const account = strategy.getAccountKey(authentication);
    return { ip, account: account === null ? undefined : `${strategy.name}:${account}` };
  }

  /** Fields no response may contain: what the registered strategies protect (e.g. `password`). */
  getProtectedFields(): string[] {
    return [...new Set([...this.strategies.values()].flatMap((s) => s.getProtectedFields()))];
  }

  /** `result` with protected fields removed from its entity. */
  private protectResult(result: AuthenticationResult): AuthenticationResult {
    const entity = this.configuration.entity;
    if (entity === null || !(entity in result)) return result;
    return { ...result, [entity]: omitFields(result[entity], this.getProtectedFields()) };
  }

  /**
   * Login (`POST /authentication`, 201): authenticates `data` with one of `params.authStrategies` or the
   * configured `authStrategies`, then issues an access token whose subject is the entity id (a `jwt`
   * login returns its own token). Resolves to `{ accessToken, authentication: { strategy, payload },
   * [entity] }`. Failures → `NotAuthenticated` (401).
   */
  async create(
    data: AuthenticationRequest,
    params: AuthenticationParams = {},
  ): Promise<AuthenticationResult> {
    const config = this.configuration;
    const allowed = params.authStrategies ?? config.authStrategies;
    if (allowed.length === 0) {
      throw new NotAuthenticated(
        'No authentication strategies allowed for creating a JWT (`authStrategies`)',
      );
    }
    if (!isRecord(data)) throw new NotAuthenticated('Invalid authentication information (no `strategy` set)');
    const attempt: Params = { ...params };
    loginAttempts.add(attempt);
    const result = await this.authenticate(data, attempt, ...allowed);
    if (typeof result.accessToken === 'string') return result;

    const jwtOptions: JwtOptions = { ...params.jwtOptions };
    const entity = config.entity === null ? undefined : result[config.entity];
    if (isRecord(entity)) {
      const id = this.getEntityId(entity);
      if (id === undefined || id === null) {
        throw new GeneralError(
          `The ${config.entity} has no id: set the 'entityId' authentication option to its id field`,
        );
      }
      jwtOptions.subject = idToString(id, config.entity);
    }
    const accessToken = await this.createAccessToken({ ...params.payload }, jwtOptions);
    const authentication = isRecord(result.authentication) ? result.authentication : {};
    return { ...result, accessToken, authentication: { ...authentication, payload: decodeJwt(accessToken) } };
  }

  /**
   * Logout (`DELETE /authentication[/<token>]`): re-authenticates `params.authentication` with the
   * configured strategies and resolves to that result. Without authentication, or with an `id` that
   * is not the token in use → `NotAuthenticated` (401).
   */
  async remove(id: NullableId, params: AuthenticationParams = {}): Promise<AuthenticationResult> {
    const { authentication } = params;
    if (!isRecord(authentication)) throw new NotAuthenticated('Not authenticated');
    const result = await this.authenticate(authentication, params, ...this.configuration.authStrategies);
    if (id !== null && id !== undefined && id !== authentication.accessToken) {
      throw new NotAuthenticated('Invalid access token');
    }
    return result;
  }

  /**
   * Checks the configuration and sets up the strategies; runs on `app.setup()`. Also makes the
   * service's real path the default when it was registered elsewhere than its `path` option said, and
   * replaces the `created`/`removed` events (which would carry tokens) with `login`/`logout`.
   * Throws `GeneralError` for a missing secret, a missing or unknown entity service, or a strategy in
   * `authStrategies`/`parseStrategies` that is not registered.
   */
  async setup(app: Application, path: string): Promise<void> {
    if (app.get('defaultAuthentication') === this.path && path !== this.path) {
      app.set('defaultAuthentication', path);
    }
    this.path = path;
    const config = this.configuration;
    const { secret } = config;
    if (
      !(typeof secret === 'string' && secret !== '') &&
      !(secret instanceof Uint8Array && secret.byteLength > 0)
    ) {
      throw new GeneralError(
        `A 'secret' must be provided in your authentication configuration (service '${path}'): ` +
          `pass { secret } to new AuthenticationService(app, options) or set app.set('${this.configKey}', { secret })`,
      );
    }
    checkJwtOptions(config.jwtOptions);
    if (config.entity !== null) {
      if (typeof config.service !== 'string' || config.service === '') {
        throw new GeneralError(
          `The 'service' option is not set in the authentication configuration (service '${path}'): ` +
            `set it to the path of the service that holds the '${config.entity}' entities`,
        );
      }
      try {
        app.service(config.service);
      } catch {
        throw new GeneralError(
          `The '${config.service}' entity service does not exist (authentication 'service' option)`,
        );
      }
    }
    for (const name of [...config.authStrategies, ...(config.parseStrategies ?? [])]) {
      if (!this.strategies.has(name)) {
        throw new GeneralError(
          `The authentication strategy '${name}' is listed in the configuration of '${path}' but not registered ` +
            `(service.register('${name}', strategy))`,
        );
      }
    }
    this.limiters = createAttemptLimiters(config.rateLimit);
    for (const strategy of this.strategies.values()) strategy.verifyConfiguration();
    for (const strategy of this.strategies.values()) await strategy.setup();
    this.addEventHook(this as unknown as { hooks?: (map: unknown) => unknown });
    this.isSetup = true;
  }

  /** Registered through plume: emit `login`/`logout` instead of `created`/`removed`. */
  private addEventHook(wrapped: { hooks?: (map: unknown) => unknown }): void {
    if (this.isSetup || typeof wrapped.hooks !== 'function') return;
    const rename = async (context: HookContext, next: () => Promise<void>): Promise<void> => {
      await next();
      context.event = context.method === 'create' ? 'login' : context.method === 'remove' ? 'logout' : null;
    };
    wrapped.hooks({ around: { create: [rename], remove: [rename] } });
  }
}
