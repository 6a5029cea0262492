import { BadRequest } from '../errors/index.js';
import type {
  AroundHook,
  AroundHookMap,
  HookContext,
  HookMap,
  HookMethodMap,
  RegularHook,
} from './declarations.js';

/**
 * The mark an `authenticate` hook of `plume/authentication` carries (`{ strategies }`), so that
 * `plume/openapi` can tell which operations need authentication without importing that module.
 * A registered symbol (`Symbol.for`), so copies of plume in one process agree on it.
 */
export const AUTHENTICATE_MARK = Symbol.for('plume/authentication/authenticate');

type HookKind = 'before' | 'after' | 'error';

/**
 * The hooks registered on one level (the app, or one service), per method name and for `all`.
 * Registration appends; `forMethod` builds the around chain for a method.
 */
export class HookStore {
  private around = new Map<string, AroundHook[]>();
  private regular: Record<HookKind, Map<string, RegularHook[]>> = {
    before: new Map(),
    after: new Map(),
    error: new Map(),
  };
  /** Increases with each registration so cached chains know they are stale. */
  version = 0;

  /**
   * Adds hooks in any of the accepted forms: `{ around, before, after, error }` (each a hook, a list
   * or a method map), a list of around hooks for all methods, or FeathersJS' shorthand, a method map of
   * around hooks (`{ all: [hookB], get: [hookA] }`). A key other than the four hook types names a
   * method (or `all`) and takes around hooks; `isMethod` says which names this level accepts (a
   * service: its hook-enabled methods). Throws `BadRequest` for any other key or a hook that is not a
   * function.
   */
  add(map: HookMap | AroundHook[] | AroundHookMap, isMethod: (name: string) => boolean): void {
    if (typeof map !== 'object' || map === null) {
      throw new BadRequest('hooks() takes { around, before, after, error }, a method map or a list of hooks');
    }
    if (Array.isArray(map)) {
      append(this.around, 'all', map);
    } else {
      for (const [key, value] of Object.entries(map)) {
        if (value === undefined) continue;
        if (key === 'around') addByMethod(this.around, value as AroundHook[] | HookMethodMap<AroundHook>);
        else if (key === 'before' || key === 'after' || key === 'error')
          addByMethod(this.regular[key], value as RegularHook | RegularHook[] | HookMethodMap<RegularHook>);
        else if (key === 'all' || isMethod(key))
          append(this.around, key, (Array.isArray(value) ? value : [value]) as AroundHook[]);
        else
          throw new BadRequest(
            `'${key}' is not a valid hook type (around, before, after, error) nor a hook-enabled method`,
          );
      }
    }
    this.version++;
  }

  /**
   * Every hook registered on this level that runs for `method` (`all` and the method's own), around,
   * before, after and error, in that order. For tools that describe services (e.g. `plume/openapi`).
   */
  list(method: string): (AroundHook | RegularHook)[] {
    const kinds: Map<string, (AroundHook | RegularHook)[]>[] = [
      this.around,
      this.regular.before,
      this.regular.after,
      this.regular.error,
    ];
    return kinds.flatMap((map) => [...get(map, 'all'), ...get(map, method)]);
  }

  /** The around hooks for `method` on this level: around `all`, around `method`, then before/after/error collected into one. */
  forMethod(method: string): AroundHook[] {
    const list = [...get(this.around, 'all'), ...get(this.around, method)];
    const before = [...get(this.regular.before, 'all'), ...get(this.regular.before, method)];
    const after = [...get(this.regular.after, 'all'), ...get(this.regular.after, method)];
    const error = [...get(this.regular.error, method), ...get(this.regular.error, 'all')];
    if (before.length + after.length + error.length > 0) list.push(collect(before, after, error));
    return list;
  }
}

function get<H>(map: Map<string, H[]>, key: string): H[] {
  return map.get(key) ?? [];
}

function append<H>(map: Map<string, H[]>, key: string, hooks: H[]): void {
  for (const hook of hooks) {
    if (typeof hook !== 'function') throw new BadRequest(`A hook for '${key}' is not a function`);
  }
  map.set(key, [...get(map, key), ...hooks]);
}

function addByMethod<H>(map: Map<string, H[]>, value: H | H[] | HookMethodMap<H>): void {
  if (typeof value === 'function' || Array.isArray(value)) {
    append(map, 'all', Array.isArray(value) ? value : [value]);
    return;
  }
  for (const [method, hooks] of Object.entries(value as Record<string, H | H[] | undefined>)) {
    if (hooks !== undefined) append(map, method, Array.isArray(hooks) ? hooks : [hooks]);
  }
}

async function runRegular(self: unknown, hook: RegularHook, context: HookContext): Promise<void> {
  const returned = await hook.call(self, context);
  if (returned !== undefined && returned !== null && returned !== context) Object.assign(context, returned);
}

/**
 * Turns before, after and error hooks into one around hook, which calls each of them with its own
 * `this` (the service). A before hook that sets `context.result` skips the rest of the chain (inner
 * levels and the method); an error hook that sets `context.result` recovers, and the call then
 * succeeds with that result.
 */
function collect(before: RegularHook[], after: RegularHook[], error: RegularHook[]): AroundHook {
  return async function collected(this: unknown, context, next) {
    try {
      context.type = 'before';
      for (const hook of before) await runRegular(this, hook, context);
      context.type = 'around';
      if (context.result === undefined) await next();
      context.type = 'after';
      for (const hook of after) await runRegular(this, hook, context);
      context.type = 'around';
    } catch (thrown: unknown) {
      if (error.length === 0) throw thrown;
      context.original = { ...context };
      context.error = thrown;
      context.result = undefined;
      context.type = 'error';
      for (const hook of error) {
        try {
          await runRegular(this, hook, context);
        } catch (replaced: unknown) {
          context.error = replaced;
        }
      }
      context.type = 'around';
      if (context.result === undefined) throw context.error;
      context.error = undefined;
    }
  };
}
