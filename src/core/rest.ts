import { MethodNotAllowed, PayloadTooLarge } from '../errors/index.js';
import { defaultServiceMethods, type HookContext, type Params, type Service } from './declarations.js';
import { argumentValues } from './method-names.js';
import { getServiceMeta } from './service-meta.js';

/** The request header that names a custom method on `POST` (spec: "REST mapping"). */
export const METHOD_HEADER = 'x-service-method';

const standardMethods = new Set<string>(defaultServiceMethods);

/**
 * True for the usual HTTP methods in upper case (`GET`, `HEAD`, `POST`, `PUT`, `PATCH`, `DELETE`,
 * `OPTIONS`): names known valid and known upper case, so transports need neither check nor convert
 * them. Comparisons rather than a set, since it runs for every request: no hashing.
 */
export function isCommonMethod(method: string): boolean {
  switch (method) {
    case 'GET':
    case 'POST':
    case 'PUT':
    case 'PATCH':
    case 'DELETE':
    case 'HEAD':
    case 'OPTIONS':
      return true;
    default:
      return false;
  }
}

/**
 * Maps an HTTP request to a service method (spec: "REST mapping"), shared by both transports:
 * `GET`/`HEAD` → `find` or `get`, `POST` → `create` (or the custom method named by `X-Service-Method`),
 * `PUT` → `update`, `PATCH` → `patch`, `DELETE` → `remove`.
 *
 * Throws `MethodNotAllowed` (405) when the HTTP method has no service method, when `POST` carries an
 * id (a custom method's too), or when the method is not among the service's exposed `methods` (a standard method name in
 * `X-Service-Method` included); the error carries an `Allow` header (`getAllowedMethods`).
 */
export function getServiceMethod(
  service: Service,
  httpMethod: string,
  id: string | null,
  override?: string | null,
): string {
  // `toUpperCase` is a call into V8's runtime (about 300 instructions): only for unusual methods.
  const verb = isCommonMethod(httpMethod) ? httpMethod : httpMethod.toUpperCase();
  const exposed = getServiceMeta(service)?.options.methods ?? [];
  let method: string | undefined;
  if (verb === 'POST' && override) {
    if (standardMethods.has(override)) throw notSupported(override, exposed, id);
    // Custom methods take `(data, params)`: an id in the path would be dropped without a word.
    if (id !== null) {
      throw new MethodNotAllowed(
        `Method \`${override.slice(0, 100)}\` is called on the collection, not on an id`,
        { headers: { allow: getAllowedMethods(exposed, id) } },
      );
    }
    method = override;
  } else if (verb === 'GET' || verb === 'HEAD') method = id === null ? 'find' : 'get';
  else if (verb === 'POST') method = id === null ? 'create' : undefined;
  else if (verb === 'PUT') method = 'update';
  else if (verb === 'PATCH') method = 'patch';
  else if (verb === 'DELETE') method = 'remove';
  if (method === undefined) {
    throw new MethodNotAllowed(
      `Method ${verb.slice(0, 20)} is not allowed${id === null ? '' : ' on an id'}`,
      {
        headers: { allow: getAllowedMethods(exposed, id) },
      },
    );
  }
  if (!exposed.includes(method)) throw notSupported(method, exposed, id);
  return method;
}

function notSupported(method: string, exposed: readonly string[], id: string | null): MethodNotAllowed {
  return new MethodNotAllowed(`Method \`${method.slice(0, 100)}\` is not supported by this endpoint.`, {
    headers: { allow: getAllowedMethods(exposed, id) },
  });
}

/**
 * The HTTP methods a path answers, for the `Allow` header of a 405 (RFC 9110 §15.5.6), from the
 * service's exposed `methods` and whether the path has an `id`: e.g. `GET, HEAD, POST` for a
 * collection with `find` and `create` (custom methods are `POST` on the collection). `OPTIONS` is
 * always listed: transports answer it as a CORS preflight.
 */
export function getAllowedMethods(exposed: readonly string[], id: string | null): string {
  const has = (name: string): boolean => exposed.includes(name);
  const verbs: string[] = [];
  if (has(id === null ? 'find' : 'get')) verbs.push('GET', 'HEAD');
  if (id === null && exposed.some((name) => name === 'create' || !standardMethods.has(name)))
    verbs.push('POST');
  if (has('update')) verbs.push('PUT');
  if (has('patch')) verbs.push('PATCH');
  if (has('remove')) verbs.push('DELETE');
  verbs.push('OPTIONS');
  return verbs.join(', ');
}

/**
 * The 413 both transports answer for a request body over `limit` bytes: `PayloadTooLarge` with the
 * message `Request body is larger than the limit of <limit> bytes` and `data: { limit }`.
 */
export function createBodyTooLarge(limit: number, cause?: unknown): PayloadTooLarge {
  return new PayloadTooLarge(`Request body is larger than the limit of ${limit} bytes`, {
    data: { limit },
    cause,
  });
}

/** The positional arguments of `method` for an HTTP call: e.g. `[id, data, params]` for `patch`. */
export function restArguments(
  method: string,
  values: { id: string | null; data: unknown; params: Params },
): unknown[] {
  return argumentValues(method, values);
}

const noHeaders: Readonly<Record<string, string | string[]>> = Object.freeze({});

/** Status, headers and body a transport sends for a finished call. */
export interface RestResponse {
  status: number;
  /** `http.headers` (the hook's object, not a copy: read it, do not change it), plus `Location`. */
  headers: Readonly<Record<string, string | string[]>>;
  /** `dispatch` when a hook set it, otherwise `result`. */
  body: unknown;
}

/**
 * Reads the response from a finished hook context, shared by both transports: body is `dispatch`
 * or `result`; status is `http.status`, else 201 for `create`, else 303 with a `location`, else 204
 * for an empty (`null`/`undefined`) body, else 200. `http.headers` and `Location` are added.
 */
export function getResponse(context: HookContext): RestResponse {
  const body = context.dispatch !== undefined ? context.dispatch : context.result;
  const { status, headers = noHeaders, location } = context.http;
  // Copied only when `Location` is added: the hook's own object must not change.
  const allHeaders = location === undefined ? headers : { ...headers, location: encodeURI(location) };
  let code: number;
  if (status !== undefined) code = status;
  else if (context.method === 'create') code = 201;
  else if (location !== undefined) code = 303;
  else if (body === undefined || body === null) code = 204;
  else code = 200;
  return { status: code, headers: allHeaders, body };
}
