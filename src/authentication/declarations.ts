import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Params } from '../core/index.js';

/** HMAC algorithms plume signs access tokens with (the secret is a shared string or bytes). */
export type JwtAlgorithm = 'HS256' | 'HS384' | 'HS512';

/**
 * Options for creating and verifying access tokens (`configuration.jwtOptions`).
 * Defaults: `algorithm: 'HS256'`, `expiresIn: '1d'`, `typ: 'access'`; no audience or issuer unless set.
 */
export interface JwtOptions {
  /** Signing algorithm; tokens signed with any other algorithm (or `none`) are rejected. Default `HS256`. */
  algorithm?: JwtAlgorithm;
  /**
   * Lifetime of new tokens: a number of seconds, or a duration string such as `'15m'`, `'2h'`, `'1d'`.
   * Default `'1d'`.
   */
  expiresIn?: number | string;
  /** `aud` claim written into new tokens and required when verifying. */
  audience?: string;
  /** `iss` claim written into new tokens and required when verifying. */
  issuer?: string;
  /** `typ` header written into new tokens and required when verifying. Default `'access'`. */
  typ?: string;
  /** `sub` claim of a new token (set by the service to the entity id). */
  subject?: string;
  /** `jti` claim of a new token. Default: a random UUID. */
  jwtid?: string;
}

/** Settings of the `jwt` strategy (`configuration.jwt`). */
export interface JwtStrategySettings {
  /** Header that carries the token. Default `authorization`. */
  header?: string;
  /** Accepted schemes before the token (compared case-insensitively). Default `['Bearer', 'JWT']`. */
  schemes?: string[];
}

/** Settings of the `local` strategy (`configuration.local`). */
export interface LocalStrategySettings {
  /** Field of the login request holding the username. Default `email`. */
  usernameField?: string;
  /** Field of the login request holding the password. Default `password`. */
  passwordField?: string;
  /** Field of the stored entity holding the username. Default: `usernameField`. */
  entityUsernameField?: string;
  /** Field of the stored entity holding the bcrypt hash. Default: `passwordField`. */
  entityPasswordField?: string;
  /** Message of every failed login, whatever the reason. Default `Invalid login`. */
  errorMessage?: string;
  /** bcrypt cost (log2 rounds) for new hashes. Default 10. */
  hashSize?: number;
}

/** A limit of failed authentication attempts: at most `points` per `duration` seconds. */
export interface RateLimitWindow {
  /** Attempts allowed in one window (an integer ≥ 1). */
  points: number;
  /** Length of the window, in seconds. */
  duration: number;
}

/**
 * Rate limiting of authentication attempts (`configuration.rateLimit`). Each limit is `{ points,
 * duration }` (counted in memory, per process), a `rate-limiter-flexible` limiter of your own (e.g.
 * `RateLimiterRedis`, shared by every process), or `false` to turn it off.
 */
export interface RateLimitSettings {
  /** Per client IP (`params.ip`). Default `{ points: 50, duration: 600 }`. */
  ip?: RateLimitWindow | RateLimiterAbstract | false;
  /** Per account (e.g. the `local` strategy's username). Default `{ points: 10, duration: 600 }`. */
  account?: RateLimitWindow | RateLimiterAbstract | false;
}

/**
 * The configuration of an `AuthenticationService` (spec: "Authentication"): the options passed to
 * the constructor merged over `app.get('authentication')`.
 */
export interface AuthenticationConfiguration {
  /** Secret that signs access tokens (HMAC). Required: `setup` fails without it. */
  secret?: string | Uint8Array;
  /** Name the authenticated entity gets in params and results (`params.user`), or `null` for none. Default `user`. */
  entity: string | null;
  /** Path of the service that holds the entities (e.g. `users`). Required when `entity` is not null. */
  service?: string;
  /** Id field of the entity. Default: the entity service's `id` property, else `_id` or `id` of the entity. */
  entityId?: string;
  /** Strategies allowed to create access tokens (`POST /authentication`). Default `['jwt', 'local']`. */
  authStrategies: string[];
  /** Strategies that read authentication data from request headers. Default: `authStrategies`. */
  parseStrategies?: string[];
  /** Token options; see `JwtOptions`. */
  jwtOptions: JwtOptions;
  /** `jwt` strategy settings. */
  jwt?: JwtStrategySettings;
  /** `local` strategy settings. */
  local?: LocalStrategySettings;
  /**
   * Limits of failed authentication attempts of external calls, per client IP and per account, answered
   * with 429 and `Retry-After`; `false` turns them off. Default: on, see `RateLimitSettings`.
   */
  rateLimit?: RateLimitSettings | false;
  /** Settings of custom strategies, under their own names. */
  [strategy: string]: unknown;
}

/** Options of `new AuthenticationService(app, options)`: any configuration key plus registration settings. */
export interface AuthenticationServiceOptions extends Partial<AuthenticationConfiguration> {
  /** Path the service is registered at, used for `defaultAuthentication` until `setup` knows it. Default `authentication`. */
  path?: string;
  /** Make this the default authentication service even when another one is already. Default: only when none is. */
  isDefault?: boolean;
  /** App setting holding more configuration. Default `authentication`. */
  configKey?: string;
}

/** Authentication data of a request: `{ strategy: 'jwt', accessToken }`, `{ strategy: 'local', email, password }`, … */
export type AuthenticationRequest = Record<string, unknown> & { strategy?: unknown };

/**
 * What a strategy's `authenticate` returns: `authentication` (strategy and details) and, usually,
 * the entity under its name (`user`); the `jwt` strategy adds `accessToken`.
 */
export type AuthenticationResult = Record<string, unknown>;

/** The request data strategies parse: headers as a plain object (names in any case). */
export interface ParseRequest {
  headers: Record<string, string | undefined>;
}

/** Params of authentication calls; `authStrategies`, `jwtOptions` and `payload` can only be set internally. */
export interface AuthenticationParams extends Params {
  authentication?: AuthenticationRequest;
  /** Overrides `configuration.authStrategies` for one `create` call. */
  authStrategies?: string[];
  /** Extra claims of the token `create` issues. */
  payload?: Record<string, unknown>;
  /** Overrides `configuration.jwtOptions` for one call. */
  jwtOptions?: JwtOptions;
}

/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
