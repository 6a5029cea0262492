import type { HookContext } from '../core/index.js';
import { BadRequest } from '../errors/index.js';
import type { BeforeOrAroundHook } from './authenticate-hook.js';
import { findAuthenticationService } from './authenticate-hook.js';
import { bcryptHash } from './bcrypt-worker.js';
import { isRecord } from './declarations.js';
import { checkHashCost, DEFAULT_HASH_COST } from './local-strategy.js';

/** Options of the `hashPassword` hook. */
export interface HashPasswordOptions {
  /**
   * bcrypt cost (log2 rounds), 4 to 31. Default: `local.hashSize` of the authentication service
   * (`service`, else the default one), else 10.
   */
  cost?: number;
  /** Path of the authentication service whose `local.hashSize` is the default cost. */
  service?: string;
}

/** The cost configured for the local strategy of the authentication service, if any. */
function configuredCost(context: HookContext, service: string | undefined): number | undefined {
  const found = findAuthenticationService(context.app, service);
  const local: unknown = found === null ? undefined : (found.configuration as Record<string, unknown>).local;
  return isRecord(local) && typeof local.hashSize === 'number' ? local.hashSize : undefined;
}

/**
 * Hashes a password with bcrypt at `cost` (default 10) in a worker thread, so the event loop keeps
 * serving other requests meanwhile. Resolves to the hash (`$2b$…`, 60 characters).
 * Throws `BadRequest` when `password` is not a non-empty string.
 */
export async function createPasswordHash(password: unknown, cost = DEFAULT_HASH_COST): Promise<string> {
  if (typeof password !== 'string' || password === '')
    throw new BadRequest('A password must be a non-empty string');
  return bcryptHash(password, checkHashCost(cost, 'The bcrypt cost'));
}

/**
 * A before (or around) hook for `create`, `update` and `patch` that replaces `data[field]` (default
 * `password`) with its bcrypt hash, for a single record or each record of an array. Records without
 * the field are left alone; the caller's data objects are not changed (the hook works on copies).
 * A field that is not a non-empty string → `BadRequest` (400) naming the field. Other methods pass.
 * Pair it with `protect(field)` (or `resolveExternal` from `plume/schema`) so hashes never reach clients.
 */
export function hashPassword(field = 'password', options: HashPasswordOptions = {}): BeforeOrAroundHook {
  if (options.cost !== undefined) checkHashCost(options.cost, 'hashPassword({ cost })');
  const hashOne = async (item: unknown, cost: number): Promise<unknown> => {
    if (!isRecord(item) || item[field] === undefined) return item;
    const value = item[field];
    if (typeof value !== 'string' || value === '')
      throw new BadRequest(`'${field}' must be a non-empty string`);
    return { ...item, [field]: await bcryptHash(value, cost) };
  };
  return async (context, next) => {
    if (['create', 'update', 'patch'].includes(context.method) && context.data !== undefined) {
      const cost = options.cost ?? configuredCost(context, options.service) ?? DEFAULT_HASH_COST;
      checkHashCost(cost, "The authentication configuration's 'local.hashSize'");
      const { data } = context;
      context.data = Array.isArray(data)
        ? await Promise.all(data.map((item) => hashOne(item, cost)))
        : await hashOne(data, cost);
    }
    if (next !== undefined) await next();
  };
}
