/**
 * Fastify 5 with its own router and JSON body parser. Imported (by bench/instructions.ts), it only
 * exports its request listener (Fastify's `serverFactory` hands it over).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import { announce, create, get, list, portArgument } from './store.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Listener | undefined;
const app = Fastify({
  logger: false,
  serverFactory: (fastifyHandler) => {
    handler = fastifyHandler;
    return createServer(fastifyHandler);
  },
});
app.get('/messages', async () => list());
app.get<{ Params: { id: string } }>('/messages/:id', async (request, reply) => {
  const found = get(request.params.id);
  if (!found) return reply.code(404).send({ message: 'Not found' });
  return found;
});
app.post('/messages', async (request, reply) => reply.code(201).send(create(request.body)));
await app.ready();

// Fastify calls serverFactory while it is being created, so the handler is known by now.
if (handler === undefined) throw new Error('Fastify did not call serverFactory');

/** The `node:http` request listener Fastify made (itself, so that counts include no wrapper). */
export const listener: Listener = handler;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await app.listen({ port: portArgument(), host: '127.0.0.1' });
  announce(app.server.address());
}
