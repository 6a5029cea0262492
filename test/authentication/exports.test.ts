import { describe, expect, it } from 'vitest';

describe('plume/authentication public surface', () => {
  it('exports exactly these names', async () => {
    expect(Object.keys(await import('plume/authentication')).sort()).toEqual([
      'AuthenticationService',
      'AuthenticationStrategy',
      'DEFAULT_HASH_COST',
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
      'protect',
      'readHeader',
    ]);
  });
});
