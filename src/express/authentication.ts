import type { Request, RequestHandler } from 'express';
import type { Params } from '../core/index.js';
import { GeneralError, NotAuthenticated } from '../errors/index.js';

/**
 * What the Express middleware needs from an authentication service (the contract with
 * `plume/authentication`, duck-typed so the transports do not depend on it).
 */
export interface AuthenticationServiceLike {
  configuration: { authStrategies: string[]; parseStrategies?: string[] };
  /** Reads authentication data from request headers with the first strategy that finds some, else `null`. */
  parse(
    request: { headers: Record<string, string> },
    ...strategies: string[]
  ): Promise<Record<string, unknown> | null>;
  /** Verifies `authentication` with one of `strategies`; throws `NotAuthenticated` (401) when it fails. */
  authenticate(
    authentication: Record<string, unknown>,
    params: Params,
    ...strategies: string[]
  ): Promise<Record<string, unknown>>;
}

/** Which authentication service to use and with which strategies. */
export interface AuthenticationSettings {
  /** Path of the authentication service. Default: the app setting `defaultAuthentication`. */
  service?: string;
  /** Strategy names, e.g. `['jwt', 'api-key']`. */
  strategies?: string[];
}

/** Keys never copied from an authentication result onto `req.framework`. */
const skippedKeys = new Set(['accessToken', '__proto__', 'constructor', 'prototype']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAuthenticationService(value: unknown): value is AuthenticationServiceLike {
  if (!isRecord(value)) return false;
  return (
    typeof value.parse === 'function' &&
    typeof value.authenticate === 'function' &&
    isRecord(value.configuration)
  );
}

/** The authentication service at `path` (default: the `defaultAuthentication` setting) of the app handling `req`, or null. */
function findAuthenticationService(req: Request, path: string | undefined): AuthenticationServiceLike | null {
  const app = req.app as unknown as { get(name: string): unknown; service?: (path: string) => unknown };
  const location = path ?? app.get('defaultAuthentication');
  if (typeof location !== 'string' || typeof app.service !== 'function') return null;
  let service: unknown;
  try {
    service = app.service(location);
  } catch {
    return null;
  }
  return isAuthenticationService(service) ? service : null;
}

/** Request headers as strings (repeated headers joined with `, `). */
function headersOf(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Makes sure `req.framework` exists without replacing what other middleware put there. */
function frameworkOf(req: Request): Params {
  if (!isRecord(req.framework)) req.framework = {};
  return req.framework;
}

/**
 * Middleware that reads authentication data from the request headers and stores it as
 * `req.framework.authentication` (so REST calls get `params.authentication`). Spec: "Authentication" 4.
 * `rest()` registers it for the default authentication service; register it again with
 * `{ service, strategies }` for another one. It does nothing (calls `next()`) when no authentication
 * service is registered, when there are no strategies, or when no strategy finds data. Strategies:
 * `settings.strategies`, else the service's `parseStrategies`, else its `authStrategies`.
 * Errors thrown by the service's `parse` go to the error handler.
 */
export function parseAuthentication(settings: AuthenticationSettings = {}): RequestHandler {
  // Synchronous until there is something to parse: most apps and requests never wait here.
  return (req, _res, next) => {
    let parsing: Promise<Record<string, unknown> | null>;
    try {
      const service = findAuthenticationService(req, settings.service);
      if (service === null) {
        next();
        return;
      }
      const { parseStrategies, authStrategies } = service.configuration;
      const strategies = settings.strategies ?? parseStrategies ?? authStrategies;
      if (!Array.isArray(strategies) || strategies.length === 0) {
        next();
        return;
      }
      parsing = Promise.resolve(service.parse({ headers: headersOf(req) }, ...strategies));
    } catch (error: unknown) {
      next(error);
      return;
    }
    parsing.then(
      (result) => {
        if (isRecord(result)) frameworkOf(req).authentication = result;
        next();
      },
      (error: unknown) => next(error),
    );
  };
}

/**
 * Middleware that lets a request through only when it is authenticated (spec: "Authentication" 1–2):
 * `authenticate('jwt')`, `authenticate('jwt', 'api-key')` or `authenticate({ service, strategies })`.
 * It calls the authentication service's `authenticate(req.framework.authentication, params,
 * ...strategies)` (or `req.authentication` when a middleware set that instead), then copies the result,
 * except `accessToken`, onto `req.framework` with `authenticated: true` (e.g. `req.framework.user`).
 * Missing authentication data → `NotAuthenticated` (401); the service's own errors (401 for invalid
 * data) are passed on; no authentication service found → `GeneralError` (500, a configuration error).
 * Throws a `TypeError` right away when no strategy is given.
 */
export function authenticate(
  settings: string | AuthenticationSettings,
  ...strategies: string[]
): RequestHandler {
  const path = typeof settings === 'string' ? undefined : settings.service;
  const allowed =
    typeof settings === 'string'
      ? [settings, ...strategies]
      : [...(settings.strategies ?? []), ...strategies];
  if (allowed.length === 0 || !allowed.every((name) => typeof name === 'string' && name !== '')) {
    throw new TypeError("authenticate() needs at least one strategy name, e.g. authenticate('jwt')");
  }

  return async (req, _res, next) => {
    try {
      const service = findAuthenticationService(req, path);
      if (service === null) {
        const location: unknown = path ?? req.app.get('defaultAuthentication');
        throw new GeneralError(
          typeof location === 'string'
            ? `authenticate() found no authentication service at '${location}'`
            : "authenticate() needs an authentication service: set app.set('defaultAuthentication', path) or pass { service }",
        );
      }
      const framework = frameworkOf(req);
      const authentication = isRecord(framework.authentication)
        ? framework.authentication
        : req.authentication;
      if (!isRecord(authentication)) throw new NotAuthenticated('Not authenticated');
      const { provider: _provider, authentication: _authentication, ...params } = framework;
      // The client IP lets the authentication service rate limit failed attempts.
      const result = await service.authenticate(authentication, { ip: req.ip, ...params }, ...allowed);
      framework.authentication = authentication;
      if (isRecord(result)) {
        for (const key of Object.keys(result)) {
          if (!skippedKeys.has(key)) framework[key] = result[key];
        }
      }
      framework.authenticated = true;
      next();
    } catch (error: unknown) {
      next(error);
    }
  };
}
