import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { createApp, type Application } from 'plume';
import type { RateLimitSettings } from 'plume/authentication';
import { serveOpenApi } from 'plume/openapi';
import { sync } from 'plume/sync';
import { authentication } from './authentication.js';
import { health } from './health.js';
import { messageStream } from './stream.js';
import { messages } from './messages.js';
import { userMessages } from './user-messages.js';
import { users } from './users.js';
import { createValidators } from './validators.js';

/** What the example API needs. */
export interface ApiSettings {
  /** The database holding `users` and `messages`. */
  db: Db;
  /** Signs access tokens. Default: random for each start, so tokens end with the process. */
  secret?: string;
  /** Keys accepted by the `api-key` strategy (`X-API-Key` header). Default: none. */
  apiKeys?: string[];
  /** bcrypt cost of new password hashes. Default 10. */
  hashCost?: number;
  /** Limits of failed authentication attempts (see `plume/authentication`). Default: plume's. */
  rateLimit?: RateLimitSettings | false;
}

/**
 * Registers the example's services on `app` (default: a new plume app; pass a `serverFramework` app
 * to serve it with Express): `users`, `messages`, `messages/stream`, `users/:userId/messages`,
 * `health`, `health/ready` and `authentication`. The app is not set up: the caller serves it and calls `app.setup(server)`.
 */
export async function createApiApp<A extends Application = Application>(
  settings: ApiSettings,
  app: A = createApp() as A,
): Promise<A> {
  const validators = createValidators();
  app.configure(users(settings.db, validators));
  app.configure(messages(settings.db, validators));
  // Service events reach every instance of the API (scale-out), and messages/stream follows them.
  app.configure(sync({ Model: settings.db.collection('plume_sync') }));
  app.configure(messageStream);
  app.configure(userMessages);
  app.configure(health(settings.db));
  app.configure(
    authentication({
      secret: settings.secret ?? randomBytes(32).toString('hex'),
      apiKeys: settings.apiKeys ?? [],
      hashCost: settings.hashCost,
      rateLimit: settings.rateLimit,
    }),
  );
  // GET /openapi.json and the API reference page at GET /docs (docs/openapi.md).
  app.configure(serveOpenApi({ info: { title: 'plume example API', version: '1.0.0' } }));
  return app;
}
