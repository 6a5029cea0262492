import type { HookContext } from '../core/index.js';

/**
 * A schema hook. It works as an around hook (`around: { all: [hook] }`, `next` given) and as a regular
 * hook (`before` for validation and `resolveData`, `after` for `resolveResult`/`resolveExternal`).
 */
export type SchemaHook = (context: HookContext, next?: () => Promise<void>) => Promise<void>;

/** The methods that take data (`create`, `update`, `patch` and custom methods) have a `data` argument. */
export function hasData(method: string): boolean {
  return method !== 'find' && method !== 'get' && method !== 'remove';
}
