import { RuntimeRequest } from './runtime-request.js';

/** Statuses whose responses must not have a body (Fetch: "null body status"). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** The content type of every JSON response plume sends. */
export const JSON_TYPE = 'application/json';

/**
 * A JSON `Response` whose body stream is only created if JavaScript code asks for it (`body`,
 * `text()`, `clone()`, …); `toRuntimeHandler` writes `jsonText` directly instead. Creating a body
 * stream costs more than the rest of a small request, so this is the hot-path saving. It is a real
 * `Response` whose internal body is empty, so it is only made for requests from `toRuntimeHandler`
 * (a `RuntimeRequest`), never handed to a runtime that would read the internal body natively.
 */
class LazyJsonResponse extends Response {
  readonly jsonText: string;
  #inner: Response | undefined;

  constructor(text: string, init: ResponseInit) {
    super(null, init);
    this.jsonText = text;
  }

  #body(): Response {
    this.#inner ??= new Response(this.jsonText, this);
    return this.#inner;
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> {
    // Never null: the inner response is made from a string.
    return this.#body().body as ReadableStream<Uint8Array<ArrayBuffer>>;
  }
  override get bodyUsed(): boolean {
    return this.#inner?.bodyUsed ?? false;
  }
  override text(): Promise<string> {
    return this.#body().text();
  }
  override json(): Promise<unknown> {
    return this.#body().json();
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body().arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return this.#body().blob();
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#body().bytes();
  }
  override formData(): Promise<FormData> {
    return this.#body().formData();
  }
  override clone(): Response {
    if (this.bodyUsed) return this.#body().clone(); // throws the standard TypeError
    return new Response(this.jsonText, this);
  }
}

/**
 * Creates a `Response` with `body` serialised as JSON, `status`, and `headers` (which may override
 * `content-type`). `undefined` (or a value JSON has no text for) and null-body statuses such as 204
 * give an empty body. For a request from `toRuntimeHandler` the response defers creating its body
 * stream. Throws what `JSON.stringify` throws (cycles, BigInt).
 */
export function createJsonResponse(
  body: unknown,
  status: number,
  headers?: Headers,
  request?: Request,
): Response {
  const init = { status, headers: headers ?? { 'content-type': JSON_TYPE } };
  if (headers !== undefined && !headers.has('content-type')) headers.set('content-type', JSON_TYPE);
  const text = body === undefined || nullBodyStatuses.has(status) ? undefined : JSON.stringify(body);
  if (text === undefined) return new Response(null, init);
  return request instanceof RuntimeRequest ? new LazyJsonResponse(text, init) : new Response(text, init);
}

/**
 * The JSON text of a response made by `createJsonResponse` for a `toRuntimeHandler` request whose body
 * has not been read, else `undefined` (then the body must be read from the stream).
 */
export function getJsonText(response: Response): string | undefined {
  return response instanceof LazyJsonResponse && !response.bodyUsed ? response.jsonText : undefined;
}
