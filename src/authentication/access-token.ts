import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { GeneralError, NotAuthenticated } from '../errors/index.js';
import type { JwtAlgorithm, JwtOptions } from './declarations.js';

/** Token defaults (REFERENCE-feathers §5, without a made-up audience or issuer). */
export const defaultJwtOptions = {
  algorithm: 'HS256',
  expiresIn: '1d',
  typ: 'access',
} as const satisfies JwtOptions;

const algorithms = new Set<string>(['HS256', 'HS384', 'HS512']);

/** The signing key from a secret; throws a configuration error (500) for an unusable one. */
function keyOf(secret: string | Uint8Array | undefined): Uint8Array {
  if (typeof secret === 'string' && secret.length > 0) return new TextEncoder().encode(secret);
  if (secret instanceof Uint8Array && secret.byteLength > 0) return secret;
  throw new GeneralError("A 'secret' must be provided in your authentication configuration");
}

function algorithmOf(options: JwtOptions): JwtAlgorithm {
  const algorithm = options.algorithm ?? defaultJwtOptions.algorithm;
  if (!algorithms.has(algorithm)) {
    throw new GeneralError(
      `jwtOptions.algorithm '${String(algorithm)}' is not supported; use HS256, HS384 or HS512`,
    );
  }
  return algorithm;
}

/** Checks token options early so that a bad configuration fails at `setup`, not at the first login. */
export function checkJwtOptions(options: JwtOptions): void {
  algorithmOf(options);
  const { expiresIn } = options;
  if (expiresIn !== undefined && typeof expiresIn !== 'string') {
    if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
      throw new GeneralError(
        'jwtOptions.expiresIn must be a positive number of seconds or a duration string',
      );
    }
  }
}

/**
 * Signs `payload` into a compact JWS (the access token) with the HMAC `secret`. Claims from `options`
 * (merged over the defaults by the caller): `sub`, `aud`, `iss`, `jti` (random UUID unless given),
 * `iat` (now) and `exp` (`expiresIn` after now: seconds or a duration string like `'2h'`).
 * Throws `GeneralError` (500) for a missing secret or an unsupported algorithm.
 */
export async function signAccessToken(
  payload: Record<string, unknown>,
  options: JwtOptions,
  secret: string | Uint8Array | undefined,
): Promise<string> {
  const algorithm = algorithmOf(options);
  const key = keyOf(secret);
  const jwt = new SignJWT(payload)
    .setProtectedHeader({ alg: algorithm, typ: options.typ ?? defaultJwtOptions.typ })
    .setIssuedAt()
    .setJti(
      options.jwtid ?? (typeof payload.jti === 'string' ? payload.jti : globalThis.crypto.randomUUID()),
    );
  const expiresIn = options.expiresIn ?? defaultJwtOptions.expiresIn;
  // jose reads a number as an absolute timestamp; plume's number is a lifetime in seconds.
  jwt.setExpirationTime(
    typeof expiresIn === 'number' ? Math.floor(Date.now() / 1000) + Math.floor(expiresIn) : expiresIn,
  );
  if (options.subject !== undefined) jwt.setSubject(options.subject);
  if (options.audience !== undefined) jwt.setAudience(options.audience);
  if (options.issuer !== undefined) jwt.setIssuer(options.issuer);
  return jwt.sign(key);
}

/**
 * Verifies an access token and resolves to its payload. Only the configured algorithm is accepted
 * (so `alg: none` and every other algorithm fail), and the signature, `typ` header, expiry and — when
 * configured — audience and issuer must match. Any failure → `NotAuthenticated` (401) whose message
 * says what failed; a missing secret → `GeneralError` (500).
 */
export async function verifyToken(
  token: string,
  options: JwtOptions,
  secret: string | Uint8Array | undefined,
): Promise<Record<string, unknown>> {
  const algorithm = algorithmOf(options);
  const key = keyOf(secret);
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [algorithm],
      typ: options.typ ?? defaultJwtOptions.typ,
      ...(options.audience === undefined ? {} : { audience: options.audience }),
      ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
    });
    return payload;
  } catch (error: unknown) {
    throw new NotAuthenticated(describeFailure(error), { cause: error });
  }
}

/** A client-facing reason for a rejected token; never includes the token itself. */
function describeFailure(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'Invalid access token: jwt expired';
  if (error instanceof joseErrors.JOSEAlgNotAllowed || error instanceof joseErrors.JOSENotSupported) {
    return 'Invalid access token: algorithm not allowed';
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return 'Invalid access token: invalid signature';
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return `Invalid access token: ${error.claim === 'typ' ? 'wrong token type' : `${error.claim} claim check failed`}`;
  }
  return 'Invalid access token: malformed token';
}
