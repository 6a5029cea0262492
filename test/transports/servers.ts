import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type Application } from 'plume';
import { createHandler, toRuntimeHandler } from 'plume/http';
import { expressTransport } from '../express/transport.js';

/** A running server for one transport. */
export interface RunningServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  close(): Promise<void>;
}

/**
 * One HTTP transport under test. `createApp()` returns an app ready for services (a transport that
 * needs setup before services are registered, like Express' body parsers and `rest()`, does it here);
 * the test registers its services, then `start(app)` serves it on 127.0.0.1 (port 0) and runs
 * `app.setup(server)`.
 */
export interface Transport {
  name: string;
  createApp(): Application;
  start(app: Application): Promise<RunningServer>;
}

/** Listens on 127.0.0.1 with a free port and returns the base URL and a closer. */
export async function listen(server: Server): Promise<RunningServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const webStandard: Transport = {
  name: 'web standard handler',
  createApp: () => createApp(),
  async start(app) {
    const server = createServer(toRuntimeHandler(createHandler(app)));
    const running = await listen(server);
    await app.setup(server);
    return running;
  },
};

/** Every transport the shared REST suite runs against. Add a transport with one entry here. */
export const transports: Transport[] = [webStandard, expressTransport];
