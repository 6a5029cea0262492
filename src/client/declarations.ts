/** A record id as it appears in a URL: `/<service_path>/<id>` (URL-encoded by the client). */
export type Id = string | number;

/** A service query (`params.query`): the only params a client sends. Values reach the server as strings. */
export type Query = Record<string, unknown>;

/** Options of `createClient(baseUrl, options)`. */
export interface ClientOptions {
  /** The `fetch` to call. Default: the global `fetch` (browsers, Deno, Bun, Node ≥ 20). */
  fetch?: typeof fetch;
  /** Milliseconds before a call that has no answer fails with `Timeout` (408). `0` turns it off. Default 30 000. */
  timeout?: number;
  /** Headers sent with every call (e.g. `{ 'x-api-key': '…' }`); a call's own `headers` replace them (names compared case-insensitively). */
  headers?: Record<string, string>;
  /** `credentials` of every `fetch` (e.g. `'include'` to send cookies cross-origin). Default: fetch's own. */
  credentials?: RequestCredentials;
}

/** Params of one call from the client (spec: "REST mapping"). */
export interface ClientParams<Q = Query> {
  /** Sent as the URL query in nested-bracket form (`$sort[createdAt]=-1`). */
  query?: Q;
  /** Values of the path's placeholders: `{ userId: '42' }` for `users/:userId/messages`. */
  route?: Record<string, string | number>;
  /** Extra request headers for this call; they replace the client's `headers` of the same name, whatever the case. */
  headers?: Record<string, string>;
  /** Aborts this call; the promise then rejects with the signal's reason (an `AbortError`). */
  signal?: AbortSignal;
  /** Milliseconds before this call fails with `Timeout`; overrides the client's `timeout`. `0` turns it off. For an event stream it bounds the wait for the response headers only. */
  timeout?: number;
}

/** One HTTP call as middleware sees it, before it is sent. */
export interface ClientRequest {
  /** HTTP method: `GET`, `POST`, `PUT`, `PATCH` or `DELETE`. */
  method: string;
  /** Path below the base URL, placeholders filled and id appended, e.g. `users/42/messages`. */
  path: string;
  query?: Query;
  /** Sent as JSON when not `undefined`. */
  body?: unknown;
  /** Request headers, names in lower case (the call's headers are lower-cased); middleware may add to them. */
  headers: Record<string, string>;
  signal?: AbortSignal;
  timeout?: number;
  /** Set by `client.events()`: how an event-stream answer reconnects. */
  events?: { reconnect: boolean; retryDelay: number };
}

/**
 * Client middleware, run around every call in the order added with `client.use()`: it may change
 * `request` before `next()`, and look at the result or the error (a plume error) after it.
 */
export type ClientMiddleware = (request: ClientRequest, next: () => Promise<unknown>) => Promise<unknown>;

/**
 * The events of a Server-Sent Events endpoint as an async iterator: each `data:` event's JSON value
 * in order. `for await` ends when the server ends the stream; leaving the loop (or `close()`) closes
 * the connection. An `event: error` from the server is thrown as its plume error class, except one
 * carrying a 503 while the stream can reconnect (see `EventStreamParams.reconnect`).
 */
export interface EventStream<T = unknown> extends AsyncIterableIterator<T> {
  /** The `id:` of the last event received (`''` when the server sends none); sent as `Last-Event-ID` on reconnect. */
  readonly lastEventId: string;
  /** Closes the connection; a waiting `next()` resolves as done. */
  close(): void;
}

/** Options of `client.events(path, params)`. */
export interface EventStreamParams<Q = Query> extends ClientParams<Q> {
  /**
   * Reconnect when the connection drops after the server sent event ids (`Last-Event-ID`), also after
   * an `event: error` with a 503, and retry 503 answers after their `Retry-After`; 5 failed attempts in
   * a row end the stream with `Unavailable`. Default true.
   */
  reconnect?: boolean;
  /** Milliseconds before reconnecting when the server sent no `retry:` field. Default 1000. */
  retryDelay?: number;
}

/** Where the authentication client keeps the access token: `localStorage`, `sessionStorage` or your own. */
export interface TokenStorage {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

/** Options of `withAuthentication(client, options)`. */
export interface AuthenticationClientOptions {
  /** Path of the authentication service. Default `authentication`. */
  path?: string;
  /** Token storage. Default `defaultStorage()`: the page's `localStorage` in a browser, `memoryStorage()` elsewhere. */
  storage?: TokenStorage;
  /** Key of the token in `storage`. Default `plume-jwt`. */
  storageKey?: string;
  /** Strategy name `reAuthenticate()` sends with the stored token. Default `jwt`. */
  jwtStrategy?: string;
}

/** What the authentication service answers to a login: `{ accessToken, authentication, user, … }`. */
export interface AuthenticationResult {
  accessToken: string;
  authentication?: { strategy?: string; payload?: Record<string, unknown> };
  [key: string]: unknown;
}

/** The body of a login: the strategy name and its fields, e.g. `{ strategy: 'local', email, password }`. */
export interface AuthenticationRequest {
  strategy: string;
  [key: string]: unknown;
}
