import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type Application } from 'plume';
import {
  accessTokenFromQuery,
  expressAccessTokenFromQuery,
  parseAuthenticationMiddleware,
} from 'plume/authentication';
import {
  authenticate,
  errorHandler as expressErrorHandler,
  json,
  notFound,
  rest,
  serverFramework,
  type FrameworkApplication,
} from 'plume/express';
import { bodyParser, createHandler, errorHandler, queryParser, toRuntimeHandler } from 'plume/http';

/** Everything the error handlers logged, as text. */
export interface CapturedLog {
  lines: string[];
  logger: { error(error: unknown): void };
}

/** A logger that keeps what it is given, as a line of text (message, stack and every own property). */
export function captureLog(): CapturedLog {
  const lines: string[] = [];
  return {
    lines,
    logger: {
      error(error: unknown) {
        const own = error instanceof Error ? { ...error, message: error.message, stack: error.stack } : error;
        lines.push(JSON.stringify(own) + String(error));
      },
    },
  };
}

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** One transport with plume/authentication wired in the documented way. */
export interface AuthTransport {
  name: string;
  createApp(): Application;
  start(app: Application, log: CapturedLog): Promise<Served>;
}

const webStandard: AuthTransport = {
  name: 'web standard handler',
  createApp: () => createApp(),
  async start(app, log) {
    const handler = createHandler(app, [
      errorHandler({ logger: log.logger }),
      queryParser(),
      bodyParser(),
      parseAuthenticationMiddleware(),
      accessTokenFromQuery(),
    ]);
    const server = createServer(toRuntimeHandler(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await app.setup(server);
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: async () => {
        await app.teardown();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      },
    };
  },
};

const express: AuthTransport = {
  name: 'express',
  createApp() {
    const app = serverFramework(createApp());
    app.use(json());
    app.use(expressAccessTokenFromQuery());
    app.configure(rest());
    return app;
  },
  async start(plain, log) {
    const app = plain as unknown as FrameworkApplication;
    // A plain Express route protected by the Express middleware (spec: "Authentication" 1).
    app.get('/me', authenticate('jwt'), (req, res) => {
      res.json({ user: req.framework.user, query: req.query });
    });
    app.use(notFound());
    app.use(expressErrorHandler({ logger: log.logger, html: false }));
    const server = await app.listen(0, '127.0.0.1');
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: async () => {
        await app.teardown();
      },
    };
  },
};

/** Both transports; every HTTP test runs against each. */
export const authTransports: AuthTransport[] = [webStandard, express];
