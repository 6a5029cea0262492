import { MethodNotAllowed } from '../errors/index.js';
import type { BeforeOrAroundHook } from './authenticate-hook.js';

/**
 * A before (or around) hook that rejects calls from some providers with 405 `MethodNotAllowed`
 * (spec: "Authentication" 7). `disallow()` rejects every external call (`params.provider` set);
 * `disallow('rest')` only those from the named providers; `'external'` means any provider and
 * `'server'` means internal calls (no provider).
 */
export function disallow(...providers: string[]): BeforeOrAroundHook {
  const rejects = (provider: unknown): boolean => {
    if (providers.length === 0) return provider !== undefined;
    if (provider === undefined) return providers.includes('server');
    return providers.includes('external') || (typeof provider === 'string' && providers.includes(provider));
  };
  return async (context, next) => {
    const provider = context.params.provider;
    if (rejects(provider)) {
      const who = provider === undefined ? 'internal calls' : `provider '${String(provider)}'`;
      throw new MethodNotAllowed(`Method '${context.method}' on '${context.path}' is not allowed for ${who}`);
    }
    if (next !== undefined) await next();
  };
}
