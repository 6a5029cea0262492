import { GeneralError } from '../errors/index.js';

/**
 * A koa-style middleware: does its work around `next()`, which runs the rest of the chain. It is
 * called with the `this` the composed function was called with (hooks: the service).
 */
export type Middleware<C> = (context: C, next: () => Promise<void>) => Promise<void> | void;

/**
 * Composes middleware into one function `(context, last?) => Promise<void>` that runs them in order,
 * each around the rest of the chain, ending with `last(context)` (DESIGN.md: "one koa-style compose()").
 *
 * Each middleware is called with the `this` the composed function is called with: service hooks run
 * as `run.call(service, context, last)`, so `this` in a hook is the service (as in FeathersJS);
 * `createHandler` calls it plainly. Calling `next()` twice from one middleware rejects with a
 * `GeneralError`, because running the rest of the chain twice would call a service method twice.
 */
export function compose<C>(
  middleware: readonly Middleware<C>[],
): (this: unknown, context: C, last?: (context: C) => Promise<void>) => Promise<void> {
  const chain = middleware.slice();
  return function run(this: unknown, context: C, last?: (context: C) => Promise<void>): Promise<void> {
    return new ChainRun(chain, context, last, this).dispatch(0);
  };
}

/**
 * One run of a composed chain. A class rather than closures made per run: it runs for every request
 * and service call, and named closures cost more to create (tsx, which the benchmarks run, names each).
 */
class ChainRun<C> {
  readonly #chain: readonly Middleware<C>[];
  readonly #context: C;
  readonly #last: ((context: C) => Promise<void>) | undefined;
  /** The `this` each middleware is called with. */
  readonly #self: unknown;
  #called = -1;

  constructor(
    chain: readonly Middleware<C>[],
    context: C,
    last: ((context: C) => Promise<void>) | undefined,
    self: unknown,
  ) {
    this.#chain = chain;
    this.#context = context;
    this.#last = last;
    this.#self = self;
  }

  /**
   * Runs step `index`: returns the promise its middleware returns rather than awaiting it in an async
   * function of its own, which would add a promise and a turn of the microtask queue per step.
   */
  dispatch(index: number): Promise<void> {
    if (index <= this.#called) return rejected(new GeneralError('next() called multiple times'));
    this.#called = index;
    const fn = this.#chain[index];
    const last = this.#last;
    try {
      if (fn === undefined)
        return last === undefined ? Promise.resolve() : Promise.resolve(last(this.#context));
      // A bound function rather than an arrow: no closure context to allocate besides the function.
      return Promise.resolve(fn.call(this.#self, this.#context, this.dispatch.bind(this, index + 1)));
    } catch (error: unknown) {
      return rejected(error);
    }
  }
}

/** A promise rejected with `error`, whatever was thrown (as an async function would give). */
async function rejected(error: unknown): Promise<never> {
  throw error;
}
