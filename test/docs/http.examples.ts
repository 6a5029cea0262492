/**
 * The examples of docs/http.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import { createServer, type Server } from 'node:http';
import { createApp, type Application, type HookContext, type Params } from 'plume';
import { NotAuthenticated } from 'plume/errors';
import {
  bodyParser,
  createHandler,
  errorHandler,
  queryParser,
  toRuntimeHandler,
  type HandlerMiddleware,
} from 'plume/http';

/** "Serving an app on Node.js". */
export async function serveOnNode(port = 3030): Promise<{ app: Application; server: Server }> {
  const app = createApp();
  app.use('messages', {
    async find() {
      return [{ text: 'Hello' }];
    },
  });

  const server = createServer(toRuntimeHandler(createHandler(app)));
  await new Promise<void>((resolve) => server.listen(port, resolve));
  await app.setup(server);
  return { app, server };
}

/** "Custom middleware": sets `params.user` from a header, answers some requests itself. */
export const currentUser: HandlerMiddleware = async (context, next) => {
  const key = context.request.headers.get('x-api-key');
  if (key === 'secret-key') context.params.user = { name: 'service account' };
  await next();
};

export const maintenance: HandlerMiddleware = async (context, next) => {
  if (context.url.pathname.startsWith('/admin')) {
    context.response = Response.json({ message: 'Down for maintenance' }, { status: 503 });
    return; // next() not called: the service is not reached
  }
  await next();
};

export const poweredBy: HandlerMiddleware = async (context, next) => {
  await next();
  context.response?.headers.set('x-powered-by', 'plume');
};

export function createCustomHandler(app: Application) {
  return createHandler(app, [
    errorHandler(),
    poweredBy,
    queryParser(),
    bodyParser(),
    maintenance,
    currentUser,
  ]);
}

/** "Replacing the query parser": flat `URLSearchParams` parsing, no brackets. */
export const flatQueries = queryParser((queryString) => Object.fromEntries(new URLSearchParams(queryString)));

export function createFlatQueryHandler(app: Application) {
  return createHandler(app, [errorHandler(), flatQueries, bodyParser()]);
}

/** "Size limits": 10 MiB for parsed bodies, on both layers. */
export function createLargeBodyServer(app: Application) {
  const limit = 10 * 1024 * 1024;
  const handler = createHandler(app, [errorHandler(), queryParser(), bodyParser({ limit })]);
  const server = createServer(toRuntimeHandler(handler, { limit }));
  return server;
}

/** "Streamed uploads": any other content type reaches the service as the unread body stream. */
export const uploads = {
  async create(data: unknown) {
    if (!(data instanceof ReadableStream)) return { kind: typeof data };
    const reader = (data as ReadableStream<Uint8Array>).getReader();
    let bytes = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      bytes += chunk.value.byteLength; // e.g. write each chunk to storage instead
    }
    return { bytes };
  },
};

/** "Responses": a `Response` is sent as it is. */
export const files = {
  async get(id: string) {
    return new Response(`contents of ${id}`, {
      headers: { 'content-type': 'text/plain', 'cache-control': 'max-age=60' },
    });
  },
};

/** "Server-Sent Events": an async iterator becomes `text/event-stream`. */
export const clock = {
  async find(params: Params) {
    const count = Number((params.query as { count?: string } | undefined)?.count ?? 3);
    return (async function* ticks() {
      try {
        for (let i = 1; i <= count; i++) yield { tick: i };
      } finally {
        // runs when the iterator ends and when the client disconnects early
      }
    })();
  },
};

/** "Status codes and headers": set `context.http` in a hook. */
export async function accepted(context: HookContext) {
  context.http.status = 202;
  context.http.headers = { 'x-job': 'queued' };
}

export async function redirectToCreated(context: HookContext) {
  const created = context.result as { id: string };
  context.http.location = `/jobs/${created.id}`; // create still answers 201, with a Location header
}

export function addJobHooks(app: Application) {
  app.service('jobs').hooks({ after: { create: [redirectToCreated], update: [accepted] } });
}

/** "Custom methods" (X-Service-Method) and route placeholders. */
export function registerMessages(app: Application) {
  app.use(
    'users/:userId/messages',
    {
      async find(params: Params) {
        return [{ userId: params.route?.userId, text: 'hi' }];
      },
      async markRead(data: { ids: string[] }, params: Params) {
        if (params.user === undefined) throw new NotAuthenticated('Log in first');
        return { read: data.ids.length };
      },
    },
    { methods: ['find', 'markRead'] },
  );
}

/** "Errors": where 5xx errors are logged. */
export function createLoggingHandler(app: Application) {
  const logger = { error: (error: unknown) => console.error('request failed:', error) };
  const handler = createHandler(app, [errorHandler({ logger }), queryParser(), bodyParser()]);
  return handler;
}

/** "CORS": restricting origins with the `cors` option. */
export function createRestrictedHandler(app: Application) {
  return createHandler(app, [errorHandler(), queryParser(), bodyParser()], {
    cors: {
      origin: ['https://app.example.com'], // or (origin) => boolean
      credentials: true, // only for allowed origins; cookies and sessions need it
      exposedHeaders: ['x-total'],
      maxAge: 600,
    },
  });
}
