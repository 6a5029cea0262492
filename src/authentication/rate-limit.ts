/**
 * Rate limiting of authentication attempts, per client IP and per account (issue 14: login floods
 * and API-key guessing). Counters live in `rate-limiter-flexible` limiters: in memory by default, or
 * any limiter the app passes (e.g. `RateLimiterRedis` when several processes serve the API).
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GeneralError, TooManyRequests } from '../errors/index.js';
import { isRecord, type RateLimitSettings, type RateLimitWindow } from './declarations.js';

/** Default limit per client IP: 50 failed attempts per 10 minutes. */
export const DEFAULT_IP_LIMIT: Readonly<RateLimitWindow> = { points: 50, duration: 600 };
/** Default limit per account: 10 failed attempts per 10 minutes. */
export const DEFAULT_ACCOUNT_LIMIT: Readonly<RateLimitWindow> = { points: 10, duration: 600 };

/** The two limiters of an authentication service (`null`: that limit is off). */
export interface AttemptLimiters {
  ip: RateLimiterAbstract | null;
  account: RateLimiterAbstract | null;
}

/** Who is attempting: the client IP (if known) and the account (if the strategy names one). */
export interface AttemptKeys {
  ip?: string;
  account?: string;
}

function isLimiter(value: unknown): value is RateLimiterAbstract {
  return isRecord(value) && typeof value.consume === 'function' && typeof value.get === 'function';
}

function createLimiter(
  value: RateLimitWindow | RateLimiterAbstract | false | undefined,
  fallback: Readonly<RateLimitWindow>,
  where: string,
): RateLimiterAbstract | null {
  if (value === false) return null;
  if (isLimiter(value)) return value;
  const { points, duration } = value ?? fallback;
  if (!Number.isInteger(points) || points < 1 || typeof duration !== 'number' || !(duration > 0)) {
    throw new GeneralError(
      `${where} must be false, a rate-limiter-flexible limiter, or { points, duration } with an ` +
        'integer points ≥ 1 and a duration in seconds > 0',
    );
  }
  return new RateLimiterMemory({ points, duration, keyPrefix: where });
}

/**
 * The limiters for the `rateLimit` setting of an authentication configuration: `false` turns both
 * off; otherwise each of `ip` and `account` is `false` (off), a limiter, or `{ points, duration }`
 * (default `DEFAULT_IP_LIMIT` / `DEFAULT_ACCOUNT_LIMIT`). Throws `GeneralError` for anything else.
 */
export function createAttemptLimiters(settings: RateLimitSettings | false | undefined): AttemptLimiters {
  if (settings === false) return { ip: null, account: null };
  const given: unknown = settings;
  if (given !== undefined && !isRecord(given)) {
    throw new GeneralError("The authentication 'rateLimit' option must be false or { ip, account }");
  }
  return {
    ip: createLimiter(settings?.ip, DEFAULT_IP_LIMIT, "'rateLimit.ip'"),
    account: createLimiter(settings?.account, DEFAULT_ACCOUNT_LIMIT, "'rateLimit.account'"),
  };
}

function tooManyAttempts(msBeforeNext: number): TooManyRequests {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new TooManyRequests(`Too many authentication attempts; try again in ${retryAfter} seconds`, {
    data: { retryAfter },
    headers: { 'retry-after': String(retryAfter) },
  });
}

/** The limiters and keys that apply to one attempt. */
function pairs(limiters: AttemptLimiters, keys: AttemptKeys): [RateLimiterAbstract, string][] {
  const list: [RateLimiterAbstract, string][] = [];
  if (limiters.ip !== null && keys.ip !== undefined) list.push([limiters.ip, keys.ip]);
  if (limiters.account !== null && keys.account !== undefined) list.push([limiters.account, keys.account]);
  return list;
}

/**
 * Counts a login attempt before it runs (so a burst of parallel attempts is cut at the limit, not
 * after all of them have been hashed). Resolves to the function to call when the attempt succeeded,
 * which gives the IP its point back and clears the account's count. Throws `TooManyRequests` (429,
 * `Retry-After` in seconds) when a limit is used up; the limiter's own failures are thrown as they are.
 */
export async function reserveAttempt(
  limiters: AttemptLimiters,
  keys: AttemptKeys,
): Promise<() => Promise<void>> {
  const taken: [RateLimiterAbstract, string][] = [];
  for (const [limiter, key] of pairs(limiters, keys)) {
    try {
      await limiter.consume(key);
      taken.push([limiter, key]);
    } catch (rejection: unknown) {
      // Give back what this attempt took from the other limit: it never ran.
      await Promise.all(taken.map(([other, otherKey]) => other.reward(otherKey)));
      if (rejection instanceof RateLimiterRes) throw tooManyAttempts(rejection.msBeforeNext);
      throw rejection;
    }
  }
  return async () => {
    await Promise.all(
      taken.map(([limiter, key]) =>
        limiter === limiters.account ? limiter.delete(key) : limiter.reward(key),
      ),
    );
  };
}

/**
 * For authentication that comes with every request (a token or API key): throws `TooManyRequests`
 * (429) when the IP or account has used up its failed attempts, else resolves.
 */
export async function checkAttempt(limiters: AttemptLimiters, keys: AttemptKeys): Promise<void> {
  for (const [limiter, key] of pairs(limiters, keys)) {
    const state = await limiter.get(key);
    if (state !== null && state.consumedPoints >= limiter.points) throw tooManyAttempts(state.msBeforeNext);
  }
}

/** Counts a failed per-request authentication against the IP and the account. */
export async function countFailure(limiters: AttemptLimiters, keys: AttemptKeys): Promise<void> {
  await Promise.all(
    pairs(limiters, keys).map(([limiter, key]) =>
      limiter.consume(key).catch((rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      }),
    ),
  );
}
