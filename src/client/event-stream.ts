import { PlumeError, Unavailable, fromJSON } from '../errors/index.js';
import type { EventStream } from './declarations.js';
import type { Attempt } from './fetch-call.js';
import { errorOf } from './fetch-call.js';

/** One dispatched Server-Sent Event. */
interface ServerEvent {
  type: string;
  /** `undefined` when the event had no `data:` line (then only its id counts). */
  data: string | undefined;
  id: string | undefined;
  retry: number | undefined;
}

/** Failed reconnections in a row after which the stream gives up with `Unavailable`. */
const RECONNECT_ATTEMPTS = 5;

/**
 * Parses a `text/event-stream` body as the HTML standard describes it: lines end with CRLF, LF or CR;
 * `data:` lines of one event are joined with `\n`; `event:`, `id:` and `retry:` fields; `:` comments.
 */
async function* parseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const empty = (): ServerEvent => ({ type: 'message', data: undefined, id: undefined, retry: undefined });
  let event = empty();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let end: number;
      // A trailing CR may be the first half of a CRLF: keep it until the next chunk.
      while ((end = buffer.search(/\r\n|\n|\r(?=[^\n])/)) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        if (line === '') {
          if (event.data !== undefined || event.id !== undefined || event.retry !== undefined) yield event;
          event = empty();
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'data') {
          event.data = event.data === undefined ? value : `${event.data}\n${value}`;
        } else if (field === 'event') event.type = value;
        else if (field === 'id' && !value.includes('\0')) event.id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) event.retry = Number(value);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}

/** The plume error an `event: error` carries (its data is the error's JSON form). */
function errorFromEvent(data: unknown): PlumeError {
  return fromJSON(typeof data === 'object' && data !== null ? data : { message: String(data) });
}

/**
 * Milliseconds a `Retry-After` value asks to wait (delay-seconds or an HTTP-date, RFC 9110 section
 * 10.2.3), or undefined when there is none or it cannot be read.
 */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function gaveUp(failures: number, cause: unknown): Unavailable {
  return new Unavailable(`The event stream could not reconnect after ${failures} attempts`, { cause });
}

/**
 * The events of an open `text/event-stream` response as an `EventStream`. When the server has sent
 * event ids and the connection ends or drops, `reconnect(lastEventId)` opens a new one after the
 * server's `retry:` delay (else `retryDelay` ms), up to 5 failed attempts in a row (then `Unavailable`).
 * A 503 answer (the server cannot serve the stream yet, e.g. its database is down) counts as a failed
 * attempt, retried after its `Retry-After` (else the same delay), and an `event: error` carrying a 503
 * as a dropped connection; any other HTTP error answer ends the stream with its plume error and a 204
 * ends it quietly (as EventSource does).
 */
export function eventStream<T>(
  first: Attempt,
  reconnect: ((lastEventId: string) => Promise<Attempt>) | undefined,
  retryDelay: number,
): EventStream<T> {
  let attempt = first;
  let lastEventId = '';
  let closed = false;
  let wakeUp: (() => void) | undefined;
  const close = (): void => {
    closed = true;
    attempt.finish();
    attempt.controller.abort();
    wakeUp?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function* run(): AsyncGenerator<T, undefined> {
    let delay = retryDelay;
    let failures = 0;
    for (;;) {
      let dropped: Error | undefined;
      try {
        if (attempt.response.body === null) return undefined;
        for await (const event of parseEvents(attempt.response.body)) {
          if (event.id !== undefined) lastEventId = event.id;
          if (event.retry !== undefined) delay = event.retry;
          if (event.type === 'error' && event.data !== undefined) {
            const error = errorFromEvent(parseData(event.data));
            if (error.code !== 503) throw error;
            // The server ends the stream after an error event; one that says "try again later" is
            // a dropped connection, and a failed attempt (a server that keeps failing so is given up).
            if (++failures >= RECONNECT_ATTEMPTS) throw gaveUp(failures, error);
            dropped = error;
            attempt.controller.abort();
            break;
          }
          failures = 0;
          if (event.data === undefined) continue;
          yield parseData(event.data) as T;
        }
      } catch (error: unknown) {
        if (closed) return undefined;
        if (error instanceof PlumeError) throw error;
        dropped = attempt.failure(error);
      }
      attempt.finish();
      if (closed) return undefined;
      if (reconnect === undefined || lastEventId === '' || attempt.cancelled()) {
        if (dropped !== undefined) throw dropped;
        return undefined;
      }
      for (let wait = delay; ;) {
        await sleep(wait);
        if (closed) return undefined;
        let failed: unknown;
        try {
          attempt = await reconnect(lastEventId);
          const { response } = attempt;
          if (response.status !== 503) break;
          failed = errorOf(503, response.statusText, await response.text());
          attempt.finish();
          wait = retryAfterMs(response.headers.get('retry-after')) ?? delay;
        } catch (error: unknown) {
          if (closed) return undefined;
          if (attempt.cancelled()) throw error;
          failed = error;
          wait = delay;
        }
        if (++failures >= RECONNECT_ATTEMPTS) throw gaveUp(failures, failed);
      }
      const { response } = attempt;
      if (response.status === 204) return undefined;
      if (!response.ok) throw errorOf(response.status, response.statusText, await response.text());
    }
  }

  const generator = run();
  return {
    get lastEventId() {
      return lastEventId;
    },
    close,
    next: () => generator.next(),
    return: async () => {
      close();
      return generator.return(undefined);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
