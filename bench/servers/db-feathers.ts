/** End to end: FeathersJS 5 on Express with `@feathersjs/mongodb`'s `MongoDBService` on the benchmark database. */
import { once } from 'node:events';
import { feathers } from '@feathersjs/feathers';
import expressModule, { errorHandler, json, rest } from '@feathersjs/express';
import { MongoDBService } from '@feathersjs/mongodb';
import { benchCollection } from './database.js';
import { announce, portArgument } from './store.js';

// Under NodeNext the CommonJS default import is the whole module; at run time it is the function.
const feathersExpress = expressModule as unknown as typeof expressModule.default;
const app = feathersExpress(feathers());
app.use(json());
app.configure(rest());
app.use('messages', new MongoDBService({ Model: await benchCollection() }));
app.use(errorHandler({ logger: false }));
const server = await app.listen(portArgument(), '127.0.0.1');
// Feathers resolves before the socket is bound.
if (!server.listening) await once(server, 'listening');
announce(server.address());
