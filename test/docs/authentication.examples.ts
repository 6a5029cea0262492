/**
 * The examples of docs/authentication.md, type-checked and run by test/docs/examples.test.ts.
 * Keep each function identical to the snippet in the page it comes from.
 */
import type { Db } from 'mongodb';
import { createApp, type Application, type Params } from 'plume';
import {
  accessTokenFromQuery,
  AuthenticationService,
  AuthenticationStrategy,
  authenticate,
  disallow,
  expressAccessTokenFromQuery,
  hashPassword,
  JWTStrategy,
  LocalStrategy,
  parseAuthenticationMiddleware,
  protect,
  readHeader,
  type AuthenticationRequest,
  type ParseRequest,
} from 'plume/authentication';
import { DocDbService } from 'plume/docdb';
import { NotAuthenticated } from 'plume/errors';
import {
  authenticate as authenticateRoute,
  json,
  rest,
  serverFramework,
  type FrameworkApplication,
} from 'plume/express';
import { bodyParser, createHandler, errorHandler, queryParser } from 'plume/http';

/** "A custom strategy": API keys in an `X-Api-Key` header. */
export class ApiKeyStrategy extends AuthenticationStrategy {
  override async parse(request: ParseRequest): Promise<AuthenticationRequest | null> {
    const apiKey = readHeader(request, 'x-api-key');
    return apiKey === undefined ? null : { strategy: this.name, apiKey };
  }

  override async authenticate(authentication: AuthenticationRequest) {
    const keys = this.configuration.keys; // the 'api-key' section of the configuration
    if (
      typeof authentication.apiKey !== 'string' ||
      !Array.isArray(keys) ||
      !keys.includes(authentication.apiKey)
    ) {
      throw new NotAuthenticated('Invalid API key');
    }
    return { authentication: { strategy: this.name }, apiClient: { name: 'reporting' } };
  }
}

/** "Rate limits and password hashing": 100 failed attempts per IP and 5 per account per 15 minutes. */
export function createLimitedAuthentication(app: Application) {
  return new AuthenticationService(app, {
    secret: process.env.PLUME_SECRET,
    entity: 'user',
    service: 'users',
    rateLimit: { ip: { points: 100, duration: 900 }, account: { points: 5, duration: 900 } },
  });
}

/** "Setting up": users, the authentication service and its strategies. */
export function configureAuthentication(app: Application, db: Db) {
  app.use('users', new DocDbService({ Model: db.collection('users') }));
  app.service('users').hooks({
    around: { all: [protect('password')] }, // never send password hashes
    before: {
      find: [authenticate('jwt')],
      get: [authenticate('jwt')],
      create: [hashPassword('password')], // signup stays open
      patch: [authenticate('jwt'), hashPassword('password')],
      update: [disallow('rest')],
      remove: [disallow('rest')],
    },
  });

  const authentication = new AuthenticationService(app, {
    secret: process.env.AUTH_SECRET ?? 'change-me-to-a-long-random-secret',
    entity: 'user',
    service: 'users',
    authStrategies: ['jwt', 'local'], // strategies that may log in (POST /authentication)
    parseStrategies: ['jwt', 'api-key'], // strategies that read request headers
    jwtOptions: { expiresIn: '1h', audience: 'https://example.com', issuer: 'example' },
    'api-key': { keys: ['reporting-key'] },
  });
  authentication.register('jwt', new JWTStrategy());
  authentication.register('local', new LocalStrategy());
  authentication.register('api-key', new ApiKeyStrategy());
  app.use('authentication', authentication);
}

/** "Protecting services": the forms of the hook. */
export const authenticateForms = [
  authenticate('jwt'),
  authenticate('jwt', 'api-key'),
  authenticate({ service: 'admin-authentication', strategies: ['jwt'], allowInternal: false }),
];

/** "Protecting services": a JWT or an API key to create, anyone may read. */
export function registerMessages(app: Application) {
  const messages: Record<string, unknown>[] = [];
  app.use('messages', {
    async find() {
      return messages;
    },
    async create(data: Record<string, unknown>, params: Params) {
      const author = params.user ?? params.apiClient;
      const message = { ...data, author };
      messages.push(message);
      return message;
    },
  });
  app.service('messages').hooks({ before: { create: [authenticate('jwt', 'api-key')] } });
}

/** "Web Standard handler". */
export function createAuthenticatedHandler(app: Application) {
  return createHandler(app, [
    errorHandler(),
    queryParser(),
    bodyParser(),
    parseAuthenticationMiddleware(), // Authorization / X-Api-Key → params.authentication
    accessTokenFromQuery(), // ?access_token=… for links
  ]);
}

/** "Express": services and plain routes. */
export function createExpressApp(db: Db): FrameworkApplication {
  const app = serverFramework(createApp());
  app.use(json());
  app.use(expressAccessTokenFromQuery()); // before rest() and before authenticate
  app.configure(rest()); // also registers parseAuthentication() for the default service
  configureAuthentication(app, db);
  registerMessages(app);

  app.get('/me', authenticateRoute('jwt'), (req, res) => {
    res.json({ user: req.framework.user });
  });
  return app;
}
