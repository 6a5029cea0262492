/** Worker-thread entry: starts the embedded server with the options it was given, stops on 'stop'. */
import { parentPort, workerData } from 'node:worker_threads';
import { startEmbeddedServer } from './index.js';
import type { EmbeddedServerOptions } from './index.js';

const port = parentPort;
if (port) {
  startEmbeddedServer({ ...(workerData as EmbeddedServerOptions), worker: false }).then(
    (server) => {
      port.postMessage({ uri: server.uri, port: server.port, host: server.host });
      port.on('message', (msg) => {
        if (msg === 'stop') {
          void server.stop().then(() => port.close());
        }
      });
    },
    (error: unknown) => {
      port.postMessage({ error: error instanceof Error ? error.message : String(error) });
      port.close();
    },
  );
}
