import { AUTHENTICATE_MARK, getServiceMeta, type Application } from '../core/index.js';
import type { OpenApiObject, OpenApiOptions } from './declarations.js';

/** What an authentication service looks like from here: its registered strategies. */
interface StrategyHolder {
  strategies: Map<string, unknown>;
}

function isStrategyHolder(value: unknown): value is StrategyHolder {
  return typeof value === 'object' && value !== null && (value as StrategyHolder).strategies instanceof Map;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The security schemes of the app's authentication service (`app.get('defaultAuthentication')`):
 * one per registered strategy that declares a `securityScheme` (the `jwt` strategy: HTTP bearer),
 * or that `options.securitySchemes` names. Strategies without one (e.g. `local`, a login body) are
 * not schemes. Without an authentication service: only `options.securitySchemes`.
 */
export function securitySchemes(app: Application, options: OpenApiOptions): Record<string, OpenApiObject> {
  const schemes: Record<string, OpenApiObject> = {};
  const location = app.get('defaultAuthentication');
  const service = typeof location === 'string' ? app.services[location] : undefined;
  if (isStrategyHolder(service)) {
    for (const [name, strategy] of service.strategies) {
      const declared = (strategy as { securityScheme?: unknown }).securityScheme;
      if (isRecord(declared)) schemes[name] = declared;
    }
  }
  return { ...schemes, ...options.securitySchemes };
}

/**
 * The strategies the first `authenticate` hook of `method` allows (app-wide hooks run first, then the
 * service's own; a later `authenticate` hook passes what the first one authenticated), or
 * `undefined` when no `authenticate` hook runs for it.
 */
export function authenticatedBy(app: Application, service: unknown, method: string): string[] | undefined {
  const hooks = [...app.hookStore.list(method), ...(getServiceMeta(service)?.hooks.list(method) ?? [])];
  for (const hook of hooks) {
    const mark = (hook as { [AUTHENTICATE_MARK]?: { strategies: string[] } })[AUTHENTICATE_MARK];
    if (mark !== undefined) return mark.strategies;
  }
  return undefined;
}
