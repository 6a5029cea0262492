import { createServer } from 'node:http';
import type { Application, Middleware } from 'plume';
import {
  createHandler,
  toRuntimeHandler,
  type HandlerContext,
  type HandlerOptions,
  type RuntimeHandlerOptions,
} from 'plume/http';
import { listen, type RunningServer } from '../transports/servers.js';

/** Serves `app` over a real socket: `createServer(toRuntimeHandler(createHandler(app, middleware)))`. */
export async function serve(
  app: Application,
  middleware?: Middleware<HandlerContext>[],
  options?: RuntimeHandlerOptions,
  handlerOptions?: HandlerOptions,
): Promise<RunningServer> {
  const server = createServer(toRuntimeHandler(createHandler(app, middleware, handlerOptions), options));
  const running = await listen(server);
  await app.setup(server);
  return running;
}

/** Reads Server-Sent Events from a response body until `count` events arrived; returns them and the reader. */
export async function readEvents(
  response: Response,
  count: number,
): Promise<{ events: string[]; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: string[] = [];
  while (events.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      events.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
  return { events, reader };
}
