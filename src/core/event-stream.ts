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
 * Turns an async iterable into a `text/event-stream` body (spec: "Response behaviour", 2): each
 * yielded value becomes `data: <json>\n\n`, pulled only when the consumer wants more, so each event is
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
          if (item.done !== true) chunk = `data: ${JSON.stringify(item.value) ?? 'null'}\n\n`;
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
