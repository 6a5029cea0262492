/**
 * The `Request` that `toRuntimeHandler` builds. Constructing a real `Request` (URL parsing, header
 * validation, an abort signal, a body stream) costs more than the rest of a small request, so this one
 * holds the parts plume's hot path reads (`method`, `url`, the headers as pairs, the buffered body)
 * and builds the real `Request` only when other code asks for something else (`body`, `text()`,
 * `clone()`, `cache`, …). It inherits from `Request.prototype`, so `instanceof Request` holds and
 * every member is there. `signal` is the runtime's own abort signal, created on first use.
 * Its URL is not parsed when the request target is one the URL parser would copy as it is (see
 * `request-target.ts`): `url` is then the known-valid origin plus the target.
 * Responses made for it may be lazy JSON responses, because `toRuntimeHandler` is the consumer that
 * writes them. No Node.js imports here: `createHandler` uses this file and must run on any Web
 * Standard runtime.
 */

import { isCommonMethod } from '../core/index.js';
import { forwardMembers } from './forward-members.js';
import { NOT_SIMPLE, simpleTargetQuery } from './request-target.js';

/**
 * The abort signal of a request, made only when someone asks for it, so that requests whose signal
 * is never read cost no listener. `watch(source, signal)` is called once, when the signal is made
 * and not aborted yet, to start watching `source` (the runtime's response, say) for the reason to
 * call `signal.abort()`. One shared `watch` function rather than a subclass (V8 did not inline its
 * `super()` call, about 130 instructions per request) or a closure per request.
 */
export class LazySignal<Source> {
  #controller: AbortController | undefined;
  #aborted = false;
  readonly #source: Source;
  readonly #watch: (source: Source, signal: LazySignal<Source>) => void;

  constructor(source: Source, watch: (source: Source, signal: LazySignal<Source>) => void) {
    this.#source = source;
    this.#watch = watch;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
      else this.#watch(this.#source, this);
    }
    return this.#controller.signal;
  }

  /** Aborts the signal, now if it exists or as soon as it is made. */
  abort(): void {
    this.#aborted = true;
    this.#controller?.abort();
  }
}

/** Where a runtime request gets its abort signal from, on first use (a `LazySignal`). */
export interface SignalHolder {
  readonly signal: AbortSignal;
}

/** Methods `Request` refuses (Fetch: "forbidden method"). */
const forbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);
const token = /^[!#$%&'*+\-.^_`|~\w]+$/;
/** What `RuntimeRequest` holds; only its own code and `toRuntimeHandler` build one. */
export interface RuntimeRequestInit {
  method: string;
  /**
   * Headers as they arrived, names and values alternating (`IncomingMessage.rawHeaders`); names
   * starting with `:` (HTTP/2 pseudo-headers) are left out.
   */
  rawHeaders: string[];
  /** A buffered body, or a stream to be read by the service (then `duplex: 'half'`). */
  body?: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined;
  /** The peer's IP address (`socket.remoteAddress`), when known. */
  remoteAddress?: string | undefined;
  /**
   * The headers as a plain object with lower-case names, when the caller has one (`req.headers`);
   * else `headerRecordOf(rawHeaders)` makes it when it is first needed.
   */
  headerRecord?: Record<string, string>;
}

/**
 * Headers as they arrived (`IncomingMessage.rawHeaders`: names and values alternating) as a plain
 * object with lower-case names, repeated headers joined with `, ` (as `Headers` does). HTTP/2
 * pseudo-headers (`:path`) and `__proto__` are left out.
 */
export function headerRecordOf(raw: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = (raw[i] as string).toLowerCase();
    // Never a prototype (as `object[name] = value` would make it), never an HTTP/2 pseudo-header.
    if (key === '__proto__' || key.charCodeAt(0) === 58) continue;
    const value = raw[i + 1] as string;
    // `Object.hasOwn`, not `record[key]`: a header named `constructor` must not find Object's own.
    record[key] = Object.hasOwn(record, key) ? `${record[key]}, ${value}` : value;
  }
  return record;
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
  /** The request target (`/path?query`) when the URL was not parsed because the parser would copy it as it is. */
  readonly simpleTarget: string | undefined;
  /** The index of `?` in `simpleTarget` (-1 when there is none). */
  readonly simpleQuery: number = -1;
  /** The peer's IP address, when the runtime told it. */
  readonly remoteAddress: string | undefined;
  #raw: string[];
  #record: Record<string, string> | undefined;
  #headers: Headers | undefined;
  #body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined;
  #bodyTaken = false;
  #real: Request | undefined;
  #signal: SignalHolder;

  constructor(origin: string | undefined, target: string, init: RuntimeRequestInit, signal: SignalHolder) {
    const method = init.method;
    if (!isCommonMethod(method) && (!token.test(method) || forbiddenMethods.has(method.toUpperCase()))) {
      throw new TypeError(`'${method.slice(0, 20)}' is not a valid request method`);
    }
    const query = origin === undefined ? NOT_SIMPLE : simpleTargetQuery(target);
    if (query !== NOT_SIMPLE) {
      // The origin is valid and normalised and the parser would not change the target: no need to parse.
      this.url = origin + target;
      this.simpleTarget = target;
      this.simpleQuery = query;
    } else {
      this.parsedUrl = new URL(origin === undefined ? target : origin + target); // throws a TypeError for a URL `Request` would refuse
      this.url = this.parsedUrl.href;
    }
    this.method = init.method;
    this.remoteAddress = init.remoteAddress;
    this.#raw = init.rawHeaders;
    this.#record = init.headerRecord;
    this.#body = init.body;
    this.#signal = signal;
  }

  /**
   * Headers as a plain object with lower-case names: the runtime's own when it gave one (Node.js'
   * `req.headers`, which joins repeated headers as Node.js does), else `headerRecordOf`'s.
   */
  headerRecord(): Record<string, string> {
    this.#record ??= headerRecordOf(this.#raw);
    return this.#record;
  }

  /** The headers as name/value pairs, for `Headers` and the real `Request`. */
  #pairs(): [string, string][] {
    const pairs: [string, string][] = [];
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] as string;
      if (name.charCodeAt(0) !== 58) pairs.push([name, raw[i + 1] as string]);
    }
    return pairs;
  }

  /** The buffered body bytes, once; `undefined` when there are none, they were taken, or the body is a stream. */
  takeBytes(): Uint8Array<ArrayBuffer> | undefined {
    if (this.#bodyTaken || this.#real !== undefined || !(this.#body instanceof Uint8Array)) return undefined;
    this.#bodyTaken = true;
    return this.#body;
  }

  get headers(): Headers {
    if (this.#real !== undefined) return this.#real.headers;
    this.#headers ??= new Headers(this.#pairs());
    return this.#headers;
  }

  get signal(): AbortSignal {
    return this.#signal.signal;
  }

  /** The real `Request`, built on first need (a body already taken by `bodyParser` is marked used). */
  realRequest(): Request {
    if (this.#real !== undefined) return this.#real;
    const init: RequestInit & { duplex?: 'half' } = { method: this.method, headers: this.#pairs() };
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

/**
 * Builds the lightweight `Request` for `toRuntimeHandler`. Its URL is `origin + target`: `origin` is
 * the scheme and host, already validated and normalised as `URL.origin` (`undefined` for an
 * absolute-form target, which is then the whole URL). Throws a `TypeError` for a method or URL
 * `Request` would refuse.
 */
export function createRuntimeRequest(
  origin: string | undefined,
  target: string,
  init: RuntimeRequestInit,
  signal: SignalHolder,
): RuntimeRequest {
  return new LightRequest(origin, target, init, signal) as RuntimeRequest;
}

/** True for a request built by `toRuntimeHandler`. */
export function isRuntimeRequest(request: unknown): request is RuntimeRequest {
  return request instanceof LightRequest;
}

/** One request header (`null` when absent), read without building a `Headers` object for runtime requests. */
export function getRequestHeader(request: Request, name: string): string | null {
  return request instanceof LightRequest ? (request.headerRecord()[name] ?? null) : request.headers.get(name);
}

/**
 * The request target (`/path?query`) of a runtime request whose URL was not parsed, because the URL
 * parser would copy the target as it is; else `undefined` (use `parseRequestUrl`).
 */
export function getSimpleTarget(request: Request): string | undefined {
  return request instanceof LightRequest ? request.simpleTarget : undefined;
}

/** The index of `?` in the target `getSimpleTarget` gives (-1 when there is none); -1 for any other request. */
export function getSimpleQuery(request: Request): number {
  return request instanceof LightRequest ? request.simpleQuery : -1;
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

/** The client's IP address of a request from `toRuntimeHandler` (the socket's peer), else `undefined`. */
export function getClientAddress(request: Request): string | undefined {
  return request instanceof LightRequest ? request.remoteAddress : undefined;
}

/**
 * Request headers as a plain object with lower-case names, for `params.headers`. For requests from
 * `toRuntimeHandler` it is the runtime's own object, not a copy: Node.js' `req.headers`, as on the
 * Express transport (repeated headers joined as Node.js does, e.g. `Cookie` with `; `), so a hook
 * that changes `params.headers` changes `req.headers` too, as it would on Express. For any other
 * `Request` it is a new object, repeated headers joined with `, ` (as `Headers` does).
 */
export function getRequestHeaders(request: Request): Record<string, string> {
  if (request instanceof LightRequest) return request.headerRecord();
  const object: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    object[name] = value;
  });
  return object;
}
