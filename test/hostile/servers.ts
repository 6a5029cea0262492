import { createServer } from 'node:http';
import { createApp, type Application } from 'plume';
import { errorHandler as expressErrorHandler, notFound, type FrameworkApplication } from 'plume/express';
import { bodyParser, createHandler, errorHandler, queryParser, toRuntimeHandler } from 'plume/http';
import { createRestApp, urlOf } from '../express/helpers.js';
import { listen } from '../transports/servers.js';

/** Where a served app logs its 5xx errors. */
export interface CapturingLogger {
  errors: unknown[];
  error(error: unknown): void;
}

/** A logger that keeps what it is given, so tests can check what was (or was not) logged. */
export function captureLogger(): CapturingLogger {
  const errors: unknown[] = [];
  return { errors, error: (error) => errors.push(error) };
}

/** An app served on 127.0.0.1 with a random port. */
export interface ServedApp {
  url: string;
  app: Application;
  /** Stops the server (dropping open connections) and tears the app down. */
  close(): Promise<void>;
}

/** One transport: registers services with `register`, then serves the app with `logger` for 5xx. */
export interface HostileTransport {
  name: string;
  serve(register: (app: Application) => void, logger: CapturingLogger): Promise<ServedApp>;
}

const webStandard: HostileTransport = {
  name: 'web standard handler',
  async serve(register, logger) {
    const app = createApp();
    register(app);
    const handler = createHandler(app, [errorHandler({ logger }), queryParser(), bodyParser()]);
    const server = createServer(toRuntimeHandler(handler));
    const running = await listen(server);
    await app.setup(server);
    return {
      url: running.url,
      app,
      async close() {
        await running.close();
        await app.teardown();
      },
    };
  },
};

const express: HostileTransport = {
  name: 'express',
  async serve(register, logger) {
    const app: FrameworkApplication = createRestApp();
    register(app);
    app.use(notFound());
    app.use(expressErrorHandler({ logger }));
    const server = await app.listen(0, '127.0.0.1');
    return {
      url: urlOf(server),
      app: app as unknown as Application,
      async close() {
        server.closeAllConnections();
        await app.teardown();
      },
    };
  },
};

/** Both HTTP transports. */
export const hostileTransports: HostileTransport[] = [webStandard, express];

/**
 * The logged errors that are server errors: everything but 4xx client errors (plume errors with a
 * 4xx `code`, or http-errors with a 4xx `status`). The Express `errorHandler` logs every error, the
 * Web Standard one only 5xx; either way, none of these may be a server error.
 */
export function serverErrors(logger: CapturingLogger): unknown[] {
  return logger.errors.filter((error) => {
    const { code, status } = (error ?? {}) as { code?: unknown; status?: unknown };
    const clientStatus = typeof code === 'number' ? code : status;
    return !(typeof clientStatus === 'number' && clientStatus >= 400 && clientStatus < 500);
  });
}
