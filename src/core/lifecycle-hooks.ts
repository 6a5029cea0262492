import { BadRequest } from '../errors/index.js';
import { compose } from './compose.js';
import type { LifecycleContext, LifecycleHook } from './declarations.js';

type Phase = 'setup' | 'teardown';

/**
 * The app-level `setup` and `teardown` hooks (FeathersJS' `app.hooks({ setup, teardown })`), kept
 * apart from the service method hooks: they wrap the app's lifecycle, not a service call, and their
 * context has only `app` and `server`.
 */
export class LifecycleHooks {
  private readonly hooks: Record<Phase, LifecycleHook[]> = { setup: [], teardown: [] };

  /**
   * Takes `setup` and `teardown` out of `map` (each a hook or a list) and returns the other keys, for
   * the method hooks. Throws `BadRequest` for a hook that is not a function.
   */
  take(map: Record<string, unknown>): Record<string, unknown> {
    const rest = { ...map };
    for (const phase of ['setup', 'teardown'] as const) {
      const value = rest[phase];
      delete rest[phase];
      if (value === undefined) continue;
      const list: unknown[] = Array.isArray(value) ? value : [value];
      for (const hook of list) {
        if (typeof hook !== 'function') throw new BadRequest(`A '${phase}' hook is not a function`);
      }
      this.hooks[phase].push(...(list as LifecycleHook[]));
    }
    return rest;
  }

  /** Runs `work(context.server)` inside the hooks of `phase`, in registration order, with `this` = the app. */
  async run(
    phase: Phase,
    context: LifecycleContext,
    work: (server: unknown) => Promise<void>,
  ): Promise<void> {
    await compose(this.hooks[phase]).call(context.app, context, (done) => work(done.server));
  }
}
