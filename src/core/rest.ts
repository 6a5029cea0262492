import { MethodNotAllowed } from '../errors/index.js';
import { defaultServiceMethods, type HookContext, type Params, type Service } from './declarations.js';
import { argumentsOf, getServiceMeta } from './service.js';

/** The request header that names a custom method on `POST` (spec: "REST mapping"). */
export const METHOD_HEADER = 'x-service-method';

const standardMethods = new Set<string>(defaultServiceMethods);

/**
 * Maps an HTTP request to a service method (spec: "REST mapping"), shared by both transports:
 * `GET`/`HEAD` → `find` or `get`, `POST` → `create` (or the custom method named by `X-Service-Method`),
 * `PUT` → `update`, `PATCH` → `patch`, `DELETE` → `remove`.
 *
 * Throws `MethodNotAllowed` (405) when the HTTP method has no service method, when `POST` carries an
 * id, or when the method is not among the service's exposed `methods` (a standard method name in
 * `X-Service-Method` included).
 */
export function getServiceMethod(
  service: Service,
  httpMethod: string,
  id: string | null,
  override?: string | null,
): string {
  const verb = httpMethod.toUpperCase();
  let method: string | undefined;
  if (verb === 'POST' && override) {
    if (standardMethods.has(override)) throw notSupported(override);
    method = override;
  } else if (verb === 'GET' || verb === 'HEAD') method = id === null ? 'find' : 'get';
  else if (verb === 'POST') method = id === null ? 'create' : undefined;
  else if (verb === 'PUT') method = 'update';
  else if (verb === 'PATCH') method = 'patch';
  else if (verb === 'DELETE') method = 'remove';
  if (method === undefined) {
    throw new MethodNotAllowed(`Method ${verb.slice(0, 20)} is not allowed${id === null ? '' : ' on an id'}`);
  }
  const exposed = getServiceMeta(service)?.options.methods ?? [];
  if (!exposed.includes(method)) throw notSupported(method);
  return method;
}

function notSupported(method: string): MethodNotAllowed {
  return new MethodNotAllowed(`Method \`${method.slice(0, 100)}\` is not supported by this endpoint.`);
}

/** The positional arguments of `method` for an HTTP call: e.g. `[id, data, params]` for `patch`. */
export function restArguments(
  method: string,
  values: { id: string | null; data: unknown; params: Params },
): unknown[] {
  return argumentsOf(method).map((name) => values[name]);
}

/** Status, headers and body a transport sends for a finished call. */
export interface RestResponse {
  status: number;
  headers: Record<string, string | string[]>;
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
  const { status, headers = {}, location } = context.http;
  const allHeaders: Record<string, string | string[]> = { ...headers };
  if (location !== undefined) allHeaders.location = encodeURI(location);
  let code: number;
  if (status !== undefined) code = status;
  else if (context.method === 'create') code = 201;
  else if (location !== undefined) code = 303;
  else if (body === undefined || body === null) code = 204;
  else code = 200;
  return { status: code, headers: allHeaders, body };
}
