import { errorHandler, notFound, type FrameworkApplication } from 'plume/express';
import type { Transport } from '../transports/servers.js';
import { createRestApp, urlOf } from './helpers.js';

/**
 * The Express transport for the shared REST matrix (`test/transports`): an app with body parsers and
 * `rest()` before the services, `notFound()` and `errorHandler()` after them, served by `app.listen`.
 */
export const expressTransport: Transport = {
  name: 'express',
  createApp: () => createRestApp(),
  async start(plain) {
    const app = plain as unknown as FrameworkApplication;
    app.use(notFound());
    app.use(errorHandler());
    const server = await app.listen(0, '127.0.0.1');
    return {
      url: urlOf(server),
      close: async () => {
        await app.teardown();
      },
    };
  },
};
