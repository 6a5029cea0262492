/**
 * The `Request` that `toRuntimeHandler` builds. Constructing a real `Request` (URL parsing, header
 * validation, an abort signal, a body stream) costs more than the rest of a small request, so this one
 * holds the parts plume's hot path reads (`method`, `url`, the headers as pairs, the buffered body)
 * and builds the real `Request` only when other code asks for something else (`body`, `text()`,
 * `clone()`, `cache`, …). It inherits from `Request.prototype`, so `instanceof Request` holds and
 * every member is there. `signal` is the runtime's own abort signal, created on first use.
 * Responses made for it may be lazy JSON responses, because `toRuntimeHandler` is the consumer that
 * writes them. No Node.js imports here: `createHandler` uses this file and must run on any Web
 * Standard runtime.
 */

import { forwardMembers } from './forward-members.js';

/** The abort signal of a request, made only when someone asks for it. */
export class LazySignal {
  #controller: AbortController | undefined;
  #aborted = false;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** Aborts the signal, now if it exists or as soon as it is made. */
  abort(): void {
    this.#aborted = true;
    this.#controller?.abort();
  }
}

/** Methods `Request` refuses (Fetch: "forbidden method"). */
const forbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);
const token = /^[!#$%&'*+\-.^_`|~\w]+$/;

/** What `RuntimeRequest` holds; only its own code and `toRuntimeHandler` build one. */
export interface RuntimeRequestInit {
  method: string;
  /** Header name/value pairs as they arrived. */
  headers: [string, string][];
  /** A buffered body, or a stream to be read by the service (then `duplex: 'half'`). */
  body?: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined;
}

interface RuntimeRequestFields {
  readonly method: string;
  readonly url: string;
}

// Instances are plain objects whose prototype chain reaches Request.prototype; the class is typed as a
// Request for callers, while `this` inside is the lightweight object.
class LightRequest implements RuntimeRequestFields {
  readonly method: string;
  readonly url: string;
  /** The parsed URL, handed once to `createHandler` (which may give it to middleware). */
  parsedUrl: URL | undefined;
  #pairs: [string, string][];
  #record: Record<string, string> | undefined;
  #headers: Headers | undefined;
  #body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined;
  #bodyTaken = false;
  #real: Request | undefined;
  #signal: LazySignal;

  constructor(url: string, init: RuntimeRequestInit, signal: LazySignal) {
    if (!token.test(init.method) || forbiddenMethods.has(init.method.toUpperCase())) {
      throw new TypeError(`'${init.method.slice(0, 20)}' is not a valid request method`);
    }
    this.parsedUrl = new URL(url); // throws a TypeError for a URL `Request` would refuse
    this.url = this.parsedUrl.href;
    this.method = init.method;
    this.#pairs = init.headers;
    this.#body = init.body;
    this.#signal = signal;
  }

  /** Headers as a plain object with lower-case names; repeated headers joined with `, ` (as `Headers` does). */
  headerRecord(): Record<string, string> {
    if (this.#record !== undefined) return this.#record;
    const record: Record<string, string> = {};
    for (const [name, value] of this.#pairs) {
      const key = name.toLowerCase();
      if (key === '__proto__') continue; // as `object[name] = value` would: never a prototype
      record[key] = Object.hasOwn(record, key) ? `${record[key]}, ${value}` : value;
    }
    this.#record = record;
    return record;
  }

  /** The buffered body bytes, once; `undefined` when there are none, they were taken, or the body is a stream. */
  takeBytes(): Uint8Array<ArrayBuffer> | undefined {
    if (this.#bodyTaken || this.#real !== undefined || !(this.#body instanceof Uint8Array)) return undefined;
    this.#bodyTaken = true;
    return this.#body;
  }

  get headers(): Headers {
    if (this.#real !== undefined) return this.#real.headers;
    this.#headers ??= new Headers(this.#pairs);
    return this.#headers;
  }

  get signal(): AbortSignal {
    return this.#signal.signal;
  }

  /** The real `Request`, built on first need (a body already taken by `bodyParser` is marked used). */
  realRequest(): Request {
    if (this.#real !== undefined) return this.#real;
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers: this.#pairs };
    if (this.#body !== undefined) {
      init.body = this.#body;
      if (!(this.#body instanceof Uint8Array)) init.duplex = 'half';
    }
    const real = new Request(this.url, init);
    if (this.#bodyTaken) real.arrayBuffer().catch(() => undefined);
    this.#real = real;
    return real;
  }
}

// Every other member of Request (body, bodyUsed, text(), clone(), cache, mode, …) goes to the real one.
forwardMembers(LightRequest.prototype, Request.prototype, (instance) => instance.realRequest());

/** A `Request` made by `toRuntimeHandler` (see the file comment). Throws a `TypeError` for a request `Request` would refuse. */
export type RuntimeRequest = Request & LightRequest;

/** Builds the lightweight `Request` for `toRuntimeHandler`. */
export function createRuntimeRequest(
  url: string,
  init: RuntimeRequestInit,
  signal: LazySignal,
): RuntimeRequest {
  return new LightRequest(url, init, signal) as RuntimeRequest;
}

/** True for a request built by `toRuntimeHandler`. */
export function isRuntimeRequest(request: unknown): request is RuntimeRequest {
  return request instanceof LightRequest;
}

/** One request header (`null` when absent), read without building a `Headers` object for runtime requests. */
export function getRequestHeader(request: Request, name: string): string | null {
  return request instanceof LightRequest ? (request.headerRecord()[name] ?? null) : request.headers.get(name);
}

/** The request URL parsed: for a runtime request the `URL` it already parsed (handed out once), else a new one. */
export function parseRequestUrl(request: Request): URL {
  if (request instanceof LightRequest && request.parsedUrl !== undefined) {
    const url = request.parsedUrl;
    request.parsedUrl = undefined;
    return url;
  }
  return new URL(request.url);
}

/** Request headers as a new plain object with lower-case names, repeated headers joined with `, `. */
export function getRequestHeaders(request: Request): Record<string, string> {
  if (request instanceof LightRequest) return { ...request.headerRecord() };
  const object: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    object[name] = value;
  });
  return object;
}
