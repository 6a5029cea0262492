import type { Server, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { transports } from './servers.js';

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe.each(transports)('event streams on the $name transport', (transport) => {
  it('closes the iterator of a client that left before the service returned it', async () => {
    const findCalled = signal();
    const release = signal();
    const iteratorClosed = signal();
    const app = transport.createApp();
    // A service that opens its stream slowly (e.g. a change stream positioned on the database).
    app.use('feed', {
      async find() {
        findCalled.resolve();
        await release.promise;
        const iterator: AsyncIterableIterator<unknown> = {
          next: () => new Promise<IteratorResult<unknown>>(() => undefined),
          async return() {
            iteratorClosed.resolve();
            return { value: undefined, done: true };
          },
          [Symbol.asyncIterator]: () => iterator,
        };
        return iterator;
      },
    });
    const running = await transport.start(app);
    const server = app.server as Server;
    const responseClosed = signal();
    server.once('request', (_request, response: ServerResponse) =>
      response.once('close', responseClosed.resolve),
    );
    try {
      const { hostname, port } = new URL(running.url);
      const socket = connect(Number(port), hostname);
      socket.on('error', () => undefined);
      socket.write('GET /feed HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n');
      await findCalled.promise;
      socket.destroy();
      // The server has seen the client leave before the service hands over its stream.
      await responseClosed.promise;
      release.resolve();
      // Without the fix the iterator (and whatever it holds open) is never closed: this wait times out.
      await expect(iteratorClosed.promise).resolves.toBeUndefined();
    } finally {
      await running.close();
    }
  });
});
