import { describe, expect, it } from 'vitest';

describe('plume/authentication public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('plume/authentication')).sort()).toEqual([
      'AuthenticationService',
      'AuthenticationStrategy',
      'DEFAULT_ACCOUNT_LIMIT',
      'DEFAULT_HASH_COST',
      'DEFAULT_IP_LIMIT',
      'JWTStrategy',
      'LocalStrategy',
      'accessTokenFromQuery',
      'authenticate',
      'createPasswordHash',
      'defaultJwtOptions',
      'disallow',
      'expressAccessTokenFromQuery',
      'findAuthenticationService',
      'hashPassword',
      'omitProtected',
      'parseAuthenticationMiddleware',
      'passwordHash',
      'protect',
      'readHeader',
    ]);
  });
});
