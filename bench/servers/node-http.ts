/**
 * The ceiling: the benchmark service on bare `node:http`, routing and JSON by hand. Imported (by
 * bench/instructions.ts), it only exports its request listener.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { announce, create, get, list, portArgument } from './store.js';

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
  });
}

/** The `node:http` request listener. */
export function listener(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const path = url.split('?', 1)[0]!;
  if (path === '/messages') {
    if (req.method === 'GET') return send(res, 200, list());
    if (req.method === 'POST') {
      readJson(req).then(
        (data) => send(res, 201, create(data)),
        () => send(res, 400, { message: 'Invalid JSON' }),
      );
      return;
    }
  } else if (path.startsWith('/messages/') && req.method === 'GET') {
    const found = get(path.slice('/messages/'.length));
    return found ? send(res, 200, found) : send(res, 404, { message: 'Not found' });
  }
  send(res, 404, { message: 'Not found' });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = createServer(listener);
  server.listen(portArgument(), '127.0.0.1', () => announce(server.address()));
}
