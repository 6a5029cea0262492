import { getHeaderRecord } from './json-response.js';

/** The methods a preflight allows (spec: "CORS (Web Standard handler)"). */
export const CORS_ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** The request headers a preflight allows (spec: "CORS (Web Standard handler)"). */
export const CORS_ALLOW_HEADERS =
  'accept, accept-language, content-language, content-type, range, authorization, x-service-method';

const ALLOW_ORIGIN = 'access-control-allow-origin';

/**
 * Adds `Access-Control-Allow-Origin: <origin or *>` to `response` unless it already has one, and
 * `Vary: Origin` when the origin is echoed (so caches keep one copy per origin). Spec: "CORS": every
 * response carries the header. Returns `response`, or a copy of it when its headers are immutable
 * (e.g. a `Response` obtained from `fetch`).
 */
export function applyCors(response: Response, origin: string | null): Response {
  const record = getHeaderRecord(response);
  if (record !== undefined) {
    // A lazy JSON response: set the headers on its plain object, no `Headers` object needed.
    if (record[ALLOW_ORIGIN] !== undefined) return response;
    record[ALLOW_ORIGIN] = origin ?? '*';
    if (origin !== null) record.vary = addOriginToVary(record.vary);
    return response;
  }
  if (response.headers.has(ALLOW_ORIGIN)) return response;
  try {
    setOriginHeaders(response.headers, origin);
    return response;
  } catch {
    // Immutable headers (fetch() results, Response.redirect()): copy into a Response we own.
    const copy = new Response(response.body, response);
    setOriginHeaders(copy.headers, origin);
    return copy;
  }
}

function setOriginHeaders(headers: Headers, origin: string | null): void {
  headers.set(ALLOW_ORIGIN, origin ?? '*');
  if (origin === null) return;
  headers.set('vary', addOriginToVary(headers.get('vary') ?? undefined));
}

/** The `Vary` value that also names `Origin` (unchanged when it already does, or is `*`). */
function addOriginToVary(vary: string | undefined): string {
  if (vary === undefined) return 'Origin';
  return /(^|,)\s*(origin|\*)\s*(,|$)/i.test(vary) ? vary : `${vary}, Origin`;
}

/**
 * The answer to an `OPTIONS` preflight: 204 with the allowed origin, methods, headers and
 * credentials (spec: "CORS (Web Standard handler)"). It is given for any path, before any middleware
 * runs, because browsers send preflights without credentials and cannot pass authentication.
 */
export function createPreflightResponse(origin: string | null): Response {
  const headers: Record<string, string> = {
    [ALLOW_ORIGIN]: origin ?? '*',
    'access-control-allow-methods': CORS_ALLOW_METHODS,
    'access-control-allow-headers': CORS_ALLOW_HEADERS,
    'access-control-allow-credentials': 'true',
  };
  if (origin !== null) headers.vary = 'Origin';
  return new Response(null, { status: 204, headers });
}
