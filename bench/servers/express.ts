/** Express 5 alone: `express.json()` and three routes. */
import express from 'express';
import { announce, create, get, list, portArgument } from './store.js';

const app = express();
app.use(express.json());
app.get('/messages', (_req, res) => {
  res.json(list());
});
app.get('/messages/:id', (req, res) => {
  const found = get(req.params.id);
  if (found) res.json(found);
  else res.status(404).json({ message: 'Not found' });
});
app.post('/messages', (req, res) => {
  res.status(201).json(create(req.body));
});
const server = app.listen(portArgument(), '127.0.0.1', () => announce(server.address()));
