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
 * FeathersJS' object form of an error's first argument: `new BadRequest({ message, errors, ...data })`.
 * An `Error` instance is accepted too (its message, its `errors`, its other enumerable fields as data).
 */
export interface ErrorFields {
  message?: string;
  errors?: unknown;
  [field: string]: unknown;
}

/** The first argument of every error class: a message, the `ErrorFields` object form, or an `Error`. */
export type ErrorMessage = string | ErrorFields | Error;

/** Message, errors and data from the object form; `name` is the message when it has none. */
function readFields(
  fields: object | null,
  name: string,
): { message: string; errors: unknown; data: Record<string, unknown> | undefined } {
  if (fields === null) return { message: name, errors: undefined, data: undefined };
  const { message, errors, ...rest } = fields as ErrorFields;
  return {
    message: typeof message === 'string' && message !== '' ? message : name,
    errors,
    data: Object.keys(rest).length > 0 ? rest : undefined,
  };
}

/**
 * Base class of every HTTP error plume throws (spec: "Errors").
 *
 * `code` is the HTTP status; `className` its kebab-case name; `toJSON()` gives
 * `{ name, message, code, className, data?, errors? }` and never the stack. The first argument is a
 * message or, as in FeathersJS, an object `{ message, errors, ...data }` (or an `Error`, then kept as
 * `cause`): its `message` is the message, `errors` the errors and the other fields the data;
 * `options.data` and `options.errors` win over them.
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

  constructor(
    message: ErrorMessage,
    name: string,
    code: number,
    className: string,
    options: ErrorOptions = {},
  ) {
    const fields = typeof message === 'object' ? readFields(message, name) : { message: String(message) };
    const cause = options.cause ?? (message instanceof Error ? message : undefined);
    super(fields.message, cause === undefined ? undefined : { cause });
    this.name = name;
    this.code = code;
    this.className = className;
    const data = options.data ?? ('data' in fields ? fields.data : undefined);
    const errors = options.errors ?? ('errors' in fields ? fields.errors : undefined);
    if (data !== undefined) this.data = data;
    if (errors !== undefined) this.errors = errors;
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

/**
 * The HTTP status both transports answer `error` with: its `code` when that is an error status
 * (400–599), else 500 (a `PlumeError` built with another code is still an error to the client).
 */
export function statusOf(error: PlumeError): number {
  return error.code >= 400 && error.code <= 599 ? error.code : 500;
}

/** True when `value` is a plume error (works across copies of the module via the shape check). */
export function isPlumeError(value: unknown): value is PlumeError {
  return value instanceof PlumeError;
}
