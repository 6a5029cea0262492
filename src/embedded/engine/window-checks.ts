/**
 * The `$setWindowFields` output specifications checked as MongoDB 7.0 parses them
 * (window_function/window_function_expression.cpp and .h, window_function_shift.cpp), before mingo runs
 * them: mingo answered some of these with code 2 or a JavaScript TypeError, and ran others (`$shift` or
 * `$rank` with a window, `$rank` without a `sortBy`) where MongoDB refuses them.
 */
import { checkOperatorArguments, checkPercentileAccumulator } from './operator-arguments.js';
import { checkWindowBounds } from './window-bounds.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** MongoDB 7.0's window functions (the parser map of window_function_expression.cpp). */
const WINDOW_FUNCTIONS = new Set([
  '$addToSet',
  '$avg',
  '$bottom',
  '$bottomN',
  '$count',
  '$covariancePop',
  '$covarianceSamp',
  '$denseRank',
  '$derivative',
  '$documentNumber',
  '$expMovingAvg',
  '$first',
  '$firstN',
  '$integral',
  '$last',
  '$lastN',
  '$linearFill',
  '$locf',
  '$max',
  '$maxN',
  '$median',
  '$min',
  '$minN',
  '$percentile',
  '$push',
  '$rank',
  '$shift',
  '$stdDevPop',
  '$stdDevSamp',
  '$sum',
  '$top',
  '$topN',
]);
/** `ExpressionFromRankAccumulator`: no window, `{}` as the argument, a one-field sortBy. */
const RANK_FUNCTIONS = new Set(['$rank', '$denseRank', '$documentNumber']);
/** The accumulators whose `sortBy` is a SortPattern (operator-arguments.ts). */
const TOP_BOTTOM = new Set(['$top', '$bottom', '$topN', '$bottomN']);
/** Functions that take every document before the current one and refuse a `window` field. */
const UNWINDOWED = new Set(['$linearFill', '$locf']);

function parseError(message: string): never {
  throw new CommandError(ErrorCodes.FailedToParse, message);
}

/** The one `$`-prefixed window function of an output specification. */
function functionOf(spec: Doc): string {
  const keys = Object.keys(spec);
  const name = keys.find((key) => key.startsWith('$'));
  if (name === undefined) {
    parseError(`Expected a $-prefixed window function${keys.length > 0 ? `, ${keys[0]}` : ''}`);
  }
  if (!WINDOW_FUNCTIONS.has(name)) parseError(`Unrecognized window function, ${name}`);
  for (const key of keys) {
    if (key === name || key === 'window') continue;
    if (WINDOW_FUNCTIONS.has(key)) parseError('Cannot specify two functions in window function spec');
    parseError(`Window function found an unknown argument: ${key}`);
  }
  return name;
}

/**
 * Checks the output specification of `field` against the stage's `sortBy` (undefined when there is none).
 * @throws CommandError FailedToParse (9) for a specification that is not a document
 *   (WindowFunctionStatement::parse), a missing, unknown or second function, an unknown argument,
 *   a window where the function takes none, a missing sortBy; 5371601/5371602/5371603 for the rank
 *   functions; 605001 for `$linearFill` without a one-field sortBy; a malformed `window` as
 *   window-bounds.ts checks it; for `$median` / `$percentile`, the codes of their accumulators.
 */
export function checkWindowOutput(field: string, spec: unknown, sortBy: unknown): void {
  if (!isPlainObject(spec)) parseError(`The field '${field}' must be an object`);
  const name = functionOf(spec);
  const hasWindow = 'window' in spec;
  const sortFields = isPlainObject(sortBy) ? Object.keys(sortBy).length : 0;
  if (RANK_FUNCTIONS.has(name)) {
    if (hasWindow) throw new CommandError(5371601, 'Rank style window functions take no other arguments');
    const arg = spec[name];
    if (!isPlainObject(arg) || Object.keys(arg).length > 0)
      throw new CommandError(5371603, `${name} must be specified with '{}' as the value`);
    if (sortFields !== 1) {
      throw new CommandError(
        5371602,
        `${name} must be specified with a top level sortBy expression with exactly one element`,
      );
    }
  } else if (name === '$shift') {
    if (hasWindow) parseError("$shift does not accept a 'window' field");
    if (!isPlainObject(spec[name])) parseError('Argument to $shift must be an object');
    if (sortBy === undefined) parseError("'$shift' requires a sortBy");
  } else if (UNWINDOWED.has(name)) {
    if (hasWindow) parseError(`'window' field is not allowed in ${name}`);
    if (name === '$linearFill' && sortFields !== 1) {
      throw new CommandError(
        605001,
        `${name} must be specified with a top level sortBy expression with exactly one element`,
      );
    }
  } else if (name === '$expMovingAvg') {
    if (hasWindow || !isPlainObject(spec[name]))
      parseError('$expMovingAvg must have exactly one argument that is an object');
    if (sortBy === undefined) parseError("$expMovingAvg requires an explicit 'sortBy'");
  } else if (name === '$median' || name === '$percentile') {
    checkPercentileAccumulator(name, spec[name]);
  } else if (TOP_BOTTOM.has(name)) {
    checkOperatorArguments(name, spec[name]);
  } else if (name === '$derivative' || name === '$integral') {
    if (sortBy === undefined) parseError(`${name} requires a sortBy`);
    if (sortFields !== 1) parseError(`${name} requires a non-compound sortBy`);
  }
  if (hasWindow) checkWindowBounds(spec['window'], sortBy);
}
