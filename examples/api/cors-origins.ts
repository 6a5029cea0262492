/**
 * The origins whose pages may call the example API from a browser: those listed in `CORS_ORIGINS`
 * (comma-separated, e.g. `https://app.example.com,http://localhost:5173`) plus the API's own origin,
 * added once the server listens. Any other site gets no `Access-Control-Allow-Origin`, so browsers
 * keep its scripts from reading answers (plume's default would allow every origin).
 */
export class AllowedOrigins {
  readonly #origins: Set<string>;

  constructor(origins: readonly string[] = []) {
    this.#origins = new Set(origins.map((origin) => new URL(origin).origin));
  }

  /** The origins from a `CORS_ORIGINS` value (empty entries ignored; a malformed one throws a `TypeError`). */
  static fromEnvironment(value: string | undefined): string[] {
    return (value ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter((origin) => origin !== '');
  }

  /** Allows the server's own origin, from its URL. */
  addOwn(url: string): void {
    this.#origins.add(new URL(url).origin);
  }

  /** True for an allowed origin. */
  has = (origin: string): boolean => this.#origins.has(origin);
}
