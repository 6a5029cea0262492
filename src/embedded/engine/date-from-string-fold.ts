/**
 * `$dateFromString` checked when the pipeline is parsed. Its argument errors are parse errors in MongoDB
 * (ExpressionDateFromString::parse). And when every argument is a constant, MongoDB evaluates it while it
 * optimizes the pipeline (ExpressionDateFromString::optimize folds it into a constant), so an unreadable
 * constant string fails even on an empty collection, its message under the context Pipeline::optimize
 * adds, `Failed to optimize pipeline :: caused by :: ` (the prefix folded-errors.ts records).
 */
import type { Options } from 'mingo/types';
import { checkDateFromStringArgument, dateFromString } from './date-from-string.js';
import { mingoOptions } from './mingo-options.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

const PREFIX = 'Failed to optimize pipeline :: caused by :: ';

/** Whether `expr` is a constant: literals, `$literal`, arrays and documents of them. */
function isConstant(expr: unknown): boolean {
  if (typeof expr === 'string') return !expr.startsWith('$');
  if (Array.isArray(expr)) return expr.every(isConstant);
  if (!isPlainObject(expr)) return true;
  const keys = Object.keys(expr);
  if (keys.length === 1 && keys[0] === '$literal') return true;
  return !keys.some((key) => key.startsWith('$')) && Object.values(expr).every(isConstant);
}

/**
 * Checks a `$dateFromString` argument as written in a pipeline; `prefix` goes before parse errors.
 * @throws CommandError 40540 / 40541 / 40542 for a malformed argument; for constant arguments, the error
 * evaluating them raises (241 for an unreadable string without `onError`, 40684, 18535/18536, 40517/40485)
 * after `Failed to optimize pipeline :: caused by :: `.
 */
export function checkDateFromString(argument: unknown, prefix = ''): void {
  try {
    checkDateFromStringArgument(argument);
  } catch (error) {
    if (error instanceof CommandError) throw new CommandError(error.code, prefix + error.message);
    throw error;
  }
  if (!Object.values(argument).every(isConstant)) return;
  try {
    dateFromString({}, argument, mingoOptions(undefined, {}) as Options);
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    throw new CommandError(error.code, PREFIX + error.message);
  }
}
