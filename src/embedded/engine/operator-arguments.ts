/**
 * Arguments of the expression operators that take a document of named arguments (`$firstN`/`$lastN`/
 * `$maxN`/`$minN`, `$median`/`$percentile`, the accumulators `$top`/`$bottom`/`$topN`/`$bottomN`, `$let`, `$map`, `$filter`, `$reduce`, `$rand` (none), `$zip`,
 * `$sortArray` (array-expressions.ts, sort-array.ts), the date
 * operators of date-arguments.ts and the field operators of field-operator-arguments.ts), checked as MongoDB
 * 7.0 checks them when it parses the expression, with its codes and messages.
 */
import { zipSpec } from './array-expressions.js';
import { elementText } from './bson-text.js';
import { checkDateArguments, isCheckedDateOperator } from './date-arguments.js';
import { checkBoundName } from './expression-paths.js';
import { checkFieldOperatorArguments, isFieldOperator } from './field-operator-arguments.js';
import { sortArrayOrder } from './sort-array.js';
import { checkSortKeys } from './sort-pattern.js';
import { checkPercentileP } from './percentile-p.js';
import { typeName } from './value-strings.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { VariableScope } from './variable-scope.js';
import { CommandError, ErrorCodes } from '../errors.js';

type Fail = (code: number, message: string) => never;
type Args = Record<string, unknown>;

function checkN(name: string, arg: unknown, fail: Fail): void {
  const code = name === '$firstN' || name === '$lastN' ? 5787801 : 5787900;
  if (!isPlainObject(arg)) fail(code, `specification must be an object; found ${elementText(name, arg)}`);
  for (const key of Object.keys(arg)) {
    if (key !== 'input' && key !== 'n') fail(5787901, `Unknown argument for 'n' operator: ${key}`);
  }
  if (!('n' in arg)) fail(5787906, "Missing value for 'n'");
  if (!('input' in arg)) fail(5787907, "Missing value for 'input'");
}

/**
 * `$top`/`$bottom`/`$topN`/`$bottomN`, as accumulatorNParseArgs and parseAccumulatorTopBottomNSortBy
 * (accumulator_multi.cpp) parse them: `output`, `sortBy` (a document: 10065) and, for the N forms, `n`,
 * nothing else; the sortBy is a SortPattern (sort-pattern.ts: 15974, 15975, 17312, a field path).
 */
function checkTopBottom(name: string, arg: unknown, fail: Fail): void {
  if (!isPlainObject(arg)) fail(5788001, `specification must be an object; found ${elementText(name, arg)}`);
  const single = name === '$top' || name === '$bottom';
  for (const [key, value] of Object.entries(arg)) {
    if (key === 'sortBy' && !isPlainObject(value))
      fail(10065, 'invalid parameter: expected an object (sortBy)');
    if (key !== 'output' && key !== 'sortBy' && (single || key !== 'n'))
      fail(5788002, `Unknown argument to ${name} '${key}'`);
  }
  if (!single && !('n' in arg)) fail(5788003, "Missing value for 'n'");
  if (!('output' in arg)) fail(5788004, "Missing value for 'output'");
  if (!('sortBy' in arg)) fail(5788005, "Missing value for 'sortBy'");
  checkSortKeys(arg['sortBy'] as Args);
}

/**
 * `$median`/`$percentile` as their IDL spec parses them (accumulator_percentile.idl: fields in the
 * document's order, an unknown one 40415, a `method` that is not a string 14 or not 'approximate'
 * BadValue, then a missing one 40414), then `p` (percentile-p.ts).
 */
function checkPercentile(name: string, arg: unknown, fail: Fail): void {
  const code = name === '$median' ? 7436201 : 7436200;
  if (!isPlainObject(arg)) fail(code, `specification must be an object; found ${elementText(name, arg)}`);
  const fields = name === '$median' ? ['input', 'method'] : ['input', 'p', 'method'];
  for (const [key, value] of Object.entries(arg)) {
    if (!fields.includes(key)) fail(40415, `BSON field '${name}.${key}' is an unknown field.`);
    if (key !== 'method') continue;
    if (typeof value !== 'string') {
      fail(
        ErrorCodes.TypeMismatch,
        `BSON field '${name}.method' is the wrong type '${typeName(value)}', expected type 'string'`,
      );
    }
    if (value !== 'approximate')
      fail(ErrorCodes.BadValue, "Currently only 'approximate' can be used as percentile 'method'.");
  }
  for (const field of fields) {
    if (!(field in arg)) fail(40414, `BSON field '${name}.${field}' is missing but a required field`);
  }
}

function checkLet(arg: unknown, fail: Fail, prefix: string): void {
  if (!isPlainObject(arg)) fail(16874, '$let only supports an object as its argument');
  for (const key of Object.keys(arg)) {
    if (key !== 'vars' && key !== 'in') fail(16875, `Unrecognized parameter to $let: ${key}`);
  }
  if (!('vars' in arg)) fail(16876, "Missing 'vars' parameter to $let");
  if (!('in' in arg)) fail(16877, "Missing 'in' parameter to $let");
  const vars = arg['vars'];
  if (!isPlainObject(vars)) fail(10065, 'invalid parameter: expected an object (vars)');
  for (const name of Object.keys(vars)) checkBoundName(name, prefix);
}

function checkAs(arg: Args, prefix: string): void {
  if (typeof arg['as'] === 'string') checkBoundName(arg['as'], prefix);
}

function checkMap(arg: unknown, fail: Fail, prefix: string): void {
  if (!isPlainObject(arg)) fail(16878, '$map only supports an object as its argument');
  for (const key of Object.keys(arg)) {
    if (key !== 'input' && key !== 'as' && key !== 'in')
      fail(16879, `Unrecognized parameter to $map: ${key}`);
  }
  if (!('input' in arg)) fail(16880, "Missing 'input' parameter to $map");
  if (!('in' in arg)) fail(16882, "Missing 'in' parameter to $map");
  checkAs(arg, prefix);
}

function checkFilter(arg: unknown, fail: Fail, prefix: string): void {
  if (!isPlainObject(arg)) fail(28646, '$filter only supports an object as its argument');
  for (const key of Object.keys(arg)) {
    if (!['input', 'as', 'cond', 'limit'].includes(key)) {
      fail(28647, `Unrecognized parameter to $filter: ${key}`);
    }
  }
  if (!('input' in arg)) fail(28648, "Missing 'input' parameter to $filter");
  if (!('cond' in arg)) fail(28650, "Missing 'cond' parameter to $filter");
  checkAs(arg, prefix);
}

function checkReduce(arg: unknown, fail: Fail): void {
  if (!isPlainObject(arg)) {
    fail(40075, `$reduce requires an object as an argument, found: ${bsonTypeName(arg)}`);
  }
  for (const key of Object.keys(arg)) {
    if (!['input', 'initialValue', 'in'].includes(key)) {
      fail(40076, `$reduce found an unknown argument: ${key}`);
    }
  }
  if (!('input' in arg)) fail(40077, "$reduce requires 'input' to be specified");
  if (!('initialValue' in arg)) fail(40078, "$reduce requires 'initialValue' to be specified");
  if (!('in' in arg)) fail(40079, "$reduce requires 'in' to be specified");
}

/** `$rand` takes no arguments: `{}` (or `[]`) only (ExpressionRandom::parse). */
function checkRand(arg: unknown, fail: Fail): void {
  if (!isPlainObject(arg) && !Array.isArray(arg))
    fail(10065, 'invalid parameter: expected an object ($rand)');
  if (Object.keys(arg).length > 0) fail(3040501, '$rand does not currently accept arguments');
}

/** The code of the percentile accumulators for an argument that is not a document (accumulator_percentile.cpp). */
const PERCENTILE_ACCUMULATOR_CODES: Record<string, number> = { $median: 7436100, $percentile: 7429703 };

/**
 * Checks the argument of the accumulator `$median` or `$percentile` (in `$group`, and as a window
 * function, whose parser calls the accumulator's: ExpressionQuantile::parse in
 * window_function_expression.cpp): 7436100 / 7429703 for one that is not a document, then the IDL spec
 * of the expression forms (40415, 40414, 14 / BadValue for a bad `method`) and `p` (7750300–7750303,
 * percentile-p.ts); `scope` is where the accumulator stands.
 * @throws CommandError with MongoDB's code and message.
 */
export function checkPercentileAccumulator(
  name: '$median' | '$percentile',
  arg: unknown,
  scope?: VariableScope,
): void {
  if (!isPlainObject(arg)) {
    throw new CommandError(
      PERCENTILE_ACCUMULATOR_CODES[name]!,
      `specification must be an object; found ${elementText(name, arg)}`,
    );
  }
  checkOperatorArguments(name, arg, '', scope);
}

/** Runs a check whose errors carry no prefix, putting `prefix` before their messages. */
function withPrefix(prefix: string, check: () => unknown): void {
  try {
    check();
  } catch (error) {
    if (error instanceof CommandError) throw new CommandError(error.code, prefix + error.message);
    throw error;
  }
}

/**
 * Checks the argument of expression operator `name`; `prefix` is put before each message; `scope`, where
 * the operator stands, tells which variables are constants (for `$percentile`'s `p`).
 * @throws CommandError with MongoDB's code and message.
 */
export function checkOperatorArguments(name: string, arg: unknown, prefix = '', scope?: VariableScope): void {
  const fail: Fail = (code, message) => {
    throw new CommandError(code, prefix + message);
  };
  switch (name) {
    case '$firstN':
    case '$lastN':
    case '$maxN':
    case '$minN':
      return checkN(name, arg, fail);
    case '$median':
    case '$percentile':
      checkPercentile(name, arg, fail);
      if (name === '$percentile') withPrefix(prefix, () => checkPercentileP((arg as Args)['p'], scope));
      return;
    case '$top':
    case '$bottom':
    case '$topN':
    case '$bottomN':
      return checkTopBottom(name, arg, fail);
    case '$let':
      return checkLet(arg, fail, prefix);
    case '$map':
      return checkMap(arg, fail, prefix);
    case '$filter':
      return checkFilter(arg, fail, prefix);
    case '$reduce':
      return checkReduce(arg, fail);
    case '$rand':
      return checkRand(arg, fail);
    case '$zip':
      return withPrefix(prefix, () => zipSpec(arg));
    case '$sortArray':
      return withPrefix(prefix, () => sortArrayOrder(arg));
  }
  if (isCheckedDateOperator(name)) checkDateArguments(name, arg, prefix);
  if (isFieldOperator(name)) checkFieldOperatorArguments(name, arg, prefix);
}
