import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotAuthenticated } from 'plume/errors';
import { base64url, createAuthApp, SECRET, type AuthApp } from './helpers.js';

const key = new TextEncoder().encode(SECRET);
let ctx: AuthApp;

beforeEach(async () => {
  ctx = createAuthApp({ jwtOptions: { audience: 'https://api.example', issuer: 'plume-tests' } });
  await ctx.app.setup();
});
afterEach(async () => {
  await ctx.app.teardown();
});

/** A token signed like the service's, with changes. */
function sign(
  claims: Record<string, unknown> = {},
  { alg = 'HS256', typ = 'access', secret = key }: { alg?: string; typ?: string; secret?: Uint8Array } = {},
) {
  return new SignJWT({ aud: 'https://api.example', iss: 'plume-tests', sub: '1', ...claims })
    .setProtectedHeader({ alg, typ })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(secret);
}

async function rejection(token: string) {
  const error = await ctx.auth.verifyAccessToken(token).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(NotAuthenticated);
  return error as NotAuthenticated;
}

describe('createAccessToken / verifyAccessToken', () => {
  it('creates an HS256 token with sub, aud, iss, jti, iat and exp one day later, and verifies it', async () => {
    const token = await ctx.auth.createAccessToken({ role: 'admin' }, { subject: '42' });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'access' });
    const payload = await ctx.auth.verifyAccessToken(token);
    expect(payload).toMatchObject({
      role: 'admin',
      sub: '42',
      aud: 'https://api.example',
      iss: 'plume-tests',
    });
    expect(typeof payload.jti).toBe('string');
    expect((payload.exp as number) - (payload.iat as number)).toBe(24 * 60 * 60);
  });

  it('takes expiresIn as seconds or as a duration string', async () => {
    const seconds = decodeJwt(await ctx.auth.createAccessToken({}, { expiresIn: 60 }));
    expect(seconds.exp! - seconds.iat!).toBe(60);
    const hours = decodeJwt(await ctx.auth.createAccessToken({}, { expiresIn: '2h' }));
    expect(hours.exp! - hours.iat!).toBe(7200);
  });

  it('gives every token its own jti', async () => {
    const a = decodeJwt(await ctx.auth.createAccessToken({}));
    const b = decodeJwt(await ctx.auth.createAccessToken({}));
    expect(a.jti).not.toBe(b.jti);
  });

  it('accepts a token crafted with the same key and claims (the test helper is sound)', async () => {
    await expect(ctx.auth.verifyAccessToken(await sign())).resolves.toMatchObject({ sub: '1' });
  });

  it('rejects a token signed with another HMAC algorithm with 401', async () => {
    const error = await rejection(await sign({}, { alg: 'HS512' }));
    expect(error.message).toBe('Invalid access token: algorithm not allowed');
  });

  it('rejects an unsigned alg "none" token crafted by hand with 401', async () => {
    const valid = decodeJwt(await sign());
    const token = `${base64url({ alg: 'none', typ: 'access' })}.${base64url(valid)}.`;
    const error = await rejection(token);
    expect(error.code).toBe(401);
  });

  it('rejects alg "none" with a signature part, and alg "None" spelled differently', async () => {
    const valid = decodeJwt(await sign());
    const signature = (await sign()).split('.')[2];
    await rejection(`${base64url({ alg: 'none', typ: 'access' })}.${base64url(valid)}.${signature}`);
    await rejection(`${base64url({ alg: 'None', typ: 'access' })}.${base64url(valid)}.`);
  });

  it('rejects a token whose header says HS256 but whose payload was changed (signature no longer matches)', async () => {
    const [header, , signature] = (await sign()).split('.');
    const forged = `${header}.${base64url({ ...decodeJwt(await sign()), sub: '2' })}.${signature}`;
    expect((await rejection(forged)).message).toBe('Invalid access token: invalid signature');
  });

  it('rejects a token signed with another secret', async () => {
    const other = new TextEncoder().encode('another-secret-of-enough-length-for-hs256');
    expect((await rejection(await sign({}, { secret: other }))).message).toBe(
      'Invalid access token: invalid signature',
    );
  });

  it('rejects a wrong or missing audience, and a wrong issuer', async () => {
    expect((await rejection(await sign({ aud: 'https://other.example' }))).message).toBe(
      'Invalid access token: aud claim check failed',
    );
    expect((await rejection(await sign({ aud: undefined }))).message).toContain('aud');
    expect((await rejection(await sign({ iss: 'someone-else' }))).message).toBe(
      'Invalid access token: iss claim check failed',
    );
  });

  it('rejects an expired token', async () => {
    const expired = await new SignJWT({ aud: 'https://api.example', iss: 'plume-tests', sub: '1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'access' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(key);
    expect((await rejection(expired)).message).toBe('Invalid access token: jwt expired');
  });

  it('rejects a token of another type (typ header), e.g. one signed for another purpose', async () => {
    expect((await rejection(await sign({}, { typ: 'JWT' }))).message).toBe(
      'Invalid access token: wrong token type',
    );
  });

  it('rejects garbage, empty strings and non-strings with 401 and never echoes the token', async () => {
    for (const token of ['garbage', 'a.b.c', '...', `${base64url({ alg: 'HS256' })}.bm90IGpzb24.x`]) {
      const error = await rejection(token);
      expect(error.message).not.toContain(token);
    }
    await rejection('');
    await rejection(42 as unknown as string);
  });
});
