import { EventEmitter, once } from 'node:events';
import type { Server } from 'node:http';
import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { Application, Service } from '../core/index.js';
import { NotFound } from '../errors/index.js';
import type {
  FrameworkApplication,
  FrameworkParams,
  FrameworkServiceOptions,
  ServiceMiddleware,
} from './declarations.js';
import { duplicateHostError, missingHostError } from '../http/index.js';
import { errorHandler } from './error-handler.js';
import { createAppServer } from './native-classes.js';
import { queryParser } from './query-parser.js';

type AnyFunction = (...args: unknown[]) => unknown;

/** EventEmitter's own instance fields: listeners are moved with `on`, never copied as fields. */
const emitterFields = new Set<string | symbol>(Reflect.ownKeys(new EventEmitter()));

function isPlumeApp(value: unknown): value is Application {
  if (typeof value !== 'object' && typeof value !== 'function') return false;
  if (value === null) return false;
  const app = value as Record<string, unknown>;
  return ['use', 'service', 'lookup', 'setup', 'teardown', 'hooks'].every(
    (name) => typeof app[name] === 'function',
  );
}

function isExpressApp(value: unknown): value is Express {
  if (typeof value !== 'function') return false;
  const app = value as unknown as Record<string, unknown>;
  return typeof app.handle === 'function' && typeof app.set === 'function' && typeof app.use === 'function';
}

function isMiddleware(value: unknown): value is RequestHandler {
  return typeof value === 'function';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Flattens middleware arguments (functions and nested arrays); throws a `TypeError` naming anything else. */
function flattenMiddleware(values: unknown[], path: string): RequestHandler[] {
  const result: RequestHandler[] = [];
  for (const value of values.flat(Infinity)) {
    if (!isMiddleware(value)) {
      throw new TypeError(`app.use('${path}', …): expected middleware functions, got ${describe(value)}`);
    }
    result.push(value);
  }
  return result;
}

/** Checks the `framework` service option (`{ before?, after? }` middleware arrays). */
function normalizeServiceMiddleware(value: unknown, path: string): Required<ServiceMiddleware> {
  if (value === undefined) return { before: [], after: [] };
  if (typeof value !== 'object' || value === null) {
    throw new TypeError(`app.use('${path}', …): the 'framework' option must be { before?, after? }`);
  }
  const { before = [], after = [] } = value as Record<string, unknown>;
  if (!Array.isArray(before) || !Array.isArray(after)) {
    throw new TypeError(`app.use('${path}', …): 'framework.before' and 'framework.after' must be arrays`);
  }
  return { before: flattenMiddleware(before, path), after: flattenMiddleware(after, path) };
}

/**
 * Splits `app.use(path, ...before, service, ...after, options?)` arguments. Returns `null` when there
 * is no service object (everything is middleware for Express).
 */
function splitServiceArguments(
  path: string,
  args: unknown[],
): { service: Service; options: FrameworkServiceOptions } | null {
  const index = args.findIndex((arg) => typeof arg === 'object' && arg !== null && !Array.isArray(arg));
  if (index === -1) return null;
  const service = args[index] as Service;
  let rest = args.slice(index + 1);
  let options: FrameworkServiceOptions = {};
  const last = rest[rest.length - 1];
  if (typeof last === 'object' && last !== null && !Array.isArray(last)) {
    options = last as FrameworkServiceOptions;
    rest = rest.slice(0, -1);
  }
  const before = flattenMiddleware(args.slice(0, index), path);
  const after = flattenMiddleware(rest, path);
  const given = normalizeServiceMiddleware(options.framework, path);
  const middleware = { before: [...given.before, ...before], after: [...after, ...given.after] };
  if (middleware.before.length > 0 || middleware.after.length > 0) {
    options = { ...options, framework: middleware };
  }
  return { service, options };
}

/** Copies plume's members (own fields, then class methods) onto the Express app where Express has none. */
function copyPlumeMembers(plumeApp: Application, expressApp: Express): void {
  const target = expressApp as unknown as Record<string | symbol, unknown>;
  const sources: object[] = [];
  for (
    let proto: object | null = plumeApp;
    proto !== null;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    if (proto === EventEmitter.prototype || proto === Object.prototype) break;
    sources.push(proto);
  }
  for (const source of sources) {
    for (const key of Reflect.ownKeys(source)) {
      if (key === 'constructor' || emitterFields.has(key) || key in target) continue;
      const descriptor = Object.getOwnPropertyDescriptor(source, key);
      if (descriptor !== undefined) Object.defineProperty(expressApp, key, descriptor);
    }
  }
  // One settings object: Express' (its `get`/`set` also compile settings such as 'query parser').
  for (const [name, value] of Object.entries(plumeApp.settings)) expressApp.set(name, value);
  for (const event of plumeApp.eventNames()) {
    for (const listener of plumeApp.rawListeners(event))
      (expressApp as unknown as EventEmitter).on(event, listener as AnyFunction);
  }
}

/** plume's error handler for the final handler below: made once, not per request. */
const finalErrorHandler: ErrorRequestHandler = errorHandler();

/**
 * Answers what no middleware answered when the app is the top-level request listener: a 404 for
 * unmatched requests and plume's `errorHandler()` for errors, so Express' default handler (which
 * shows stacks outside production) never answers.
 */
function createFinalHandler(req: Request, res: Response): (error?: unknown) => void {
  return (error?: unknown) => {
    if (res.headersSent) {
      if (error !== undefined && error !== null) req.socket.destroy();
      return;
    }
    const thrown = error === undefined || error === null ? new NotFound('Page not found') : error;
    finalErrorHandler(thrown, req, res, () => {
      req.socket.destroy();
    });
  };
}

/**
 * Turns a plume application into an Express application that keeps plume's functions (spec:
 * "Server-framework integration API", `serverFramework`):
 *
 * - `serverFramework()` → a plain Express app (`express()`).
 * - `serverFramework(app)` → `app` merged onto a new Express app; use the returned value from then on
 *   (services already registered keep working, but their hook `context.app` is the original object).
 * - `serverFramework(app, expressApp)` → the same, onto an existing Express app (middleware it already
 *   has runs before plume's).
 *
 * The result is a request listener (`http.createServer(app)`) with Express' members plus plume's:
 * `use` registers services (with optional middleware around them) or Express middleware; `listen`
 * resolves to the server after `app.setup(server)` (a server whose requests and responses are born
 * with the app's prototypes, see `createAppServer`); `teardown` also closes that server; `get(name)`
 * and `set` share one settings object. It sets `req.framework = { ...req.framework, provider: 'rest' }`
 * on every request before any middleware runs, and installs `queryParser()` as the `query parser`
 * unless the Express app already has a query parser function. Requests no middleware answers get a
 * 404, errors no error handler answers get plume's `errorHandler()` answer. Throws a `TypeError` for
 * anything that is not a plume application or not an Express application.
 */
export function serverFramework(): Express;
export function serverFramework<S extends object>(
  app: Application<S>,
  expressApp?: Express,
): FrameworkApplication<S>;
export function serverFramework(app?: unknown, existing?: unknown): unknown {
  if (app === undefined) return express();
  if (!isPlumeApp(app)) {
    throw new TypeError(
      `serverFramework(app) needs a plume application from createApp(); got ${describe(app)}`,
    );
  }
  if (existing !== undefined && !isExpressApp(existing)) {
    throw new TypeError(
      `serverFramework(app, expressApp) needs an Express application; got ${describe(existing)}`,
    );
  }
  if (existing === undefined && isExpressApp(app)) return app;
  const expressApp: Express = existing ?? express();
  // Taken before the merge replaces them; always called with the merged app as `this`.
  const plumeMembers = app as unknown as Record<string, AnyFunction>;
  const expressMembers = expressApp as unknown as Record<string, AnyFunction>;
  const plumeUse = plumeMembers.use as AnyFunction;
  const plumeTeardown = plumeMembers.teardown as AnyFunction;
  const expressUse = expressMembers.use as AnyFunction;
  const expressHandle = expressMembers.handle as AnyFunction;

  copyPlumeMembers(app, expressApp);
  if (typeof expressApp.get('query parser') !== 'function') {
    expressApp.set('query parser', queryParser());
  }
  let listening: Server | undefined;

  const overrides = {
    use(this: Express, ...args: unknown[]): unknown {
      const [path, ...rest] = args;
      // A missing path with a service is plume's BadRequest, as on a plain plume app (not Express' TypeError).
      if ((path === null || path === undefined) && rest.length > 0) return plumeUse.call(this, ...args);
      const split = typeof path === 'string' ? splitServiceArguments(path, rest) : null;
      if (split === null) return expressUse.apply(this, args);
      return plumeUse.call(this, path, split.service, split.options);
    },

    async listen(this: Express, ...args: unknown[]): Promise<Server> {
      // Express' own listen, on a server whose requests are born with the app's prototypes.
      const server = createAppServer(this);
      const callback = args[args.length - 1];
      if (typeof callback === 'function') {
        let called = false;
        args[args.length - 1] = (...values: unknown[]) => {
          if (called) return;
          called = true;
          (callback as AnyFunction)(...values);
        };
        server.once('error', args[args.length - 1] as AnyFunction);
      }
      (server.listen as AnyFunction).apply(server, args);
      if (!server.listening) await once(server, 'listening');
      listening = server;
      await (this as unknown as Application).setup(server);
      return server;
    },

    async teardown(this: Express, server?: unknown): Promise<unknown> {
      await plumeTeardown.call(this, server);
      const created = listening;
      listening = undefined;
      if (created?.listening) {
        await new Promise<void>((resolve) => {
          created.close(() => resolve());
          created.closeIdleConnections();
        });
      }
      return this;
    },

    handle(this: Express, req: Request, res: Response, next?: NextFunction): void {
      // A missing Host reaches here only from a server created with `requireHostHeader: false` (as
      // `listen`'s is); Node lets a repeated one through on any server, keeping the first.
      // Answered before Express prepares `req` and `res`, so without Express' `res.json`.
      const refused = req.headers.host === undefined ? missingHostError(req) : duplicateHostError(req);
      if (refused !== undefined) {
        res.writeHead(400, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(refused.toJSON()));
        return;
      }
      // Here rather than as a middleware: every middleware layer costs each request a router pass.
      const framework = req.framework as FrameworkParams | undefined;
      req.framework = framework === undefined ? { provider: 'rest' } : { ...framework, provider: 'rest' };
      // rest() sets these two on every REST answer. Adding them here, before Express changes the
      // prototype of `res` (which gives each response object a map of its own in V8), is a cheap
      // cached transition; adding them later makes V8 build a new map on every request.
      if (!('data' in res)) res.data = undefined;
      if (!('hook' in res)) res.hook = undefined;
      expressHandle.call(this, req, res, next ?? createFinalHandler(req, res));
    },
  };
  for (const [name, value] of Object.entries(overrides)) {
    Object.defineProperty(expressApp, name, { value, writable: true, configurable: true, enumerable: true });
  }

  return expressApp;
}
