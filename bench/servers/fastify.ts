/** Fastify 5 with its own router and JSON body parser. */
import Fastify from 'fastify';
import { announce, create, get, list, portArgument } from './store.js';

const app = Fastify({ logger: false });
app.get('/messages', async () => list());
app.get<{ Params: { id: string } }>('/messages/:id', async (request, reply) => {
  const found = get(request.params.id);
  if (!found) return reply.code(404).send({ message: 'Not found' });
  return found;
});
app.post('/messages', async (request, reply) => reply.code(201).send(create(request.body)));
await app.listen({ port: portArgument(), host: '127.0.0.1' });
announce(app.server.address());
