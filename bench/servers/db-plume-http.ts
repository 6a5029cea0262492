/** End to end: plume's Web Standard handler with a `DocDbService` on the benchmark database. */
import { createServer } from 'node:http';
import { createApp } from 'plume';
import { DocDbService } from 'plume/docdb';
import { createHandler, toRuntimeHandler } from 'plume/http';
import { benchCollection } from './database.js';
import { announce, portArgument } from './store.js';

const app = createApp();
app.use('messages', new DocDbService({ Model: await benchCollection() }));
const server = createServer(toRuntimeHandler(createHandler(app)));
await app.setup(server);
server.listen(portArgument(), '127.0.0.1', () => announce(server.address()));
