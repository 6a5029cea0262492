/**
 * The examples of docs/express.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import { createServer, type Server } from 'node:http';
import qs from 'qs';
import { createApp, type Params } from 'plume';
import {
  compression,
  cors,
  errorHandler,
  json,
  notFound,
  queryParser,
  rest,
  serverFramework,
  serveStatic,
  urlencoded,
  type FrameworkApplication,
  type RequestHandler,
} from 'plume/express';

const messages = {
  async find(params: Params) {
    return [{ text: 'Hello', requestId: params.requestId }];
  },
  async get(id: string) {
    return { id, text: 'Hello' };
  },
};

/** "A complete app": the order of the calls matters. */
export async function startExpressApp(port = 3030): Promise<{ app: FrameworkApplication; server: Server }> {
  const app = serverFramework(createApp());

  app.use(cors());
  app.use(compression());
  app.use(json()); // body parsers before rest() and before any service
  app.use(urlencoded({ extended: true }));
  app.use('/public', serveStatic('public'));

  // Middleware that sets service params: before app.configure(rest())
  app.use((req, _res, next) => {
    req.framework.requestId = req.get('x-request-id');
    next();
  });

  app.configure(rest());
  app.use('messages', messages);

  app.use(notFound());
  app.use(errorHandler());

  const server = await app.listen(port); // runs app.setup(server) before resolving
  return { app, server };
}

/** "Middleware around one service". */
const requireTenant: RequestHandler = (req, res, next) => {
  const tenant = req.get('x-tenant');
  if (tenant === undefined) {
    res.status(400).json({ message: 'x-tenant header missing' });
    return; // no next(): the service does not run
  }
  req.framework.tenant = tenant; // becomes params.tenant
  next();
};

const countHeader: RequestHandler = (_req, res, next) => {
  if (Array.isArray(res.data)) res.setHeader('x-total', String(res.data.length));
  console.debug(`${res.hook?.path}.${res.hook?.method} answered`);
  next();
};

export function registerWithMiddleware(app: FrameworkApplication) {
  app.use(
    'tenant-messages',
    requireTenant,
    {
      async find(params: Params) {
        return [{ tenant: params.tenant }];
      },
    },
    countHeader,
  );
}

/** "Custom formatters": content negotiation with res.format. */
export function configureWithFormatter(app: FrameworkApplication) {
  app.configure(
    rest((_req, res) => {
      res.format({
        'application/json': () => res.json(res.data),
        'text/plain': () => res.send(JSON.stringify(res.data, null, 2)),
      });
    }),
  );
}

/** "Query strings": arrays of more than 20 items. */
export function raiseArrayLimit(app: FrameworkApplication) {
  app.set('query parser', queryParser({ arrayLimit: 200 }));
}

export function useQsDirectly(app: FrameworkApplication) {
  app.set('query parser', (text: string) => qs.parse(text, { arrayLimit: 200 }));
}

/** "Sub-apps": app.setup(server) on the mounted app. */
export async function mountSubApp(port = 3030): Promise<Server> {
  const api = serverFramework(createApp());
  api.use(json());
  api.configure(rest());
  api.use('messages', messages);
  api.use(errorHandler());

  const main = serverFramework(); // a plain Express app
  main.use('/api', api);

  const server = createServer(main);
  await new Promise<void>((resolve) => server.listen(port, resolve));
  await api.setup(server); // main knows nothing of api's services
  return server;
}

/** "Errors": HTML pages for browsers, JSON for everyone else. */
export function useErrorPages(app: FrameworkApplication) {
  app.use(notFound({ verbose: true }));
  app.use(
    errorHandler({
      html: { 404: 'public/404.html', default: 'public/default.html' },
      logger: { error: (error: unknown) => console.error('request failed:', error) },
    }),
  );
}

export function renderErrorPages(app: FrameworkApplication) {
  app.use(notFound());
  app.use(
    errorHandler({
      html: (error, _req, res) => {
        res.type('html').send(`<h1>Error ${error.code}</h1><p>Please try again later.</p>`);
      },
    }),
  );
}
