/** The JSON form of a plume error, as sent to HTTP clients (never includes the stack). */
export interface ErrorJSON {
  name: string;
  message: string;
  code: number;
  className: string;
  data?: unknown;
  errors?: unknown;
}

/** Options accepted by every error class after the message. */
export interface ErrorOptions {
  /** Extra machine-readable details for the client. */
  data?: unknown;
  /** Per-field or per-item errors (e.g. AJV validation errors). */
  errors?: unknown;
  /** The underlying error, kept for logs and never sent to clients. */
  cause?: unknown;
  /**
   * Response headers the HTTP transports send with this error, e.g. `{ 'retry-after': '30' }` for a
   * 429 or `{ allow: 'GET, POST' }` for a 405. Never part of the JSON body.
   */
  headers?: Record<string, string>;
}

/**
 * Base class of every HTTP error plume throws (spec: "Errors").
 *
 * `code` is the HTTP status; `className` its kebab-case name; `toJSON()` gives
 * `{ name, message, code, className, data?, errors? }` and never the stack.
 */
export class PlumeError extends Error {
  /** HTTP status code, e.g. 404. */
  readonly code: number;
  /** Kebab-case form of the class name, e.g. `not-found`. */
  readonly className: string;
  data?: unknown;
  errors?: unknown;
  /** Response headers sent with this error by both HTTP transports (not part of `toJSON()`). */
  headers?: Record<string, string>;

  constructor(message: string, name: string, code: number, className: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.code = code;
    this.className = className;
    if (options.data !== undefined) this.data = options.data;
    if (options.errors !== undefined) this.errors = options.errors;
    if (options.headers !== undefined) this.headers = options.headers;
  }

  /** The client-safe JSON form: `{ name, message, code, className, data?, errors? }`. */
  toJSON(): ErrorJSON {
    const json: ErrorJSON = {
      name: this.name,
      message: this.message,
      code: this.code,
      className: this.className,
    };
    if (this.data !== undefined) json.data = this.data;
    if (this.errors !== undefined) json.errors = this.errors;
    return json;
  }
}

/** True when `value` is a plume error (works across copies of the module via the shape check). */
export function isPlumeError(value: unknown): value is PlumeError {
  return value instanceof PlumeError;
}
