import { toPlumeError } from '../errors/index.js';

/** True for values both transports send as Server-Sent Events: anything with `Symbol.asyncIterator`. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}

const encoder = new TextEncoder();

/**
 * A Server-Sent Event with an `id` (and optionally an `event` name): yield one from an async iterable
 * a service returns, and the stream carries `id: <id>` before its `data:` line, so a reconnecting
 * `EventSource` sends it back as the `Last-Event-ID` header (`params.headers['last-event-id']`).
 * Line breaks in `id` and `event` are removed (they would end the field).
 */
export class ServerSentEvent {
  constructor(
    /** Sent as `data: <json>`. */
    readonly data: unknown,
    /** Sent as `id: <id>`. */
    readonly id?: string,
    /** Sent as `event: <event>`; without it clients see a `message` event. */
    readonly event?: string,
  ) {}
}

function formatEvent(value: unknown): string {
  const data = `data: ${JSON.stringify(value instanceof ServerSentEvent ? value.data : value) ?? 'null'}\n\n`;
  if (!(value instanceof ServerSentEvent)) return data;
  const field = (name: string, v: string | undefined): string =>
    v === undefined ? '' : `${name}: ${v.replace(/[\r\n]/g, '')}\n`;
  return `${field('id', value.id)}${field('event', value.event)}${data}`;
}

/**
 * Turns an async iterable into a `text/event-stream` body (spec: "Response behaviour", 2): each
 * yielded value becomes `data: <json>\n\n` (a {@link ServerSentEvent} adds its `id`/`event` lines), pulled only when the consumer wants more, so each event is
 * flushed as it is yielded and a slow client slows the iterator down instead of filling memory. The
 * stream ends when the iterator ends. When `signal` aborts (the client went away) or the stream is
 * cancelled, the iterator's `return()` is called once, so `finally` blocks of async generators run.
 * If the iterator throws, an `event: error` with the error's JSON is sent, the stream ends, and 5xx
 * errors go to `logError`.
 */
export function createEventStream(
  iterable: AsyncIterable<unknown>,
  signal: AbortSignal,
  logError: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const iterator = iterable[Symbol.asyncIterator]();
  let finished = false;
  let onAbort: (() => void) | undefined;

  const stop = (): void => {
    if (finished) return;
    finished = true;
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    try {
      // return() of a running async generator is queued until its pending next() settles.
      Promise.resolve(iterator.return?.()).catch(logError);
    } catch (error: unknown) {
      logError(error);
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onAbort = () => {
          stop();
          try {
            controller.close();
          } catch {
            // Already closed or cancelled by the consumer.
          }
        };
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        if (finished) return;
        let chunk: string | undefined;
        try {
          const item = await iterator.next();
          if (finished) return;
          if (item.done !== true) chunk = formatEvent(item.value);
        } catch (error: unknown) {
          if (finished) return;
          const plumeError = toPlumeError(error);
          if (plumeError.code >= 500) logError(error);
          chunk = `event: error\ndata: ${JSON.stringify(plumeError.toJSON())}\n\n`;
          // A generator that threw is already done; one whose value could not be serialised is not.
          stop();
        }
        if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
        if (chunk === undefined || finished) {
          finished = true;
          if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
          controller.close();
        }
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 0 },
  );
}
