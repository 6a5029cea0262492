/** The `Response` of a finished service call, for `createHandler` (spec: "Response behaviour (Web Standard handler)"). */
import { createEventStream, getResponse, isAsyncIterable, type HookContext } from '../core/index.js';
import type { HandlerContext } from './declarations.js';
import { logServerError } from './error-handler.js';
import { createJsonResponse } from './json-response.js';

const logToConsole = (error: unknown): void => logServerError(console, error);

/** Response headers: the transport's own first, then `http.headers` from hooks, which win. */
function buildHeaders(own: Record<string, string>, extra: Record<string, string | string[]>): Headers {
  const headers = new Headers(own);
  for (const name of Object.keys(extra)) {
    const value = extra[name];
    if (Array.isArray(value)) {
      headers.delete(name);
      for (const item of value) headers.append(name, item);
    } else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** True when `record` has an own enumerable property: `Object.keys(record).length > 0` without the array. */
function hasOwnKeys(record: object): boolean {
  for (const name in record) if (Object.hasOwn(record, name)) return true;
  return false;
}

/**
 * `value instanceof Response`, asked as `isPrototypeOf` of `Response.prototype`: the same answer
 * (both walk `value`'s prototype chain), but V8 compiles `instanceof` Node.js' global `Response` to
 * a generic call of about 200 instructions, and this to a few loads.
 */
function isResponse(value: unknown): value is Response {
  return Object.prototype.isPrototypeOf.call(Response.prototype, value as object);
}

/**
 * Turns a finished service call into a `Response` (spec: "Response behaviour (Web Standard handler)"):
 * status, headers and body from core `getResponse(hook)`; a `Response` body as it is, an async
 * iterable as `text/event-stream` (ended when `context.request.signal` aborts), anything else as
 * JSON. Throws what `JSON.stringify` throws (cycles, BigInt).
 */
export function createServiceResponse(hook: HookContext, context: HandlerContext): Response {
  const { status, headers, body } = getResponse(hook);
  if (isResponse(body)) return body;
  const hasHeaders = hasOwnKeys(headers);
  if (isAsyncIterable(body)) {
    const own = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' };
    const stream = createEventStream(body, context.request.signal, context.logError ?? logToConsole);
    return new Response(stream, { status, headers: hasHeaders ? buildHeaders(own, headers) : own });
  }
  return createJsonResponse(
    body,
    status,
    hasHeaders ? buildHeaders({}, headers) : undefined,
    context.request,
  );
}
