/**
 * End to end, the floor: hand-written Fastify 5 routes calling the driver directly on the benchmark
 * database. `POST` inserts then reads the document back, as `DocDbService.create` and the adapter
 * benchmark's raw variant do.
 */
import Fastify from 'fastify';
import { ObjectId, type Document } from 'mongodb';
import { benchCollection } from './database.js';
import { announce, portArgument } from './store.js';

const collection = await benchCollection();
const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/messages/:id', async (request, reply) => {
  if (!ObjectId.isValid(request.params.id)) return reply.code(400).send({ message: 'Invalid id' });
  const found = await collection.findOne({ _id: new ObjectId(request.params.id) });
  if (!found) return reply.code(404).send({ message: 'Not found' });
  return found;
});
app.post<{ Body: Document }>('/messages', async (request, reply) => {
  const doc: Document = { ...request.body, _id: new ObjectId() };
  await collection.insertOne(doc);
  return reply.code(201).send(await collection.findOne({ _id: doc._id as ObjectId }));
});
await app.listen({ port: portArgument(), host: '127.0.0.1' });
announce(app.server.address());
