/**
 * The operators that run server-side JavaScript — `$where` in filters, `$function` in expressions,
 * `$accumulator` in `$group` — which the embedded database, having no JavaScript engine, refuses with
 * 238 `NotImplemented` and a message naming the operator, wherever they appear. (mingo tried to call the
 * code string and failed with "fn.body.apply is not a function".)
 */
import { $function as mingoFunction } from 'mingo/operators/expression';
import type { AccumulatorOp, ExpressionOp } from './operator-types.js';
import { isPlainObject } from './values.js';
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

/**
 * `$function`, to register over mingo's. A body that is a JavaScript function cannot come from a client
 * (BSON code arrives as a string or a `Code`): it is mingo's own `$setWindowFields`, which computes its
 * outputs through `$function`, and runs.
 */
const functionExpression: ExpressionOp = (obj, expr, options) => {
  if (isPlainObject(expr) && typeof expr['body'] === 'function') {
    return (mingoFunction as unknown as ExpressionOp)(obj, expr, options);
  }
  throw serverJavaScriptError('$function');
};

export const javascriptExpressions: Record<string, ExpressionOp> = { $function: functionExpression };

/** `$accumulator`, to register over mingo's. */
export const javascriptAccumulators: Record<string, AccumulatorOp> = { $accumulator: refuse('$accumulator') };
