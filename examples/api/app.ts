import { randomBytes } from 'node:crypto';
import type { Db } from 'mongodb';
import { createApp, type Application } from 'plume';
import { serveOpenApi } from 'plume/openapi';
import { createValidator } from 'plume/schema';
import { authentication } from './authentication.js';
import { messageStream } from './stream.js';
import { messages } from './messages.js';
import { userMessages } from './user-messages.js';
import { users } from './users.js';

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
}

/**
 * Registers the example's services on `app` (default: a new plume app; pass a `serverFramework` app
 * to serve it with Express): `users`, `messages`, `messages/stream`, `users/:userId/messages` and
 * `authentication`. The app is not set up: the caller serves it and calls `app.setup(server)`.
 */
export async function createApiApp<A extends Application = Application>(
  settings: ApiSettings,
  app: A = createApp() as A,
): Promise<A> {
  const ajv = createValidator();
  app.configure(users(settings.db, ajv));
  app.configure(messages(settings.db, ajv));
  app.configure(messageStream);
  app.configure(userMessages);
  app.configure(
    authentication({
      secret: settings.secret ?? randomBytes(32).toString('hex'),
      apiKeys: settings.apiKeys ?? [],
      hashCost: settings.hashCost,
    }),
  );
  // GET /openapi.json and the API reference page at GET /docs (docs/openapi.md).
  app.configure(serveOpenApi({ info: { title: 'plume example API', version: '1.0.0' } }));
  return app;
}
