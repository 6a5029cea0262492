// The FeathersJS 5 chat guide's app.ts (Express flavour), mongodb.ts and authentication.ts, after the
// renames of docs/migrating-from-feathers.md. `settings` stands in for @feathersjs/configuration.
import { MongoClient } from 'mongodb';
import { createApp, type HookContext as FrameworkHookContext } from 'plume'; // was: { feathers } from '@feathersjs/feathers'
import { AuthenticationService, JWTStrategy, LocalStrategy } from 'plume/authentication'; // was: '@feathersjs/authentication', '@feathersjs/authentication-local'
import { errorHandler, json, notFound, rest, serverFramework, urlencoded } from 'plume/express'; // was: express, { ... } from '@feathersjs/express'
import type { Application } from './declarations.js';
import { message } from './messages.js';
import { user } from './users.js';

export interface ChatSettings {
  mongodb: string;
  secret: string;
}

/** Every hook that ran, in order, for the hooks-order assertions. */
export const hookLog: string[] = [];

const logError = async (context: FrameworkHookContext, next: () => Promise<void>) => {
  try {
    await next();
  } catch (error: unknown) {
    hookLog.push(`logError ${context.path}.${context.method}`);
    throw error;
  }
};

export const mongodb = (app: Application) => {
  const connection = app.get('mongodb') as string;
  const database = new URL(connection).pathname.substring(1);
  const mongoClient = MongoClient.connect(connection).then((client) => {
    app.set('mongoClient', client);
    return client.db(database);
  });
  app.set('mongodbClient', mongoClient);
};

export const authentication = (app: Application) => {
  const authentication = new AuthenticationService(app);
  authentication.register('jwt', new JWTStrategy());
  authentication.register('local', new LocalStrategy());
  app.use('authentication', authentication);
};

export function createChatApp(settings: ChatSettings): Application {
  const app: Application = serverFramework(createApp()); // was: express(feathers())
  app.set('paginate', { default: 10, max: 50 });
  app.set('mongodb', settings.mongodb);
  app.set('authentication', {
    entity: 'user',
    service: 'users',
    secret: settings.secret,
    authStrategies: ['jwt', 'local'],
    jwtOptions: {
      header: { typ: 'access' },
      audience: 'https://yourdomain.com',
      algorithm: 'HS256',
      expiresIn: '1d',
    },
    local: { usernameField: 'email', passwordField: 'password', hashSize: 4 },
  });
  app.use(json());
  app.use(urlencoded({ extended: true }));
  app.configure(rest());
  app.configure(mongodb);
  app.configure(authentication);
  app.configure(user);
  app.configure(message);
  app.use(notFound());
  app.use(errorHandler({ logger: false }));

  app.hooks({
    around: { all: [logError] },
    before: { all: [(context) => void hookLog.push(`app before ${context.path}.${context.method}`)] },
    after: { all: [(context) => void hookLog.push(`app after ${context.path}.${context.method}`)] },
    error: { all: [(context) => void hookLog.push(`app error ${context.path}.${context.method}`)] },
  });
  // Register application setup and teardown hooks here
  app.hooks({
    setup: [
      async (context: FrameworkHookContext, next: () => Promise<void>) => {
        hookLog.push('setup');
        await next();
      },
    ],
    teardown: [
      async (context: FrameworkHookContext, next: () => Promise<void>) => {
        await next();
        await (context.app.get('mongoClient') as MongoClient | undefined)?.close();
        hookLog.push('teardown');
      },
    ],
  });
  return app;
}
