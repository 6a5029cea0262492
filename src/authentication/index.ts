/**
 * `plume/authentication`: the authentication service, the `jwt` and `local` strategies, the
 * `authenticate`, `hashPassword`, `protect` and `disallow` hooks, the `passwordHash` resolver, and middleware that reads
 * authentication data from requests on both transports (spec: "Authentication").
 * @packageDocumentation
 */
export { AuthenticationService } from './service.js';
export { AuthenticationStrategy, readHeader, type EntityService } from './strategy.js';
export { JWTStrategy } from './jwt-strategy.js';
export { LocalStrategy, DEFAULT_HASH_COST, type LocalSettings } from './local-strategy.js';
export { defaultJwtOptions } from './access-token.js';
export {
  authenticate,
  findAuthenticationService,
  type AuthenticateHookSettings,
  type AuthenticationServiceLike,
  type BeforeOrAroundHook,
} from './authenticate-hook.js';
export { hashPassword, createPasswordHash, type HashPasswordOptions } from './hash-password.js';
export { passwordHash, type PasswordHashOptions } from './password-hash.js';
export { protect, omitProtected, type AfterOrAroundHook } from './protect.js';
export { disallow } from './disallow.js';
export { DEFAULT_ACCOUNT_LIMIT, DEFAULT_IP_LIMIT } from './rate-limit.js';
export {
  accessTokenFromQuery,
  parseAuthenticationMiddleware,
  type AccessTokenQueryOptions,
  type AuthenticationHandlerContext,
  type ParseAuthenticationSettings,
} from './handler-middleware.js';
export { expressAccessTokenFromQuery, type AccessTokenRequest } from './express-access-token.js';
export type {
  AuthenticationConfiguration,
  AuthenticationParams,
  AuthenticationRequest,
  AuthenticationResult,
  AuthenticationServiceOptions,
  JwtAlgorithm,
  JwtOptions,
  JwtStrategySettings,
  LocalStrategySettings,
  ParseRequest,
  RateLimitSettings,
  RateLimitWindow,
} from './declarations.js';
