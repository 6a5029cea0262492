import { getHeaderRecord } from './json-response.js';

/** The methods a preflight allows (spec: "CORS (Web Standard handler)"). */
export const CORS_ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** The request headers a preflight allows (spec: "CORS (Web Standard handler)"). */
export const CORS_ALLOW_HEADERS =
  'accept, accept-language, content-language, content-type, range, authorization, x-service-method';

const ALLOW_ORIGIN = 'access-control-allow-origin';

/**
 * CORS settings of `createHandler(app, middleware, { cors })`. Without them the handler follows
 * SEED.md's "CORS" section: any origin, credentials allowed on preflights. With them:
 */
export interface CorsOptions {
  /**
   * Origins allowed to read responses: `true` (any, the default), one origin (`'https://app.example.com'`),
   * a list of them, or a function `(origin) => boolean`. A request from another origin gets no
   * `Access-Control-Allow-*` headers (a preflight is still answered 204), so the browser blocks it.
   */
  origin?: true | string | readonly string[] | ((origin: string) => boolean);
  /**
   * Send `Access-Control-Allow-Credentials: true` (on preflights and responses), letting browsers send
   * cookies and read the answers. Default `false`. Never combine with `origin: true` when the app
   * authenticates by cookies or sessions: any site could then act as your users.
   */
  credentials?: boolean;
  /** Request headers a preflight allows. Default: `CORS_ALLOW_HEADERS`. */
  allowedHeaders?: readonly string[];
  /** Response headers scripts may read (`Access-Control-Expose-Headers`). Default: none. */
  exposedHeaders?: readonly string[];
  /** Methods a preflight allows. Default: `CORS_ALLOW_METHODS`. */
  methods?: readonly string[];
  /** How long browsers may cache a preflight answer, in seconds (`Access-Control-Max-Age`). Default: unset. */
  maxAge?: number;
}

/** CORS settings resolved once per handler. */
export interface CorsPolicy {
  /** The `Access-Control-Allow-Origin` value for a request from `origin`, or `null` for none. */
  allowOrigin(origin: string | null): string | null;
  /** Headers of a preflight for an allowed origin, besides `Access-Control-Allow-Origin`. */
  preflightHeaders: Readonly<Record<string, string>>;
  /** Headers of other responses to an allowed origin, besides `Access-Control-Allow-Origin`. */
  responseHeaders: Readonly<Record<string, string>>;
}

/** SEED.md's rules: any origin (echoed, or `*`), credentials allowed on preflights. */
const defaultPolicy: CorsPolicy = {
  allowOrigin: (origin) => origin ?? '*',
  preflightHeaders: {
    'access-control-allow-methods': CORS_ALLOW_METHODS,
    'access-control-allow-headers': CORS_ALLOW_HEADERS,
    'access-control-allow-credentials': 'true',
  },
  responseHeaders: {},
};

function originTest(origin: CorsOptions['origin']): (origin: string) => boolean {
  if (origin === undefined || origin === true) return () => true;
  if (typeof origin === 'function') return origin;
  const allowed = new Set(typeof origin === 'string' ? [origin] : origin);
  return (candidate) => allowed.has(candidate);
}

/**
 * The policy for `options` (`undefined`: SEED.md's default rules). Throws a `TypeError` for options
 * of the wrong shape, so a typo fails at start-up rather than opening or closing the API silently.
 */
export function createCorsPolicy(options?: CorsOptions): CorsPolicy {
  if (options === undefined) return defaultPolicy;
  const { origin, credentials = false, allowedHeaders, exposedHeaders, methods, maxAge } = options;
  const validOrigin =
    origin === undefined ||
    origin === true ||
    typeof origin === 'string' ||
    typeof origin === 'function' ||
    (Array.isArray(origin) && origin.every((item) => typeof item === 'string'));
  if (!validOrigin) {
    throw new TypeError('cors.origin must be true, an origin, an array of origins or a function');
  }
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 0)) {
    throw new TypeError('cors.maxAge must be a whole number of seconds');
  }
  const test = originTest(origin);
  const anyOrigin = origin === undefined || origin === true;
  const preflightHeaders: Record<string, string> = {
    'access-control-allow-methods': methods?.join(', ') ?? CORS_ALLOW_METHODS,
    'access-control-allow-headers': allowedHeaders?.join(', ') ?? CORS_ALLOW_HEADERS,
  };
  const responseHeaders: Record<string, string> = {};
  if (credentials) {
    preflightHeaders['access-control-allow-credentials'] = 'true';
    responseHeaders['access-control-allow-credentials'] = 'true';
  }
  if (maxAge !== undefined) preflightHeaders['access-control-max-age'] = String(maxAge);
  if (exposedHeaders !== undefined && exposedHeaders.length > 0) {
    responseHeaders['access-control-expose-headers'] = exposedHeaders.join(', ');
  }
  return {
    allowOrigin(requestOrigin) {
      // Without credentials, any origin may read: `*` is the plain answer (and caches need no Vary).
      if (anyOrigin && !credentials) return '*';
      if (requestOrigin === null) return anyOrigin ? '*' : null;
      return test(requestOrigin) ? requestOrigin : null;
    },
    preflightHeaders,
    responseHeaders,
  };
}

/** The CORS headers for a request from `origin`: `Access-Control-Allow-Origin` and `extra` when allowed, `Vary`. */
function corsHeaders(
  origin: string | null,
  policy: CorsPolicy,
  extra: Readonly<Record<string, string>>,
): { allowed: string | null; headers: Record<string, string> } {
  const allowed = policy.allowOrigin(origin);
  const headers: Record<string, string> = allowed === null ? {} : { [ALLOW_ORIGIN]: allowed, ...extra };
  return { allowed, headers };
}

/**
 * Adds the CORS headers to `response` unless it already has `Access-Control-Allow-Origin`: by default
 * `Access-Control-Allow-Origin: <origin or *>` (spec: "CORS": every response carries it); with a
 * `policy` from `createCorsPolicy`, the allowed origin (none for an origin it refuses) and its
 * credentials and exposed headers. `Vary: Origin` is added whenever the answer depends on the
 * request's `Origin`. Returns `response`, or a copy of it when its headers are immutable (e.g. a
 * `Response` obtained from `fetch`).
 */
export function applyCors(response: Response, origin: string | null, policy = defaultPolicy): Response {
  const record = getHeaderRecord(response);
  if (record !== undefined) {
    // A lazy JSON response: set the headers on its plain object, no `Headers` object needed.
    if (record[ALLOW_ORIGIN] !== undefined) return response;
    const allowed = policy.allowOrigin(origin);
    if (allowed !== null) {
      record[ALLOW_ORIGIN] = allowed;
      const extra = policy.responseHeaders;
      for (const name in extra) record[name] = extra[name] as string;
    }
    if (origin !== null && allowed !== '*') record.vary = addOriginToVary(record.vary);
    return response;
  }
  if (response.headers.has(ALLOW_ORIGIN)) return response;
  const { allowed, headers } = corsHeaders(origin, policy, policy.responseHeaders);
  const varies = origin !== null && allowed !== '*';
  try {
    setHeaders(response.headers, headers, varies);
    return response;
  } catch {
    // Immutable headers (fetch() results, Response.redirect()): copy into a Response we own.
    const copy = new Response(response.body, response);
    setHeaders(copy.headers, headers, varies);
    return copy;
  }
}

function setHeaders(target: Headers, headers: Record<string, string>, varies: boolean): void {
  for (const name of Object.keys(headers)) target.set(name, headers[name] as string);
  if (varies) target.set('vary', addOriginToVary(target.get('vary') ?? undefined));
}

/** The `Vary` value that also names `Origin` (unchanged when it already does, or is `*`). */
function addOriginToVary(vary: string | undefined): string {
  if (vary === undefined) return 'Origin';
  return /(^|,)\s*(origin|\*)\s*(,|$)/i.test(vary) ? vary : `${vary}, Origin`;
}

/**
 * The answer to an `OPTIONS` preflight: 204, by default with the allowed origin, methods, headers and
 * credentials of SEED.md's "CORS" section; with a `policy`, its settings, and no CORS headers at all
 * for an origin it refuses (the browser then blocks the request). It is given for any path, before
 * any middleware runs, because browsers send preflights without credentials.
 */
export function createPreflightResponse(origin: string | null, policy = defaultPolicy): Response {
  const { allowed, headers } = corsHeaders(origin, policy, policy.preflightHeaders);
  if (origin !== null && allowed !== '*') headers.vary = 'Origin';
  return new Response(null, { status: 204, headers });
}

/** The policy of each handler `createHandler` made, for answers `toRuntimeHandler` gives itself (e.g. 413). */
const handlerPolicies = new WeakMap<object, CorsPolicy>();

/** Remembers the CORS policy of a handler made by `createHandler`. */
export function setHandlerCorsPolicy(handler: object, policy: CorsPolicy): void {
  handlerPolicies.set(handler, policy);
}

/** The CORS policy of a handler made by `createHandler`; the default rules for any other function. */
export function getHandlerCorsPolicy(handler: object): CorsPolicy {
  return handlerPolicies.get(handler) ?? defaultPolicy;
}
