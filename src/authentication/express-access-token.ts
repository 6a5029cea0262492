import type { Params } from '../core/index.js';
import { isRecord } from './declarations.js';
import { tokenOf, type AccessTokenQueryOptions } from './handler-middleware.js';

/** The parts of an Express request the middleware touches. */
export interface AccessTokenRequest {
  query?: unknown;
  framework?: Params;
}

/**
 * Express middleware for browser links (spec: "Authentication" 5): `?access_token=<token>` becomes
 * `req.framework.authentication = { strategy: 'jwt', accessToken }` (unless a header already set
 * authentication), and the parameter is removed from `req.query`, so REST services and what they log
 * never see it. It only touches `req.framework` and `req.query`. Register it before `authenticate(...)`
 * and before `app.configure(rest())`: `app.use(expressAccessTokenFromQuery())`. Access loggers that
 * print the raw URL (`req.originalUrl`) still see it: register such loggers with a URL filter.
 */
export function expressAccessTokenFromQuery(
  options: AccessTokenQueryOptions = {},
): (req: AccessTokenRequest, res: unknown, next: (error?: unknown) => void) => void {
  const parameter = options.parameter ?? 'access_token';
  const strategy = options.strategy ?? 'jwt';
  return (req, _res, next) => {
    const query: unknown = req.query;
    if (isRecord(query) && parameter in query) {
      const token = tokenOf(query[parameter]);
      const { [parameter]: _removed, ...rest } = query;
      // Express 5 computes req.query from the URL on every read; an own property keeps the cleaned copy.
      Object.defineProperty(req, 'query', {
        value: rest,
        writable: true,
        configurable: true,
        enumerable: true,
      });
      if (token !== undefined) {
        if (!isRecord(req.framework)) req.framework = {};
        if (!isRecord(req.framework.authentication)) {
          req.framework.authentication = { strategy, accessToken: token };
        }
      }
    }
    next();
  };
}
