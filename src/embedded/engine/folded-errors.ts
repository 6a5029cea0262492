/**
 * Errors MongoDB raises while it optimizes a pipeline, before any document is read: an expression whose
 * arguments are all constants is evaluated then ("constant folding"), so `{ $first: 'abc' }` fails with
 * 28689 even on an empty collection, under the prefix `Failed to optimize pipeline :: caused by :: `.
 * mingo evaluates expressions only per document. Only the cases below are folded here ($first/$last,
 * $slice, $bsonSize/$binarySize and the string operators of string-folds.ts); a general folder would have to
 * evaluate every operator exactly as MongoDB does.
 *
 * Sources: answers probed against MongoDB by the mongalayer project (schema/expression/operators/first,
 * last tests); the message format of MongoDB's ExpressionFirst / ExpressionLast evaluation; MongoDB's
 * answers recorded by mongo-java-server (`{ $substr: ['abc', 'abc', 3] }` fails 16034 under the prefix).
 */
import { constantSize } from './size-expressions.js';
import { sliceOf } from './array-expressions.js';
import { constantValues, foldStringExpression } from './string-folds.js';
import { bsonTypeName, isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

const PREFIX = 'Failed to optimize pipeline :: caused by :: ';

/** The value of `expr` when it is a constant that is not an array or null, else undefined. */
function constantScalar(expr: unknown): { value: unknown } | undefined {
  if (isPlainObject(expr)) {
    const keys = Object.keys(expr);
    if (keys.length === 1 && keys[0] === '$literal') return constantScalar(expr['$literal']);
    // An object literal is a constant document when none of its values reads a field or variable.
    if (keys.some((k) => k.startsWith('$'))) return undefined;
    return Object.values(expr).every(isConstant) ? { value: expr } : undefined;
  }
  if (expr === null || expr === undefined || Array.isArray(expr)) return undefined;
  if (typeof expr === 'string' && expr.startsWith('$')) return undefined;
  return { value: expr };
}

/** Whether `expr` reads nothing from a document: literals, `$literal`, constant arrays and objects. */
function isConstant(expr: unknown): boolean {
  if (Array.isArray(expr)) return expr.every(isConstant);
  if (isPlainObject(expr)) {
    const keys = Object.keys(expr);
    if (keys.length === 1 && keys[0] === '$literal') return true;
    return !keys.some((k) => k.startsWith('$')) && Object.values(expr).every(isConstant);
  }
  return !(typeof expr === 'string' && expr.startsWith('$'));
}

/** `$bsonSize`/`$binarySize` of a constant (`'x'`, `[[1]]`, `{ $literal: 5 }`), evaluated as MongoDB folds it. */
function foldSize(name: string, argument: unknown): void {
  const single: unknown = Array.isArray(argument) && argument.length === 1 ? argument[0] : argument;
  if (!isConstant(single)) return;
  const literal = isPlainObject(single) && Object.keys(single)[0] === '$literal';
  try {
    constantSize(name, literal ? single['$literal'] : single);
  } catch (error) {
    if (error instanceof CommandError) throw new CommandError(error.code, PREFIX + error.message);
    throw error;
  }
}

/**
 * `$slice` of constants (`[[1, 2], 'a']`), evaluated as ExpressionNary::optimize folds it; an argument
 * count the parser refuses (28667) is not folded.
 */
function foldSlice(argument: unknown): void {
  if (!Array.isArray(argument) || argument.length < 2 || argument.length > 3) return;
  const values = constantValues(argument);
  if (!values) return;
  try {
    sliceOf(values[0], values[1], values.length === 3 ? () => values[2] : undefined);
  } catch (error) {
    if (error instanceof CommandError) throw new CommandError(error.code, PREFIX + error.message);
    throw error;
  }
}

/**
 * Checks the operators MongoDB would fold into an error: `$first` and `$last` of a constant that is not
 * an array (null is allowed: it answers null), `$bsonSize`/`$binarySize` of a constant of another type
 * (31393, 51276), `$slice` of constants (28724–28729), and the string operators string-folds.ts folds.
 * `argument` is the operator's argument as written.
 * @throws CommandError with the operator's code (28689, 34473, 16034, 51111 …), its message after
 * `Failed to optimize pipeline :: caused by :: `.
 */
export function checkFoldedErrors(name: string, argument: unknown): void {
  if (name === '$bsonSize' || name === '$binarySize') return foldSize(name, argument);
  if (name === '$slice') return foldSlice(argument);
  if (name !== '$first' && name !== '$last') {
    try {
      foldStringExpression(name, argument);
    } catch (error) {
      if (error instanceof CommandError) throw new CommandError(error.code, PREFIX + error.message);
      throw error;
    }
    return;
  }
  if (Array.isArray(argument) && argument.length !== 1) return;
  const single: unknown = Array.isArray(argument) ? argument[0] : argument;
  const constant = constantScalar(single);
  if (!constant) return;
  throw new CommandError(
    28689,
    `${PREFIX}${name}'s argument must be an array, but is ${bsonTypeName(constant.value)}`,
  );
}
