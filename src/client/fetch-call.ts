import { GeneralError, PlumeError, Timeout, Unavailable, errorsByCode, fromJSON } from '../errors/index.js';
import type { ClientRequest } from './declarations.js';
import { encodeQuery } from './query-string.js';

/** What every call of one client shares: where to send it and how. */
export interface Connection {
  baseUrl: string;
  fetch: typeof fetch;
  timeout: number;
  headers: Record<string, string>;
  credentials?: RequestCredentials;
}

/** A `fetch` in flight: its abort controller, and the rule that turns what it throws into a plume error. */
export interface Attempt {
  controller: AbortController;
  response: Response;
  /** Stops the timeout (the response is being streamed for as long as the consumer reads). */
  clearTimeout(): void;
  /** Stops the timeout and stops following the caller's signal: the call is over. */
  finish(): void;
  /** True once the caller's signal has aborted: the call must not be retried. */
  cancelled(): boolean;
  /** The error a failure of this attempt is reported as: `Timeout`, the caller's abort reason, or `Unavailable`. */
  failure(error: unknown): Error;
}

/** `baseUrl` + `/` + path + `?` + nested-bracket query. */
export function urlOf(baseUrl: string, request: ClientRequest): string {
  const query = encodeQuery(request.query);
  return `${baseUrl.replace(/\/+$/, '')}/${request.path}${query === '' ? '' : `?${query}`}`;
}

/**
 * Sends `request` and resolves once the response headers arrive. The request aborts when the
 * caller's signal does, or after `timeout` ms (until `clearTimeout()`); failures (also of reading the
 * body later, through `failure`) become `Timeout` (408), the caller's abort reason, or `Unavailable` (503).
 */
export async function send(connection: Connection, request: ClientRequest): Promise<Attempt> {
  const controller = new AbortController();
  const { signal } = request;
  const timeout = request.timeout ?? connection.timeout;
  const what = `${request.method} /${request.path}`;
  let timedOut = false;
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted === true) onAbort();
  const timer =
    timeout > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeout)
      : undefined;
  const finish = (): void => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  };
  const failure = (error: unknown): Error => {
    finish();
    if (error instanceof PlumeError) return error;
    if (timedOut) return new Timeout(`${what} got no answer within ${timeout} ms`, { cause: error });
    if (signal?.aborted === true) {
      const reason: unknown = signal.reason;
      return reason instanceof Error ? reason : new DOMException('The call was aborted', 'AbortError');
    }
    const reason = error instanceof Error ? error.message : String(error);
    return new Unavailable(`${what} could not reach ${connection.baseUrl}: ${reason}`, { cause: error });
  };
  // Headers set case-insensitively: a call's `Authorization` replaces the client's `authorization`.
  const headers = new Headers({ accept: 'application/json' });
  for (const source of [connection.headers, request.headers]) {
    for (const [name, value] of Object.entries(source)) headers.set(name, value);
  }
  let body: string | undefined;
  if (request.body !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(request.body);
  }
  try {
    const response = await connection.fetch(urlOf(connection.baseUrl, request), {
      method: request.method,
      headers,
      body,
      signal: controller.signal,
      ...(connection.credentials === undefined ? {} : { credentials: connection.credentials }),
    });
    return {
      controller,
      response,
      clearTimeout: () => clearTimeout(timer),
      finish,
      cancelled: () => signal?.aborted === true,
      failure,
    };
  } catch (error: unknown) {
    throw failure(error);
  }
}

/** True when the response is `text/event-stream`. */
export function isEventStream(response: Response): boolean {
  return /^text\/event-stream/i.test(response.headers.get('content-type') ?? '');
}

/**
 * The plume error a failed response stands for: the JSON error body rebuilt as its class (`NotFound`,
 * `BadRequest` with `errors`, …); a body that is not a plume error gives the class of the status code
 * (`GeneralError` for codes without one) with the status text as message.
 */
export function errorOf(status: number, statusText: string, text: string): PlumeError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's or a framework's page.
  }
  if (
    typeof json === 'object' &&
    json !== null &&
    typeof (json as { message?: unknown }).message === 'string'
  ) {
    const { code } = json as { code?: unknown };
    return fromJSON({ ...json, code: typeof code === 'number' ? code : status });
  }
  const ErrorClass = errorsByCode[status] ?? GeneralError;
  return new ErrorClass(`${status} ${statusText}`.trim(), {
    data: text === '' ? undefined : { body: text.slice(0, 1000) },
  });
}

/**
 * Reads a finished response: the JSON body (`null` for 204 or an empty body; text when it is not
 * JSON), or throws the plume error of a status ≥ 400.
 */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw errorOf(response.status, response.statusText, text);
  if (text === '') return null;
  if (!/json/i.test(response.headers.get('content-type') ?? 'json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (error: unknown) {
    throw new GeneralError(`The answer to ${response.url} is not valid JSON`, { cause: error });
  }
}
