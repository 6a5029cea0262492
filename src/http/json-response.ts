import { isRuntimeRequest } from './runtime-request.js';
import { forwardMembers } from './forward-members.js';

/**
 * True for the statuses whose responses must not have a body (Fetch: "null body status"): 101, 103,
 * 204, 205 and 304. Comparisons rather than a set, since it runs for every response: no hashing.
 */
function isNullBodyStatus(status: number): boolean {
  return status === 204 || status === 304 || status === 205 || status === 101 || status === 103;
}

/** The content type of every JSON response plume sends. */
export const JSON_TYPE = 'application/json';

/**
 * A JSON `Response` for a request from `toRuntimeHandler`, which writes `jsonText` and the headers
 * directly. A real `Response` (header validation, a `Headers` object, a body stream) costs more than
 * the rest of a small request, so this one holds the status, the JSON text and the headers as a plain
 * object, and builds a `Headers` object or the real `Response` only when code asks for them
 * (`headers`, `body`, `text()`, `clone()`, …). It inherits from `Response.prototype`, so
 * `instanceof Response` holds and every member is there. It is never handed to a runtime that would
 * read a `Response` natively, only to `toRuntimeHandler`.
 */
class JsonResponse {
  readonly jsonText: string;
  readonly status: number;
  /** The headers while no `Headers` object was asked for; lower-case names. */
  #record: Record<string, string> | undefined;
  #headers: Headers | undefined;
  #real: Response | undefined;

  constructor(text: string, status: number, headers: Headers | undefined) {
    this.jsonText = text;
    this.status = status;
    if (headers === undefined) this.#record = { 'content-type': JSON_TYPE };
    else this.#headers = headers;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }
  get statusText(): string {
    return '';
  }
  get headers(): Headers {
    if (this.#real !== undefined) return this.#real.headers;
    if (this.#headers === undefined) {
      this.#headers = new Headers(this.#record);
      this.#record = undefined;
    }
    return this.#headers;
  }
  get bodyUsed(): boolean {
    return this.#real?.bodyUsed ?? false;
  }

  /** The plain header object, while nobody asked for `headers`; else `undefined`. */
  headerRecord(): Record<string, string> | undefined {
    return this.#real === undefined ? this.#record : undefined;
  }

  /** The real `Response` with the same status, headers and JSON body, built on first need. */
  realResponse(): Response {
    this.#real ??= new Response(this.jsonText, { status: this.status, headers: this.headers });
    return this.#real;
  }

  clone(): Response {
    if (this.bodyUsed) return this.realResponse().clone(); // throws the standard TypeError
    return new Response(this.jsonText, { status: this.status, headers: this.headers });
  }
}

// Every other member of Response (body, text(), json(), type, …) goes to the real one.
forwardMembers(JsonResponse.prototype, Response.prototype, (instance) => instance.realResponse());

/**
 * Creates a `Response` with `body` serialised as JSON, `status`, and `headers` (which may override
 * `content-type`). `undefined` (or a value JSON has no text for) and null-body statuses such as 204
 * give an empty body. For a request from `toRuntimeHandler` the response defers creating its
 * headers and body stream. Throws what `JSON.stringify` throws (cycles, BigInt).
 */
export function createJsonResponse(
  body: unknown,
  status: number,
  headers?: Headers,
  request?: Request,
): Response {
  if (headers !== undefined && !headers.has('content-type')) headers.set('content-type', JSON_TYPE);
  const text = body === undefined || isNullBodyStatus(status) ? undefined : JSON.stringify(body);
  if (text !== undefined && isRuntimeRequest(request)) {
    return new JsonResponse(text, status, headers) as unknown as Response;
  }
  return new Response(text ?? null, { status, headers: headers ?? { 'content-type': JSON_TYPE } });
}

/**
 * The JSON text of a response made by `createJsonResponse` for a `toRuntimeHandler` request whose body
 * has not been read, else `undefined` (then the body must be read from the stream).
 */
export function getJsonText(response: Response): string | undefined {
  return response instanceof JsonResponse && !response.bodyUsed ? response.jsonText : undefined;
}

/**
 * The headers of a lazy JSON response as a plain object (lower-case names) that may be changed in
 * place, while no code has asked for its `Headers`; else `undefined` (use `response.headers`).
 */
export function getHeaderRecord(response: Response): Record<string, string> | undefined {
  return response instanceof JsonResponse ? response.headerRecord() : undefined;
}
