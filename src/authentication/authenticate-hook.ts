import { AUTHENTICATE_MARK, type Application, type HookContext, type Params } from '../core/index.js';
import { GeneralError, NotAuthenticated } from '../errors/index.js';
import type { AuthenticationRequest, AuthenticationResult, ParseRequest } from './declarations.js';
import { isRecord } from './declarations.js';

/** What hooks and middleware need from an authentication service (an `AuthenticationService` has it). */
export interface AuthenticationServiceLike {
  configuration: { authStrategies: string[]; parseStrategies?: string[] };
  parse(request: ParseRequest, ...strategies: string[]): Promise<AuthenticationRequest | null>;
  authenticate(
    authentication: AuthenticationRequest,
    params: Params,
    ...strategies: string[]
  ): Promise<AuthenticationResult>;
}

/** Settings of the `authenticate` hook. */
export interface AuthenticateHookSettings {
  /** Path of the authentication service. Default: `app.get('defaultAuthentication')`. */
  service?: string;
  /** Allowed strategy names, e.g. `['jwt', 'api-key']`. At least one. */
  strategies: string[];
  /**
   * Whether internal calls (no `params.provider`) without `params.authentication` pass. Default `true`;
   * `false` makes them fail with 401 like external calls.
   */
  allowInternal?: boolean;
}

/** A hook usable as a before hook (`hook(context)`) and as an around hook (`hook(context, next)`). */
export type BeforeOrAroundHook = (context: HookContext, next?: () => Promise<void>) => Promise<void>;

function isAuthenticationService(value: unknown): value is AuthenticationServiceLike {
  return (
    isRecord(value) &&
    typeof value.parse === 'function' &&
    typeof value.authenticate === 'function' &&
    isRecord(value.configuration)
  );
}

/**
 * The authentication service at `path` (default: the app's `defaultAuthentication`), or `null` when
 * there is none. Throws nothing.
 */
export function findAuthenticationService(app: Application, path?: string): AuthenticationServiceLike | null {
  const location = path ?? app.get('defaultAuthentication');
  if (typeof location !== 'string') return null;
  let service: unknown;
  try {
    service = app.service(location);
  } catch {
    return null;
  }
  return isAuthenticationService(service) ? service : null;
}

/** Result keys that never become params. */
const skippedKeys = new Set(['accessToken', '__proto__', 'constructor', 'prototype']);

/**
 * A hook that protects service methods (spec: "Authentication"): `authenticate('jwt')`,
 * `authenticate('jwt', 'api-key')` or `authenticate({ service, strategies, allowInternal })`. Use it as
 * a before or around hook. With `params.authentication` (set by the transports' parse middleware, or
 * by an internal caller) it asks the authentication service to authenticate with one of the strategies
 * and merges the result into params: `params.user` (the entity name), `params.authentication`,
 * `params.authenticated = true` (never `accessToken`). Without it, external calls (`params.provider`
 * set) fail with 401 `NotAuthenticated('Not authenticated')` and internal calls pass (unless
 * `allowInternal: false`). Calls with `params.authenticated === true` are not checked again.
 * Throws a `TypeError` at once without a strategy; `GeneralError` (500) when no authentication service
 * is found or when used as an after/error hook.
 */
export function authenticate(
  settings: string | AuthenticateHookSettings,
  ...strategies: string[]
): BeforeOrAroundHook {
  const options: AuthenticateHookSettings =
    typeof settings === 'string'
      ? { strategies: [settings, ...strategies] }
      : { ...settings, strategies: [...(settings?.strategies ?? []), ...strategies] };
  if (
    options.strategies.length === 0 ||
    !options.strategies.every((s) => typeof s === 'string' && s !== '')
  ) {
    throw new TypeError(
      "The authenticate hook needs at least one allowed strategy, e.g. authenticate('jwt')",
    );
  }
  const allowed = options.strategies;

  const check = async (context: HookContext): Promise<void> => {
    if (context.type === 'after' || context.type === 'error') {
      throw new GeneralError('The authenticate hook must be used as a before or around hook');
    }
    const { params, app } = context;
    if (params.authenticated === true) return;
    const service = findAuthenticationService(app, options.service);
    if (service === null) {
      throw new GeneralError(
        `The authenticate hook found no authentication service at '${String(options.service ?? app.get('defaultAuthentication'))}'`,
      );
    }
    if (context.service === service || Object.getPrototypeOf(context.service) === service) {
      throw new GeneralError('The authenticate hook does not need to be used on the authentication service');
    }
    const { authentication } = params;
    if (isRecord(authentication)) {
      const { provider: _provider, authentication: _authentication, ...rest } = params;
      const result = await service.authenticate(authentication, rest, ...allowed);
      const merged: Params = { ...params };
      for (const key of Object.keys(result)) {
        if (!skippedKeys.has(key)) merged[key] = result[key];
      }
      merged.authenticated = true;
      context.params = merged;
      return;
    }
    if (params.provider !== undefined || options.allowInternal === false) {
      throw new NotAuthenticated('Not authenticated');
    }
  };

  const hook: BeforeOrAroundHook = async (context, next) => {
    await check(context);
    if (next !== undefined) await next();
  };
  // Lets API descriptions (plume/openapi) see which methods need authentication, and how.
  Object.defineProperty(hook, AUTHENTICATE_MARK, { value: { strategies: [...allowed] } });
  return hook;
}
