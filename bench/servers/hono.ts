/** Hono on `@hono/node-server`. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { announce, create, get, list, portArgument } from './store.js';

const app = new Hono();
app.get('/messages', (c) => c.json(list()));
app.get('/messages/:id', (c) => {
  const found = get(c.req.param('id'));
  return found ? c.json(found) : c.json({ message: 'Not found' }, 404);
});
app.post('/messages', async (c) => c.json(create(await c.req.json()), 201));
serve({ fetch: app.fetch, port: portArgument(), hostname: '127.0.0.1' }, (info) => announce(info));
