/**
 * The expressions that cut, reverse and interleave arrays — `$slice`, `$reverseArray` and `$zip` — as
 * MongoDB 7.0 evaluates them (src/mongo/db/pipeline/expression.cpp, `ExpressionSlice::evaluate`,
 * `ExpressionReverseArray::evaluate`, `ExpressionZip::parse`/`evaluate`): null when an argument is null
 * or missing, MongoDB's codes for the wrong types. mingo refused a null `$slice` argument, read
 * `{ $reverseArray: [[1, 2]] }` (the list form of one argument) as the array `[[1, 2]]`, and answered its
 * own code 2 for every malformed `$zip`.
 */
import { evalExpr } from 'mingo/core';
import { operandList, type ExpressionOp } from './operator-types.js';
import { numberKind } from './arithmetic.js';
import { soleOperand } from './expression-arity.js';
import { formatDouble, isIntegral32, isNullish, numberOf, typeName, valueText } from './value-strings.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/** An index or count argument of `$slice` as an int. @throws CommandError `numeric`/`integral` codes. */
function sliceInt(value: unknown, ordinal: 'Second' | 'Third', numeric: number, integral: number): number {
  if (numberKind(value) === undefined) {
    const must =
      ordinal === 'Second' ? 'must be a numeric value, but is of type' : 'must be numeric, but is of type';
    throw new CommandError(numeric, `${ordinal} argument to $slice ${must}: ${typeName(value)}`);
  }
  if (!isIntegral32(value)) {
    throw new CommandError(
      integral,
      `${ordinal} argument to $slice can't be represented as a 32-bit integer: ${formatDouble(numberOf(value))}`,
    );
  }
  return numberOf(value);
}

/**
 * `$slice` of its evaluated arguments: `[array, n]` (the first n elements, the last -n when negative) or
 * `[array, position, n]` (n > 0 elements from position, counted from the end when negative); `third`
 * evaluates the third argument, absent in the two-argument form. Also what MongoDB folds when every
 * argument is a constant (folded-errors.ts).
 * @throws CommandError 28724–28729 for the wrong types.
 */
export function sliceOf(array: unknown, second: unknown, third?: () => unknown): unknown {
  if (isNullish(array) || isNullish(second)) return null;
  if (!Array.isArray(array)) {
    throw new CommandError(
      28724,
      `First argument to $slice must be an array, but is of type: ${typeName(array)}`,
    );
  }
  const items = array as unknown[];
  const first = sliceInt(second, 'Second', 28725, 28726);
  if (!third) {
    return first >= 0 ? items.slice(0, first) : items.slice(Math.max(0, items.length + first));
  }
  const start = first < 0 ? Math.max(0, items.length + first) : Math.min(items.length, first);
  const last = third();
  if (isNullish(last)) return null;
  const count = sliceInt(last, 'Third', 28727, 28728);
  if (count <= 0) throw new CommandError(28729, `Third argument to $slice must be positive: ${count}`);
  return items.slice(start, start + count);
}

const slice: ExpressionOp = (obj, expr, options) => {
  const args = operandList(expr);
  const third = args.length < 3 ? undefined : () => evalExpr(obj, args[2], options);
  return sliceOf(evalExpr(obj, args[0], options), evalExpr(obj, args[1], options), third);
};

/** `$reverseArray`: the array's elements in reverse order; null for null or missing, else 34435. */
const reverseArray: ExpressionOp = (obj, expr, options) => {
  const value = evalExpr(obj, soleOperand(expr), options);
  if (isNullish(value)) return null;
  if (!Array.isArray(value)) {
    throw new CommandError(
      34435,
      `The argument to $reverseArray must be an array, but was of type: ${typeName(value)}`,
    );
  }
  return [...(value as unknown[])].reverse();
};

interface ZipSpec {
  inputs: unknown[];
  defaults: unknown[];
  useLongestLength: boolean;
}

/**
 * A `$zip` argument checked as `ExpressionZip::parse` checks it (34460–34467), which MongoDB does when it
 * parses the pipeline (operator-arguments.ts) and the evaluation repeats.
 * @throws CommandError 34460–34467.
 */
export function zipSpec(expr: unknown): ZipSpec {
  if (!isPlainObject(expr)) {
    throw new CommandError(34460, `$zip only supports an object as an argument, found ${typeName(expr)}`);
  }
  const spec: ZipSpec = { inputs: [], defaults: [], useLongestLength: false };
  for (const [name, value] of Object.entries(expr)) {
    if (name === 'inputs' || name === 'defaults') {
      if (!Array.isArray(value)) {
        throw new CommandError(
          name === 'inputs' ? 34461 : 34462,
          `${name} must be an array of expressions, found ${typeName(value)}`,
        );
      }
      spec[name] = value;
    } else if (name === 'useLongestLength') {
      // MongoDB's message names the type of the whole argument, not of the field.
      if (typeof value !== 'boolean')
        throw new CommandError(34463, 'useLongestLength must be a bool, found object');
      spec.useLongestLength = value;
    } else {
      throw new CommandError(34464, `$zip found an unknown argument: ${name}`);
    }
  }
  if (spec.inputs.length === 0) throw new CommandError(34465, '$zip requires at least one input array');
  if (!spec.useLongestLength && spec.defaults.length > 0) {
    throw new CommandError(34466, 'cannot specify defaults unless useLongestLength is true');
  }
  if (spec.defaults.length > 0 && spec.defaults.length !== spec.inputs.length) {
    throw new CommandError(34467, 'defaults and inputs must have the same length');
  }
  return spec;
}

/**
 * `$zip`: the n-th elements of the input arrays side by side, as many rows as the shortest input (the
 * longest with `useLongestLength`, shorter inputs padded with their `defaults` or null); null when an
 * input is null or missing, 34468 when one is not an array.
 */
const zip: ExpressionOp = (obj, expr, options) => {
  const spec = zipSpec(expr);
  const arrays: unknown[][] = [];
  for (const input of spec.inputs) {
    const value = evalExpr(obj, input, options);
    if (isNullish(value)) return null;
    if (!Array.isArray(value)) {
      throw new CommandError(34468, `$zip found a non-array expression in input: ${valueText(value)}`);
    }
    arrays.push(value as unknown[]);
  }
  const lengths = arrays.map((a) => a.length);
  const rows = spec.useLongestLength ? Math.max(...lengths) : Math.min(...lengths);
  const defaults = spec.inputs.map((_, i) =>
    i < spec.defaults.length ? (evalExpr(obj, spec.defaults[i], options) ?? null) : null,
  );
  return Array.from({ length: rows }, (_, row) =>
    arrays.map((array, column) => (row < array.length ? array[row] : defaults[column])),
  );
};

/** The expressions above, to register over mingo's. */
export const arrayExpressions: Record<string, ExpressionOp> = {
  $slice: slice,
  $reverseArray: reverseArray,
  $zip: zip,
};
