/**
 * JSON responses plume creates, remembered with their serialised text so that `toRuntimeHandler` can
 * write the text in one call instead of reading the `Response` body stream back (a hot-path saving;
 * other runtimes simply read the body).
 */
const texts = new WeakMap<Response, string>();

/** Statuses whose responses must not have a body (Fetch: "null body status"). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** The content type of every JSON response plume sends. */
export const JSON_TYPE = 'application/json';

/**
 * Creates a `Response` with `body` serialised as JSON, `status`, and `headers` (which may override
 * `content-type`). `undefined` (or a value JSON has no text for) and null-body statuses such as 204
 * give an empty body. Throws what `JSON.stringify` throws (cycles, BigInt).
 */
export function createJsonResponse(body: unknown, status: number, headers?: Headers): Response {
  const init = { status, headers: headers ?? { 'content-type': JSON_TYPE } };
  if (headers !== undefined && !headers.has('content-type')) headers.set('content-type', JSON_TYPE);
  const text = body === undefined || nullBodyStatuses.has(status) ? undefined : JSON.stringify(body);
  if (text === undefined) return new Response(null, init);
  const response = new Response(text, init);
  texts.set(response, text);
  return response;
}

/**
 * The JSON text of a response made by `createJsonResponse` whose body has not been read, else
 * `undefined` (then the body must be read from the stream).
 */
export function getJsonText(response: Response): string | undefined {
  return response.bodyUsed ? undefined : texts.get(response);
}
