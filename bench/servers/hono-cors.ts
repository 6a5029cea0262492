/**
 * Hono on `@hono/node-server` with Hono's own `cors()` middleware: the same routes as hono.ts, and the
 * `Access-Control-Allow-Origin` header SEED.md requires on every response, which plume sends and plain
 * Hono does not. The same behaviour as plume's server, built the way a Hono application builds it.
 * Imported (by bench/instructions.ts), it only exports its request listener.
 */
import { pathToFileURL } from 'node:url';
import { getRequestListener, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { announce, create, get, list, portArgument } from './store.js';

const app = new Hono();
app.use(cors());
app.get('/messages', (c) => c.json(list()));
app.get('/messages/:id', (c) => {
  const found = get(c.req.param('id'));
  return found ? c.json(found) : c.json({ message: 'Not found' }, 404);
});
app.post('/messages', async (c) => c.json(create(await c.req.json()), 201));

/** The `node:http` request listener `serve()` uses. */
export const listener = getRequestListener(app.fetch);

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  serve({ fetch: app.fetch, port: portArgument(), hostname: '127.0.0.1' }, (info) => announce(info));
}
