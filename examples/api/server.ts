import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  createApp,
  createLogger,
  describeListenError,
  errorLogger,
  type Application,
  type Logger,
} from 'plume';
import {
  accessTokenFromQuery,
  expressAccessTokenFromQuery,
  parseAuthenticationMiddleware,
} from 'plume/authentication';
import * as express from 'plume/express';
import {
  accessLog,
  bodyParser,
  createHandler,
  errorHandler,
  queryParser,
  toRuntimeHandler,
} from 'plume/http';
import { createApiApp, type ApiSettings } from './app.js';
import { answerClientErrors } from './client-errors.js';
import { AllowedOrigins } from './cors-origins.js';
import { connectDatabase, describeDatabaseError, type Database } from './database.js';
import type { MessageStream } from './stream.js';

/** How to serve the example. */
export interface StartOptions extends Partial<Omit<ApiSettings, 'db'>> {
  /** TCP port; 0 picks a free one. Default 3030. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** `web`: plume's Web Standard handler on `node:http` (default); `express`: plume on Express 5. */
  transport?: 'web' | 'express';
  /** A connected database; default `connectDatabase()` (MONGODB_URL, else the embedded database), closed by `close()`. */
  database?: Database;
  /** Longest wait for in-flight requests on `close()`, in milliseconds. Default 10 000. */
  shutdownTimeout?: number;
  /** The app's logger (access log, errors). Default `createLogger()`: pino, pretty on a terminal, `LOG_LEVEL`. */
  logger?: Logger;
  /** Origins allowed by CORS besides the API's own (`CORS_ORIGINS`). Default: none. */
  corsOrigins?: string[];
}

/** A running example server. */
export interface RunningServer {
  url: string;
  app: Application;
  server: Server;
  database: Database;
  /** Graceful shutdown: stop accepting, finish in-flight requests (bounded), `app.teardown()`, close the database. */
  close(): Promise<void>;
}

async function serveWeb(
  app: Application,
  port: number,
  host: string,
  origins: AllowedOrigins,
): Promise<Server> {
  const handler = createHandler(
    app,
    [
      accessLog(),
      errorHandler(),
      queryParser(),
      bodyParser(),
      parseAuthenticationMiddleware(),
      accessTokenFromQuery(),
    ],
    { cors: { origin: origins.has } },
  );
  // A request without Host: plume's JSON 400 (toRuntimeHandler refuses it) rather than Node's empty one.
  const server = createServer({ requireHostHeader: false }, toRuntimeHandler(handler));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  await app.setup(server);
  return server;
}

async function serveExpress(app: express.FrameworkApplication, port: number, host: string): Promise<Server> {
  app.use(express.notFound());
  // 4xx as one debug line, 5xx with the stack, through the app's logger.
  app.use(express.errorHandler({ logger: errorLogger(app.get('logger') as Logger) }));
  return app.listen(port, host);
}

/** The Express app with the middleware that must come before `rest()`. */
function createExpressApp(logger: Logger, origins: AllowedOrigins): express.FrameworkApplication {
  const app = express.serverFramework(createApp());
  app.set('logger', logger);
  app.use(express.accessLog());
  app.use(
    express.cors({ origin: (origin, allow) => allow(null, origin !== undefined && origins.has(origin)) }),
  );
  // cors() passes preflights from other origins on; answer them as the Web Standard handler does: 204, no CORS headers.
  app.use((req, res, next) => (req.method === 'OPTIONS' ? res.sendStatus(204) : next()));
  // Compresses JSON answers; event streams (Cache-Control: no-transform) go out uncompressed, event by event.
  app.use(express.compression());
  app.use(express.json({ limit: '1mb' }));
  app.use(expressAccessTokenFromQuery());
  app.configure(express.rest());
  return app;
}

/** Starts the example API (spec: the example of SEED.md; README "Run the example"). */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const { port = 3030, host = '127.0.0.1', transport = 'web', shutdownTimeout = 10_000 } = options;
  const database = options.database ?? (await connectDatabase());
  const settings: ApiSettings = { ...options, db: database.db };
  const logger = options.logger ?? createLogger();
  const origins = new AllowedOrigins(options.corsOrigins);
  let server: Server;
  let app: Application | undefined;
  try {
    if (transport === 'express') {
      const expressApp = await createApiApp(settings, createExpressApp(logger, origins));
      app = expressApp;
      server = await serveExpress(expressApp, port, host);
    } else {
      app = await createApiApp(settings, createApp().set('logger', logger));
      server = await serveWeb(app, port, host, origins);
    }
  } catch (error) {
    // The app may have started work on the database (plume/sync): stop it before closing the database.
    await app?.teardown().catch(() => undefined);
    if (options.database === undefined) await database.close();
    throw error;
  }
  answerClientErrors(server);
  const { port: actualPort } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  origins.addOwn(url);

  let closing: Promise<void> | undefined;
  const shutdown = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Event streams never finish by themselves.
    (app.service('messages/stream') as unknown as MessageStream).end();
    // A keep-alive connection goes idle when its last response ends; close it then, not 5 s later.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    server.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, shutdownTimeout)));
    await Promise.race([closed, timeout]);
    clearTimeout(timer);
    clearInterval(idle);
    server.closeAllConnections();
    await app.teardown();
    if (options.database === undefined) await database.close();
  };

  return {
    url,
    app,
    server,
    database,
    close: () => (closing ??= shutdown()),
  };
}

async function main(): Promise<void> {
  const transport = process.argv.includes('--transport=express') ? 'express' : 'web';
  const logger = createLogger();
  const port = process.env.PORT === undefined ? 3030 : Number(process.env.PORT);
  let running: RunningServer;
  try {
    running = await startServer({
      transport,
      port,
      host: process.env.HOST,
      secret: process.env.PLUME_SECRET,
      apiKeys: process.env.API_KEYS?.split(',').filter((key) => key !== ''),
      logger,
      corsOrigins: AllowedOrigins.fromEnvironment(process.env.CORS_ORIGINS),
    });
  } catch (error) {
    // Start-up failures the user can fix are one line and exit code 1; anything else is a bug: stack.
    const message = describeListenError(error) ?? describeDatabaseError(error);
    if (message === undefined) throw error;
    logger.fatal(message);
    process.exit(1);
  }
  logger.info(`plume example API on ${running.url}`);
  logger.info(`transport: ${transport === 'express' ? 'plume on Express' : "plume's Web Standard handler"}`);
  logger.info(`database: ${running.database.description}`);

  let signalled = false;
  const stop = (signal: string): void => {
    if (signalled) process.exit(1);
    signalled = true;
    // `close()` stops listening before it returns: once this line is logged, new connections are refused.
    const closing = running.close();
    logger.info(`${signal}: finishing in-flight requests, then exiting`);
    closing.then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(error, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
