/**
 * The string expression operators that take a list of arguments, evaluated as MongoDB 7.0 evaluates them
 * (src/mongo/db/pipeline/expression.cpp): `$substrBytes` (and its alias `$substr`), `$substrCP`,
 * `$strLenBytes`, `$strLenCP`, `$indexOfBytes`, `$indexOfCP`, `$split`, `$toUpper`, `$toLower` and
 * `$strcasecmp`. Byte operators count UTF-8 bytes, `CP` operators code points; each error has MongoDB's
 * code and message where mingo answers null, counts UTF-16 units or fails with its own message; null and
 * missing are handled as MongoDB does (`$toUpper` of null is "", `$strLenBytes` of null fails 34473).
 * Each operator is a function of its (lazily evaluated) arguments, so that string-folds.ts can fold the
 * calls whose arguments are constants, as MongoDB's optimizer does.
 */
import { evalExpr } from 'mingo/core';
import { numberKind } from './arithmetic.js';
import { operandList, type ExpressionOp } from './operator-types.js';
import {
  coerceToLong,
  coerceToString,
  isIntegral32,
  isNullish,
  numberOf,
  typeName,
  valueText,
} from './value-strings.js';
import { CommandError } from '../errors.js';

/** An operator's arguments: how many were written, and the value of each (evaluated when asked for). */
export interface Arguments {
  count: number;
  get(index: number): unknown;
}

/** A string operator as a function of its arguments. */
export type StringFunction = (args: Arguments) => unknown;

const fail = (code: number, message: string): never => {
  throw new CommandError(code, message);
};

/** Whether `byte` continues a UTF-8 sequence (`10xxxxxx`). */
const isContinuation = (byte: number | undefined): boolean => byte !== undefined && (byte & 0xc0) === 0x80;

/** `$substrBytes: [string, start, length]` (also `$substr`, whose messages name `$substrBytes`). */
function substrBytes(args: Arguments): string {
  const bytes = Buffer.from(coerceToString(args.get(0)), 'utf8');
  const lower = args.get(1);
  const length = args.get(2);
  const op = '$substrBytes';
  if (numberKind(lower) === undefined)
    fail(16034, `${op}:  starting index must be a numeric type (is BSON type ${typeName(lower)})`);
  if (numberKind(length) === undefined)
    fail(16035, `${op}:  length must be a numeric type (is BSON type ${typeName(length)})`);
  const start = coerceToLong(lower);
  if (start < 0) fail(50752, `${op}:  starting index must be non-negative (got: ${start})`);
  // A negative length takes the rest of the string.
  const signedLength = coerceToLong(length);
  const end = start + (signedLength < 0 ? bytes.length : signedLength);
  if (start < bytes.length && isContinuation(bytes[start]))
    fail(28656, `${op}:  Invalid range, starting index is a UTF-8 continuation byte.`);
  if (end < bytes.length && isContinuation(bytes[end]))
    fail(28657, `${op}:  Invalid range, ending index is in the middle of a UTF-8 character.`);
  return start >= bytes.length ? '' : bytes.subarray(start, end).toString('utf8');
}

/** `$substrCP: [string, start, length]`, counted in code points. */
function substrCP(args: Arguments): string {
  const str = coerceToString(args.get(0));
  const lower = args.get(1);
  const length = args.get(2);
  const op = '$substrCP';
  if (numberKind(lower) === undefined)
    fail(34450, `${op}: starting index must be a numeric type (is BSON type ${typeName(lower)})`);
  if (!isIntegral32(lower))
    fail(
      34451,
      `${op}: starting index cannot be represented as a 32-bit integral value: ${valueText(lower)}`,
    );
  if (numberKind(length) === undefined)
    fail(34452, `${op}: length must be a numeric type (is BSON type ${typeName(length)})`);
  if (!isIntegral32(length))
    fail(34453, `${op}: length cannot be represented as a 32-bit integral value: ${valueText(length)}`);
  const start = numberOf(lower);
  const count = numberOf(length);
  if (count < 0) fail(34454, `${op}: length must be a nonnegative integer.`);
  if (start < 0) fail(34455, `${op}: the starting index must be nonnegative integer.`);
  return Array.from(str)
    .slice(start, start + count)
    .join('');
}

/** `$strLenBytes` and `$strLenCP`: the length of a string (anything else, null included, fails). */
function strLen(op: '$strLenBytes' | '$strLenCP', code: number): StringFunction {
  return (args) => {
    const value = args.get(0);
    if (typeof value !== 'string') fail(code, `${op} requires a string argument, found: ${typeName(value)}`);
    return op === '$strLenBytes'
      ? Buffer.byteLength(value as string, 'utf8')
      : Array.from(value as string).length;
  };
}

/**
 * An optional index argument `name` ('starting index', 'ending index') of `op` (`$indexOfBytes`,
 * `$indexOfCP`, `$indexOfArray`) as a number.
 * @throws CommandError 40096 when it is not an integral number, 40097 when it is negative.
 */
export function indexArgument(op: string, value: unknown, name: string): number {
  if (!isIntegral32(value)) {
    // MongoDB's message has no space after the operator name.
    fail(
      40096,
      `${op}requires an integral ${name}, found a value of type: ${typeName(value)}, with value: ${valueText(value)}`,
    );
  }
  const n = numberOf(value);
  if (n < 0) fail(40097, `${op} requires a nonnegative ${name}, found: ${valueText(value)}`);
  return n;
}

/** The string and token of `$indexOfBytes`/`$indexOfCP`, or undefined when the string is null or missing. */
function indexOfInputs(op: string, codes: [number, number], args: Arguments): [string, string] | undefined {
  const input = args.get(0);
  if (isNullish(input)) return undefined;
  if (typeof input !== 'string')
    fail(codes[0], `${op} requires a string as the first argument, found: ${typeName(input)}`);
  const token = args.get(1);
  if (typeof token !== 'string')
    fail(codes[1], `${op} requires a string as the second argument, found: ${typeName(token)}`);
  return [input as string, token as string];
}

/** `$indexOfBytes: [string, token, start?, end?]`: the byte index of the first match, or -1. */
function indexOfBytes(args: Arguments): unknown {
  const op = '$indexOfBytes';
  const inputs = indexOfInputs(op, [40091, 40092], args);
  if (!inputs) return null;
  const input = Buffer.from(inputs[0], 'utf8');
  const start = args.count > 2 ? indexArgument(op, args.get(2), 'starting index') : 0;
  const end =
    args.count > 3 ? Math.min(input.length, indexArgument(op, args.get(3), 'ending index')) : input.length;
  if (start > input.length || end < start) return -1;
  return input.subarray(0, end).indexOf(Buffer.from(inputs[1], 'utf8'), start);
}

/** `$indexOfCP: [string, token, start?, end?]`: the code point index of the first match, or -1. */
function indexOfCP(args: Arguments): unknown {
  const op = '$indexOfCP';
  const inputs = indexOfInputs(op, [40093, 40094], args);
  if (!inputs) return null;
  const [input, token] = inputs;
  const points = Array.from(input);
  const start = args.count > 2 ? indexArgument(op, args.get(2), 'starting index') : 0;
  const end =
    args.count > 3 ? Math.min(points.length, indexArgument(op, args.get(3), 'ending index')) : points.length;
  if (end < start) return -1;
  if (input === '' && token === '') return 0;
  // The token may run past `end`: only where it starts is bounded (stringHasTokenAtIndex).
  let offset = points.slice(0, start).join('').length;
  for (let i = start; i < end; i++) {
    if (input.startsWith(token, offset)) return i;
    offset += points[i]!.length;
  }
  return -1;
}

/** `$split: [string, separator]`: null when either is null or missing. */
function split(args: Arguments): unknown {
  const input = args.get(0);
  const separator = args.get(1);
  if (isNullish(input) || isNullish(separator)) return null;
  const message = (which: string, value: unknown): string =>
    `$split requires an expression that evaluates to a string as a ${which} argument, found: ${typeName(value)}`;
  if (typeof input !== 'string') fail(40085, message('first', input));
  if (typeof separator !== 'string') fail(40086, message('second', separator));
  if (separator === '') fail(40087, '$split requires a non-empty separator');
  return (input as string).split(separator as string);
}

/** ASCII letters only, as boost's case conversions in the C locale change them. */
const upper = (s: string): string => s.replace(/[a-z]+/g, (m) => m.toUpperCase());
const lower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** `$strcasecmp: [a, b]`: -1, 0 or 1, comparing the ASCII-upper-cased UTF-8 bytes. */
function strcasecmp(args: Arguments): number {
  const a = Buffer.from(upper(coerceToString(args.get(0))), 'utf8');
  const b = Buffer.from(upper(coerceToString(args.get(1))), 'utf8');
  return Buffer.compare(a, b);
}

/** Each operator's evaluation, by name. */
export const STRING_FUNCTIONS: Record<string, StringFunction> = {
  $substrBytes: substrBytes,
  $substr: substrBytes,
  $substrCP: substrCP,
  $strLenBytes: strLen('$strLenBytes', 34473),
  $strLenCP: strLen('$strLenCP', 34471),
  $indexOfBytes: indexOfBytes,
  $indexOfCP: indexOfCP,
  $split: split,
  $toUpper: (args) => upper(coerceToString(args.get(0))),
  $toLower: (args) => lower(coerceToString(args.get(0))),
  $strcasecmp: strcasecmp,
};

/** How many arguments each operator takes: [fewest, most] (the parser's fixed or ranged arity). */
const ARITY: Record<string, [number, number]> = {
  $substrBytes: [3, 3],
  $substr: [3, 3],
  $substrCP: [3, 3],
  $strLenBytes: [1, 1],
  $strLenCP: [1, 1],
  $indexOfBytes: [2, 4],
  $indexOfCP: [2, 4],
  $split: [2, 2],
  $toUpper: [1, 1],
  $toLower: [1, 1],
  $strcasecmp: [2, 2],
};

/**
 * Refuses a call of operator `name` with `count` arguments, as MongoDB's parser does: 16020 for a fixed
 * arity, 28667 for `$indexOfBytes`/`$indexOfCP` (2 to 4). The message names `$substrBytes` for `$substr`.
 * @throws CommandError 16020 or 28667.
 */
export function checkStringArity(name: string, count: number): void {
  const [min, max] = ARITY[name]!;
  if (count >= min && count <= max) return;
  const op = name === '$substr' ? '$substrBytes' : name;
  if (min === max) fail(16020, `Expression ${op} takes exactly ${min} arguments. ${count} were passed in.`);
  fail(
    28667,
    `Expression ${op} takes at least ${min} arguments, and at most ${max}, but ${count} were passed in.`,
  );
}

/** The operator `name` for mingo's context: its argument list evaluated as the operator reads it. */
function stringOperator(name: string): ExpressionOp {
  const evaluate = STRING_FUNCTIONS[name]!;
  return (obj, expr, options) => {
    // A single argument that is not an array is the one-argument form (ExpressionNary::parseArguments).
    const list = operandList(expr);
    checkStringArity(name, list.length);
    return evaluate({ count: list.length, get: (i) => evalExpr(obj, list[i], options) });
  };
}

/** The operators above, registered over mingo's (strict-expressions.ts). */
export const stringExpressions: Record<string, ExpressionOp> = Object.fromEntries(
  Object.keys(STRING_FUNCTIONS).map((name) => [name, stringOperator(name)]),
);
