/**
 * plume's Web Standard handler served on Node.js: `createServer(toRuntimeHandler(createHandler(app)))`.
 * Imported (by bench/memory.ts), it only exports its request listener.
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createApp } from 'plume';
import { NotFound } from 'plume/errors';
import { createHandler, toRuntimeHandler } from 'plume/http';
import { announce, MessageService, portArgument } from './store.js';

const app = createApp();
app.use('messages', new MessageService((message) => new NotFound(message)));

/** The `node:http` request listener. */
export const listener = toRuntimeHandler(createHandler(app));

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = createServer(listener);
  await app.setup(server);
  server.listen(portArgument(), '127.0.0.1', () => announce(server.address()));
}
