import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { ListenOptions } from 'node:net';
import type { Express, RequestHandler } from 'express';
import type { Application, HookContext, Params, ServiceOptions, UntypedService } from '../core/index.js';

/**
 * What `req.framework` holds: properties that become service `params` for REST calls (spec: "Request
 * params", `req.framework`). plume sets `provider: 'rest'`; `parseAuthentication` adds
 * `authentication`; `authenticate` adds the authenticated entity (e.g. `user`) and `authenticated`.
 * Add single properties (`req.framework.user = …`) or spread the old value; never replace it blindly.
 */
export type FrameworkParams = Params;

/**
 * Express middleware run around one service's REST calls: `app.use(path, before, service, after)`
 * or the service option `framework: { before, after }` (spec: "Server-framework integration API").
 */
export interface ServiceMiddleware {
  /** Run before the service method, in order. */
  before?: RequestHandler[];
  /** Run after it, in order, before the formatter; they see `res.data` and `res.hook`. */
  after?: RequestHandler[];
}

/** Service options with the Express transport's own key. */
export interface FrameworkServiceOptions extends ServiceOptions {
  framework?: ServiceMiddleware;
}

/** One argument of `app.use(path, …)` after the path: middleware, a middleware array, the service or options. */
export type UseArgument = RequestHandler | readonly RequestHandler[] | object;

/**
 * The members `serverFramework(app)` adds or changes on top of a plume `Application` and an Express
 * application (spec: "Server-framework integration API").
 */
export interface FrameworkOverrides {
  /** The app is a Node.js request listener: `http.createServer(app)`, `https.createServer(options, app)`. */
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /**
   * `app.use(path, ...before, service, ...after, options?)`: registers the service (plume) with Express
   * middleware around its REST calls. Middleware functions, arrays, routers and apps without a service
   * go to Express' own `use`.
   */
  use(path: string, ...stack: UseArgument[]): this;
  /**
   * Starts listening like Express' `listen` (same arguments, without a callback), waits until the
   * server listens, runs `app.setup(server)` and resolves to the `http.Server`. Rejects with the
   * server's error (e.g. `EADDRINUSE`).
   */
  listen(port?: number, hostname?: string, backlog?: number): Promise<Server>;
  listen(path: string): Promise<Server>;
  listen(options: ListenOptions): Promise<Server>;
  /** Runs every service's `teardown`, then closes the server that `app.listen` created (if any). */
  teardown(server?: unknown): Promise<this>;
}

/**
 * A plume application that is also a full Express application: `serverFramework(app)` returns it.
 * plume's members (`use` for services, `service`, `hooks`, `setup`, `configure`, …) and Express'
 * (`use` for middleware, `get(path, handler)`, `set`, `engine`, …) both work; `app.get(name)` reads
 * a setting.
 */
export type FrameworkApplication<Services extends object = Record<string, UntypedService>> =
  FrameworkOverrides & Application<Services> & Omit<Express, 'listen' | 'settings'>;

declare global {
  // Augmenting Express' request and response types is done through its global namespace.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Properties that become service params for REST calls (see `FrameworkParams`). */
      framework: FrameworkParams;
      /**
       * Authentication data a middleware may set for `authenticate` (e.g. from an `access_token` query
       * parameter, spec: "Authentication" 5); `req.framework.authentication` takes precedence.
       */
      authentication?: Record<string, unknown>;
    }
    interface Response {
      /** The data the REST formatter sends: the service's `dispatch` or `result`. */
      data?: unknown;
      /** The finished hook context of the service call this response answers. */
      hook?: HookContext;
    }
  }
}
