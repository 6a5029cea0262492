import type { HookContext } from '../core/index.js';
import { BadRequest, GeneralError } from '../errors/index.js';
import { findAuthenticationService } from './authenticate-hook.js';
import { LocalStrategy } from './local-strategy.js';

/** Options of `passwordHash`. */
export interface PasswordHashOptions {
  /** Name of the local strategy whose `hashSize` is used, e.g. `'local'`. */
  strategy: string;
  /** Path of the authentication service. Default: `app.get('defaultAuthentication')`. */
  service?: string;
}

/** The local strategy `options` name, or a `GeneralError` saying what is missing (a set-up mistake). */
function findLocalStrategy(context: Pick<HookContext, 'app'>, options: PasswordHashOptions): LocalStrategy {
  const service = findAuthenticationService(context.app, options.service) as unknown as {
    strategies?: unknown;
  } | null;
  if (service === null) {
    throw new GeneralError('passwordHash: no authentication service is registered');
  }
  const strategy: unknown =
    service.strategies instanceof Map
      ? (service.strategies as Map<string, unknown>).get(options.strategy)
      : undefined;
  if (!(strategy instanceof LocalStrategy)) {
    throw new GeneralError(`passwordHash: '${options.strategy}' is not a registered local strategy`);
  }
  return strategy;
}

/**
 * A property resolver for `resolve()` of `plume/schema` (FeathersJS' `passwordHash` of
 * authentication-local): `password: passwordHash({ strategy: 'local' })` in a data resolver replaces
 * the password with its bcrypt hash, at the cost (`local.hashSize`) of that strategy, computed in a
 * worker thread. An absent password stays absent (a `patch` without one keeps the stored hash).
 * A value that is not a non-empty string → `BadRequest` (400; `resolveData` reports it under the
 * property's name). No authentication service, or no local strategy of that name → `GeneralError`
 * (500), a set-up mistake.
 */
export function passwordHash(
  options: PasswordHashOptions,
): (value: unknown, data: unknown, context: Pick<HookContext, 'app'>) => Promise<string | undefined> {
  return async (value, _data, context) => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') {
      throw new BadRequest('A password must be a non-empty string');
    }
    return findLocalStrategy(context, options).hashPassword(value);
  };
}
