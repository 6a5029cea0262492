import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from 'plume';
import { json, rest, serverFramework, urlencoded, type FrameworkApplication } from 'plume/express';

/** Base URL of a server listening on 127.0.0.1. */
export function urlOf(server: Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A plume app served by Express with JSON and form body parsers and the REST transport. */
export function createRestApp(): FrameworkApplication {
  const app = serverFramework(createApp());
  app.use(json());
  app.use(urlencoded({ extended: true }));
  app.configure(rest());
  return app;
}

/** Listens on 127.0.0.1 with a free port (`app.listen`, which runs `app.setup`) and gives the base URL. */
export async function start(app: FrameworkApplication): Promise<{ url: string; server: Server }> {
  const server = await app.listen(0, '127.0.0.1');
  return { url: urlOf(server), server };
}

/** Headers of a JSON API client. */
export const jsonHeaders = { accept: 'application/json', 'content-type': 'application/json' };
