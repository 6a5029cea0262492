// The README's quick start, kept identical by test/example/readme.test.ts.
import { createServer } from 'node:http';
import { MongoClient } from 'mongodb';
import { createApp } from 'plume';
import { DocDbService } from 'plume/docdb';
import { startEmbeddedServer } from 'plume/embedded';
import { createHandler, toRuntimeHandler } from 'plume/http';

const { uri } = await startEmbeddedServer(); // or your MongoDB's connection string
const db = (await MongoClient.connect(uri)).db('quickstart');

const app = createApp();
app.use('messages', new DocDbService({ Model: db.collection('messages'), paginate: { default: 10 } }));
app.service('messages').hooks({ before: { create: [async (context) => console.log(context.data)] } });

const server = createServer(toRuntimeHandler(createHandler(app)));
server.listen(3030);
await app.setup(server);
