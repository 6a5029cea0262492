import type { Application } from 'plume';
import {
  AuthenticationService,
  AuthenticationStrategy,
  JWTStrategy,
  LocalStrategy,
  type AuthenticationRequest,
  type ParseRequest,
  type RateLimitSettings,
} from 'plume/authentication';
import { NotAuthenticated } from 'plume/errors';
import type { ServiceDocs } from 'plume/openapi';
import { Type } from 'plume/schema';

/**
 * The `api-key` strategy: a machine client sends `X-API-Key: <key>`; the key must be one of the
 * configured `authentication['api-key'].keys`. It authenticates a client, not a user, so hooks that
 * need `params.user` (creating a message) still refuse it.
 */
export class ApiKeyStrategy extends AuthenticationStrategy {
  /** How the API description (`/openapi.json`) documents this strategy. */
  readonly securityScheme = { type: 'apiKey', in: 'header', name: 'X-API-Key' };

  override async parse(request: ParseRequest): Promise<AuthenticationRequest | null> {
    const key = request.headers['x-api-key'];
    return key === undefined ? null : { strategy: this.name, apiKey: key };
  }

  override async authenticate(authentication: AuthenticationRequest) {
    const { keys } = this.configuration as { keys?: unknown };
    const key = authentication.apiKey;
    if (typeof key !== 'string' || !Array.isArray(keys) || !keys.includes(key)) {
      throw new NotAuthenticated('Invalid API key');
    }
    return { authentication: { strategy: this.name }, apiClient: { name: 'api-key' } };
  }
}

/** Settings of the example's authentication. */
export interface AuthenticationSettings {
  /** Signs access tokens; at least 32 characters. */
  secret: string;
  /** Accepted `X-API-Key` values; none by default, so the strategy refuses every key. */
  apiKeys: string[];
  /** bcrypt cost of new password hashes (tests lower it). Default 10. */
  hashCost?: number;
  /** Limits of failed logins and API-key guesses per IP and per account. Default: plume's (50 per IP, 10 per account, per 10 minutes). */
  rateLimit?: RateLimitSettings | false;
}

/** `POST /authentication` (login) and `DELETE /authentication[/<token>]` (logout), for the API description. */
const authenticationDocs: ServiceDocs = {
  name: 'Authentication',
  description: 'Log in with email and password (or a token) to get an access token.',
  data: Type.Union([
    Type.Object({ strategy: Type.Literal('local'), email: Type.String(), password: Type.String() }),
    Type.Object({ strategy: Type.Literal('jwt'), accessToken: Type.String() }),
  ]),
  result: Type.Object({
    accessToken: Type.String(),
    authentication: Type.Object({ strategy: Type.String() }),
    user: Type.Optional(Type.Object({ _id: Type.String(), email: Type.String() })),
  }),
  methods: {
    create: { summary: 'Log in' },
    // DELETE /authentication logs out the token of the Authorization header.
    remove: {
      summary: 'Log out (the id, when given, must be the token)',
      authentication: ['jwt'],
      withoutId: true,
    },
  },
};

/** Registers `authentication` with the `local` (email + password), `jwt` and `api-key` strategies. */
export function authentication(settings: AuthenticationSettings) {
  return (app: Application): void => {
    const service = new AuthenticationService(app, {
      secret: settings.secret,
      entity: 'user',
      service: 'users',
      authStrategies: ['jwt', 'local'],
      parseStrategies: ['jwt', 'api-key'],
      jwtOptions: { expiresIn: '1d', audience: 'plume-example', issuer: 'plume-example' },
      local: { usernameField: 'email', passwordField: 'password', hashSize: settings.hashCost ?? 10 },
      'api-key': { keys: settings.apiKeys },
      // Failed attempts answer 429 with Retry-After once used up (docs/authentication.md "Rate limits").
      rateLimit: settings.rateLimit ?? {},
    });
    service.register('jwt', new JWTStrategy());
    service.register('local', new LocalStrategy());
    service.register('api-key', new ApiKeyStrategy());
    app.use('authentication', service, { openapi: authenticationDocs });
  };
}
