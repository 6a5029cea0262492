import { GeneralError } from '../errors/index.js';

/** A koa-style middleware: does its work around `next()`, which runs the rest of the chain. */
export type Middleware<C> = (context: C, next: () => Promise<void>) => Promise<void> | void;

/**
 * Composes middleware into one function `(context, last?) => Promise<void>` that runs them in order,
 * each around the rest of the chain, ending with `last` (DESIGN.md: "one koa-style compose()").
 *
 * Calling `next()` twice from one middleware rejects with a `GeneralError`, because running the rest of
 * the chain twice would call a service method twice.
 */
export function compose<C>(
  middleware: readonly Middleware<C>[],
): (context: C, last?: () => Promise<void>) => Promise<void> {
  const chain = middleware.slice();
  return function run(context: C, last?: () => Promise<void>): Promise<void> {
    let called = -1;
    const dispatch = async (index: number): Promise<void> => {
      if (index <= called) throw new GeneralError('next() called multiple times');
      called = index;
      const fn = chain[index];
      if (fn === undefined) {
        if (last !== undefined) await last();
        return;
      }
      await fn(context, () => dispatch(index + 1));
    };
    return dispatch(0);
  };
}
