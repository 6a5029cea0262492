// The README's Logging sample, kept identical by test/example/readme.test.ts.
import { createServer } from 'node:http';
import { createApp, createLogger, errorLogger } from 'plume';
import * as express from 'plume/express';
import { accessLog, createHandler, errorHandler, toRuntimeHandler } from 'plume/http';

const logger = createLogger(); // pino: pretty on a terminal, JSON otherwise, level from LOG_LEVEL

// Web Standard handler: errorHandler() logs through app.get('logger')
const app = createApp().set('logger', logger);
createServer(toRuntimeHandler(createHandler(app, [accessLog(), errorHandler()]))).listen(3030);

// Express: accessLog() first, errorHandler() last
const expressApp = express.serverFramework(createApp().set('logger', logger));
expressApp.use(express.accessLog());
// … json(), rest(), services, notFound() …
expressApp.use(express.errorHandler({ logger: errorLogger(logger) }));
