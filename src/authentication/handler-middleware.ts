import type { Application, Middleware, Params } from '../core/index.js';
import { findAuthenticationService } from './authenticate-hook.js';
import { isRecord } from './declarations.js';

/**
 * The part of `plume/http`'s handler context these middleware use (kept structural so that
 * authentication does not depend on a transport).
 */
export interface AuthenticationHandlerContext {
  readonly app: Application;
  readonly request: Request;
  readonly url: URL;
  params: Params;
}

/** Which authentication service to parse for, and with which strategies. */
export interface ParseAuthenticationSettings {
  /** Path of the authentication service. Default: `app.get('defaultAuthentication')`. */
  service?: string;
  /** Strategy names. Default: the service's `parseStrategies`, else its `authStrategies`. */
  strategies?: string[];
}

function headersOf(context: AuthenticationHandlerContext): Record<string, string> {
  if (isRecord(context.params.headers)) return context.params.headers;
  const headers: Record<string, string> = {};
  context.request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/**
 * `createHandler` middleware that reads authentication data from the request headers with the
 * authentication service's `parse` (e.g. `Authorization: Bearer <token>` → `{ strategy: 'jwt',
 * accessToken }`) and sets `context.params.authentication`, so the `authenticate` hook works the same
 * as behind Express' `parseAuthentication` (spec: "Authentication" 4). Add it after the defaults:
 * `createHandler(app, [errorHandler(), queryParser(), bodyParser(), parseAuthenticationMiddleware()])`.
 * Does nothing without an authentication service, strategies or parsed data; `parse` errors go to
 * `errorHandler`.
 */
export function parseAuthenticationMiddleware(
  settings: ParseAuthenticationSettings = {},
): Middleware<AuthenticationHandlerContext> {
  return async (context, next) => {
    const service = findAuthenticationService(context.app, settings.service);
    if (service !== null) {
      const { parseStrategies, authStrategies } = service.configuration;
      const strategies = settings.strategies ?? parseStrategies ?? authStrategies;
      if (Array.isArray(strategies) && strategies.length > 0) {
        const result = await service.parse({ headers: headersOf(context) }, ...strategies);
        if (isRecord(result)) context.params.authentication = result;
      }
    }
    await next();
  };
}

/** Options of the `access_token` query middleware. */
export interface AccessTokenQueryOptions {
  /** Query parameter holding the token. Default `access_token`. */
  parameter?: string;
  /** Strategy name of the authentication data. Default `jwt`. */
  strategy?: string;
}

/** The token from a parsed query value: only a single non-empty string counts. */
export function tokenOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * `createHandler` middleware for browser links, which cannot send an `Authorization` header (spec:
 * "Authentication" 5): `?access_token=<token>` becomes `params.authentication = { strategy: 'jwt',
 * accessToken }` (unless a header already authenticated the request), and the parameter is removed
 * from `context.url` and `params.query`, so services and their logs never see it. Put it after
 * `queryParser()` (or before — it strips the URL either way) and before the services:
 * `createHandler(app, [errorHandler(), queryParser(), bodyParser(), parseAuthenticationMiddleware(),
 * accessTokenFromQuery()])`. `params.request.url` is the original request and still holds the token:
 * do not log it.
 */
export function accessTokenFromQuery(
  options: AccessTokenQueryOptions = {},
): Middleware<AuthenticationHandlerContext> {
  const parameter = options.parameter ?? 'access_token';
  const strategy = options.strategy ?? 'jwt';
  return async (context, next) => {
    const { url, params } = context;
    let token = tokenOf(url.searchParams.get(parameter));
    if (url.searchParams.has(parameter)) url.searchParams.delete(parameter);
    if (isRecord(params.query) && parameter in params.query) {
      token ??= tokenOf(params.query[parameter]);
      const { [parameter]: _removed, ...query } = params.query;
      params.query = query;
    }
    if (token !== undefined && !isRecord(params.authentication)) {
      params.authentication = { strategy, accessToken: token };
    }
    await next();
  };
}
