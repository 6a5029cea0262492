/**
 * The examples of docs/migrating-from-feathers.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import { createApp, type HookContext, type Params } from 'plume';
import { BadRequest, NotFound } from 'plume/errors';
import {
  errorHandler,
  json,
  notFound,
  rest,
  serverFramework,
  type FrameworkApplication,
  type NextFunction,
  type Request,
  type Response,
} from 'plume/express';

interface Message {
  id: string;
  text: string;
}

/** "A FeathersJS 5 app after the renames": an ordinary FeathersJS service class. */
export class MessageService {
  messages: Message[] = [{ id: '1', text: 'Hello' }];

  constructor(readonly options: { prefix: string }) {}

  async find(params: Params) {
    return this.messages.map((message) => ({ ...message, requestId: params.requestId }));
  }

  async get(id: string) {
    const message = this.messages.find((m) => m.id === id);
    if (message === undefined) throw new NotFound(`No record found for id '${id}'`);
    return message;
  }

  async create(data: { text?: unknown }) {
    if (typeof data.text !== 'string') {
      throw new BadRequest({ message: 'Invalid message', errors: { text: 'required' } });
    }
    const message = { id: String(this.messages.length + 1), text: data.text };
    this.messages.push(message);
    return message;
  }
}

/** "A FeathersJS 5 app after the renames". */
export function createMigratedApp(): FrameworkApplication {
  const app = serverFramework(createApp()); // was: express(feathers())
  app.use(json());
  app.use((req, _res, next) => {
    req.framework.requestId = req.get('x-request-id'); // was: req.feathers
    next();
  });
  app.configure(rest());
  app.use('messages', new MessageService({ prefix: 'msg-' }));
  app.use(notFound());
  app.use(errorHandler());
  return app;
}

/** "Hooks": `this` is the service, method maps of around hooks, and a cache that skips the method. */
export function addMessageHooks(app: FrameworkApplication): void {
  const cache = new Map<string, unknown>();

  app.service('messages').hooks({
    get: [
      async (context: HookContext, next: () => Promise<void>) => {
        const key = String(context.id);
        if (cache.has(key)) context.result = cache.get(key); // the method will not run
        await next();
        cache.set(key, context.result);
      },
    ],
    all: [
      async function (this: MessageService, context: HookContext, next: () => Promise<void>) {
        context.params.prefix = this.options.prefix; // `this` is the service
        await next();
      },
    ],
  });
}

/** "Errors": the second argument is options, not data. */
export function invalidEmail(): BadRequest {
  return new BadRequest('Invalid email', { data: { field: 'email' } }); // FeathersJS: ('Invalid email', { field: 'email' })
}

/** "Express": an own error middleware instead of plume's errorHandler(). */
export function createAppWithOwnErrorMiddleware(): FrameworkApplication {
  const app = serverFramework(createApp());
  app.configure(rest());
  app.use('messages', new MessageService({ prefix: 'msg-' }));
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(res.statusCode >= 400 ? res.statusCode : 500).json({ message: error.message });
  });
  return app;
}
