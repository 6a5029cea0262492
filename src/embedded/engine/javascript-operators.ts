/**
 * The operators that run server-side JavaScript — `$where` in filters, `$function` in expressions,
 * `$accumulator` in `$group` — which the embedded database, having no JavaScript engine, refuses with
 * 238 `NotImplemented` and a message naming the operator, wherever they appear. (mingo tried to call the
 * code string and failed with "fn.body.apply is not a function".)
 */
import type { AccumulatorOp, ExpressionOp } from './operator-types.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** The operators that run server-side JavaScript. */
export const SERVER_JAVASCRIPT = new Set(['$where', '$function', '$accumulator']);

/** The error for server-side JavaScript operator `name` (238). */
export function serverJavaScriptError(name: string): CommandError {
  return new CommandError(
    ErrorCodes.NotImplemented,
    `${name} runs server-side JavaScript, which the embedded database does not support`,
  );
}

const refuse = (name: string) => (): never => {
  throw serverJavaScriptError(name);
};

/** `$function`, to register over mingo's. */
export const javascriptExpressions: Record<string, ExpressionOp> = { $function: refuse('$function') };

/** `$accumulator`, to register over mingo's. */
export const javascriptAccumulators: Record<string, AccumulatorOp> = { $accumulator: refuse('$accumulator') };
