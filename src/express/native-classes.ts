import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';

interface AppClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/** The classes made for an app, to make them once however often it listens. */
const classesByApp = new WeakMap<Express, AppClasses>();

/**
 * A subclass of `Base` whose prototype stands in for `prototype`: same prototype chain and own
 * properties (e.g. Express' `app`), and `constructor` still `Base`, as it was.
 */
function standIn<C extends typeof IncomingMessage | typeof ServerResponse>(Base: C, prototype: object): C {
  const Subclass = class extends Base {};
  Object.setPrototypeOf(Subclass.prototype, Object.getPrototypeOf(prototype) as object);
  Object.defineProperties(Subclass.prototype, {
    ...Object.getOwnPropertyDescriptors(prototype),
    constructor: { value: Base, writable: true, enumerable: false, configurable: true },
  });
  return Subclass;
}

/**
 * An HTTP server for `app`, like the one Express' `app.listen` creates (`http.createServer(app)`),
 * whose request and response objects are born with the app's request and response prototypes.
 *
 * Express gives every request and response its app's prototypes (`app.request`, `app.response`)
 * with `Object.setPrototypeOf`. V8 does not cache the property additions that follow on such an
 * object (Express' router and body parsers add several to every request), so each request and
 * response gets hidden classes of its own and every property access on them, in Express, in Node's
 * HTTP code and in plume, misses its inline cache. Here `app.request` and `app.response` are
 * replaced, once, by the prototypes of `IncomingMessage` and `ServerResponse` subclasses with the
 * same prototype chain and properties, and the server builds its objects with those classes:
 * Express' `setPrototypeOf` then changes nothing and all requests share their hidden classes. The
 * server lets HTTP/1.1 requests without a `Host` header through (`requireHostHeader: false`) for
 * the app to refuse with plume's JSON 400 (RFC 9112 §3.2) rather than Node's empty one.
 */
export function createAppServer(app: Express): Server {
  let classes = classesByApp.get(app);
  if (
    classes === undefined ||
    classes.IncomingMessage.prototype !== app.request ||
    classes.ServerResponse.prototype !== app.response
  ) {
    classes = {
      IncomingMessage: standIn(IncomingMessage, app.request),
      ServerResponse: standIn(ServerResponse, app.response),
    };
    classesByApp.set(app, classes);
    app.request = classes.IncomingMessage.prototype as Express['request'];
    app.response = classes.ServerResponse.prototype as Express['response'];
  }
  // Node.js would answer a request without a Host header with an empty 400; plume answers it as JSON.
  return createServer({ ...classes, requireHostHeader: false }, app);
}
