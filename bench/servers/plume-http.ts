/** plume's Web Standard handler served on Node.js: `createServer(toRuntimeHandler(createHandler(app)))`. */
import { createServer } from 'node:http';
import { createApp } from 'plume';
import { NotFound } from 'plume/errors';
import { createHandler, toRuntimeHandler } from 'plume/http';
import { announce, MessageService, portArgument } from './store.js';

const app = createApp();
app.use('messages', new MessageService((message) => new NotFound(message)));
const server = createServer(toRuntimeHandler(createHandler(app)));
await app.setup(server);
server.listen(portArgument(), '127.0.0.1', () => announce(server.address()));
