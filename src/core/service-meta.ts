/** The bookkeeping plume keeps on a registered service, where the registering and calling code meet. */
import type { HookContext, Service, ServiceOptions } from './declarations.js';
import type { HookStore } from './hooks.js';

/** Where plume keeps its bookkeeping on a registered service. */
export const META = Symbol.for('plume/service');

/** Plume's bookkeeping for one registered service. */
export interface ServiceMeta {
  path: string;
  /** The object the user registered. */
  original: Service;
  options: Required<Pick<ServiceOptions, 'methods' | 'events'>> & ServiceOptions;
  hooks: HookStore;
  /** The composed hook chain of each method. */
  chains: Map<string, HookChain>;
}

/** A method's composed hook chain, and the hook versions it was composed at. */
export interface HookChain {
  appVersion: number;
  serviceVersion: number;
  /** Runs the hooks and the method; `null` for a method without hooks (then it is called directly). */
  run: ((context: HookContext) => Promise<void>) | null;
}

/** The plume bookkeeping of a registered service, or `undefined` for an unregistered object. */
export function getServiceMeta(service: unknown): ServiceMeta | undefined {
  if (typeof service !== 'object' || service === null) return undefined;
  return (service as { [META]?: ServiceMeta })[META];
}
