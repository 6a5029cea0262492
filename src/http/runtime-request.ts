/**
 * The `Request` that `toRuntimeHandler` builds. Two differences from a plain `Request`, both for speed
 * on the hot path: `signal` is the runtime's own abort signal (handing it to the constructor makes
 * undici create and link a second one for every request), and responses made for it may be
 * `LazyJsonResponse`s, because `toRuntimeHandler` is the consumer that writes them. No Node.js
 * imports here: `createHandler` uses this file and must run on any Web Standard runtime.
 */
export class RuntimeRequest extends Request {
  readonly #signal: AbortSignal;

  constructor(input: string, init: RequestInit, signal: AbortSignal) {
    super(input, init);
    this.#signal = signal;
  }

  /** Aborts when the client goes away before the response is finished. */
  override get signal(): AbortSignal {
    return this.#signal;
  }
}
