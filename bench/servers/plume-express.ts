/** plume on Express: `serverFramework(app)`, `json()`, `rest()`. */
import { createApp } from 'plume';
import { NotFound } from 'plume/errors';
import { errorHandler, json, rest, serverFramework } from 'plume/express';
import { announce, MessageService, portArgument } from './store.js';

const app = serverFramework(createApp());
app.use(json());
app.configure(rest());
app.use('messages', new MessageService((message) => new NotFound(message)));
app.use(errorHandler({ logger: false }));
const server = await app.listen(portArgument(), '127.0.0.1');
announce(server.address());
