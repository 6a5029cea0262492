/**
 * `$convert` and its shorthands (`$toInt`, `$toLong`, `$toDouble`, `$toDecimal`, `$toBool`, `$toDate`,
 * `$toString`, `$toObjectId`) with MongoDB 7.0's conversion table (ExpressionConvert in the server's
 * expression code): which input type converts to which target, and how. mingo's converted to
 * `'decimal'` as a double, read `'0x1F'`, `' 5'` and `'1e3'` as ints, turned an int into a date, had no
 * `$toObjectId` and no `objectId` target, and failed with code 2 where MongoDB fails with 241
 * `ConversionFailure` (which `onError` catches) or 9 `FailedToParse` for a bad `to` (which it does not).
 * Text parsing is number-text.ts; string and date formatting, and dates read from strings, stay with
 * the engine's `$toString` and `$toDate`.
 */
import { Decimal128, Double, Long, ObjectId, Timestamp } from 'bson';
import { evalExpr } from 'mingo/core';
import type { Options } from 'mingo/types';
import { numberKind, toDec } from './arithmetic.js';
import { decimalParts, decToParts, toDecimal128 } from './decimal-round.js';
import { MIN_NORMAL_DOUBLE, parseDecimalText, parseDoubleText, parseIntegerText } from './number-text.js';
import { asDouble } from './numbers.js';
import type { ExpressionOp } from './operator-types.js';
import { formatDouble, isNullish, typeName } from './value-strings.js';
import { isPlainObject } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** BSON type codes by the names `$type` and `$convert` use. */
const TYPE_CODES: Readonly<Record<string, number>> = {
  double: 1,
  string: 2,
  object: 3,
  array: 4,
  binData: 5,
  undefined: 6,
  objectId: 7,
  bool: 8,
  date: 9,
  null: 10,
  regex: 11,
  dbPointer: 12,
  javascript: 13,
  symbol: 14,
  javascriptWithScope: 15,
  int: 16,
  timestamp: 17,
  long: 18,
  decimal: 19,
  minKey: -1,
  maxKey: 127,
};
const TYPE_NAMES = new Map(Object.entries(TYPE_CODES).map(([name, code]) => [code, name]));

function failedToParse(message: string): CommandError {
  return new CommandError(ErrorCodes.FailedToParse, message);
}

function conversionFailure(message: string): CommandError {
  return new CommandError(ErrorCodes.ConversionFailure, `${message} in $convert with no onError value`);
}

/** `to`'s type name (`computeTargetType`). @throws CommandError 2 or 9, which `onError` does not catch. */
function targetType(to: unknown): string {
  if (typeof to === 'string') {
    if (!Object.hasOwn(TYPE_CODES, to))
      throw new CommandError(ErrorCodes.BadValue, `Unknown type name: ${to}`);
    return to;
  }
  if (numberKind(to) !== undefined) {
    const code = Number(String(to));
    if (!Number.isInteger(code)) throw failedToParse("In $convert, numeric 'to' argument is not an integer");
    const name = TYPE_NAMES.get(code);
    if (name === undefined)
      throw failedToParse(`In $convert, numeric value for 'to' does not correspond to a BSON type: ${code}`);
    return name;
  }
  throw failedToParse(`$convert's 'to' argument must be a string or number, but is ${typeName(to)}`);
}

function overflow(shown: string): CommandError {
  return new CommandError(
    ErrorCodes.ConversionFailure,
    `Conversion would overflow target type in $convert with no onError value: ${shown}`,
  );
}

/** A finite decimal's integer part (toward zero), or undefined when far beyond any integer target. */
function decimalIntegerPart(text: string): bigint | undefined {
  const parts = decimalParts(text);
  if (typeof parts === 'string') return undefined;
  const { negative, coef, exp } = parts;
  if (coef === 0n) return 0n;
  if (exp > 25) return undefined;
  const whole = exp >= 0 ? coef * 10n ** BigInt(exp) : coef / 10n ** BigInt(-exp);
  return negative ? -whole : whole;
}

/**
 * A double or decimal cut toward zero to an integer of `bits` bits (`performCastDoubleToInt`,
 * `performCastDoubleToLong`, `performCastDecimalToInt`).
 * @throws CommandError 241 for NaN, infinity, or a value out of the target's range.
 */
function truncateToInteger(value: unknown, bits: 32 | 64): bigint {
  const text = String(value);
  if (/nan/i.test(text)) throw conversionFailure('Attempt to convert NaN value to integer type');
  if (/inf/i.test(text)) throw conversionFailure('Attempt to convert infinity value to integer type');
  if (numberKind(value) === 'decimal') {
    const whole = decimalIntegerPart(text);
    const limit = 2n ** BigInt(bits - 1);
    if (whole === undefined || whole < -limit || whole >= limit) throw overflow(text);
    return whole;
  }
  const n = Number(text);
  // The server compares doubles: an int takes [-2^31, 2^31 - 1], a long [-2^63, 2^63).
  const inRange = bits === 32 ? n >= -(2 ** 31) && n <= 2 ** 31 - 1 : n >= -(2 ** 63) && n < 2 ** 63;
  if (!inRange) throw overflow(formatDouble(n));
  return BigInt(Math.trunc(n));
}

/** An integer input (int, long, bool) or a truncated double/decimal, as an int or long. */
function toInteger(value: unknown, from: string, bits: 32 | 64): number | Long {
  let whole: bigint;
  if (from === 'int' || from === 'long') whole = BigInt(String(value));
  else if (from === 'bool') whole = value ? 1n : 0n;
  else if (from === 'double' || from === 'decimal') whole = truncateToInteger(value, bits);
  else if (from === 'string') return parseIntegerText(value as string, bits);
  else if (from === 'date' && bits === 64) whole = BigInt((value as Date).getTime());
  else throw unsupported(from, bits === 32 ? 'int' : 'long');
  if (bits === 32 && (whole < -(2n ** 31n) || whole >= 2n ** 31n)) throw overflow(String(value));
  return bits === 32 ? Number(whole) : Long.fromBigInt(whole);
}

function unsupported(from: string, to: string): CommandError {
  return conversionFailure(`Unsupported conversion from ${from} to ${to}`);
}

/** A decimal's value as the nearest double (`performCastDecimalToDouble`): out of range is an error. */
function decimalToDouble(value: unknown): number {
  const text = String(value);
  const n = Number(text);
  if (/nan|inf/i.test(text)) return n;
  const nonZero = /[1-9]/.test(text.replace(/E.*$/i, ''));
  if (!Number.isFinite(n) || (nonZero && Math.abs(n) < MIN_NORMAL_DOUBLE)) throw overflow(text);
  return n;
}

/** The operator `name` of `base` applied to `value` as it is. */
function applyOperator(
  base: Readonly<Record<string, unknown>>,
  name: string,
  value: unknown,
  options: Options,
): unknown {
  return (base[name] as ExpressionOp)({}, { $literal: value }, options);
}

/** The conversion of a non-nullish `value` to the type `to` (a name of `TYPE_CODES`). */
function convertValue(value: unknown, to: string, base: Readonly<Record<string, unknown>>, options: Options) {
  const from = typeName(value);
  switch (to) {
    case 'int':
      return toInteger(value, from, 32);
    case 'long':
      return toInteger(value, from, 64);
    case 'double':
      if (from === 'string') return asDouble(parseDoubleText(value as string));
      if (from === 'bool') return new Double(value ? 1 : 0);
      if (from === 'date') return asDouble((value as Date).getTime());
      if (from === 'decimal') return asDouble(decimalToDouble(value));
      if (from === 'int' || from === 'long' || from === 'double') return asDouble(Number(String(value)));
      throw unsupported(from, to);
    case 'decimal':
      if (from === 'string') return parseDecimalText(value as string);
      if (from === 'bool') return Decimal128.fromString(value ? '1' : '0');
      if (from === 'date') return Decimal128.fromString(String((value as Date).getTime()));
      if (from === 'double') return toDecimal128(decToParts(toDec(value)));
      if (from === 'int' || from === 'long' || from === 'decimal')
        return Decimal128.fromString(String(value));
      throw unsupported(from, to);
    case 'bool':
      if (numberKind(value) !== undefined) return !/^-?0(\.0*)?(E[+-]?\d+)?$/i.test(String(value));
      return true;
    case 'date':
      if (from === 'int') throw unsupported(from, to);
      if (from === 'long' || from === 'double' || from === 'decimal') return dateOf(value, from);
      if (from === 'objectId') return (value as ObjectId).getTimestamp();
      if (from === 'date') return value;
      if (from === 'timestamp') return new Date((value as Timestamp).getHighBitsUnsigned() * 1000);
      if (from === 'string') return dateFromText(value as string, base, options);
      throw unsupported(from, to);
    case 'objectId':
      if (from === 'objectId') return value;
      if (from === 'string') return parseObjectId(value as string);
      throw unsupported(from, to);
    case 'string':
      if (from === 'string') return value;
      if (from === 'objectId') return (value as ObjectId).toHexString();
      if (from === 'bool') return value ? 'true' : 'false';
      if (from === 'int' || from === 'long') return String(value);
      if (from === 'double' || from === 'decimal' || from === 'date')
        return applyOperator(base, '$toString', value, options);
      throw unsupported(from, to);
    default:
      throw unsupported(from, to);
  }
}

/**
 * Text read as a date by the engine's `$toDate` (which reads it as `$dateFromString` does); a failure
 * that is not already a MongoDB error becomes 241, which `onError` catches.
 */
function dateFromText(text: string, base: Readonly<Record<string, unknown>>, options: Options): unknown {
  try {
    return applyOperator(base, '$toDate', text, options);
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw new CommandError(
      ErrorCodes.ConversionFailure,
      `Failed to convert in $convert with no onError value: ${(error as Error).message}`,
    );
  }
}

/** Largest distance from the epoch, in ms, that a JavaScript `Date` (and so the engine) can hold. */
const MAX_DATE_MS = 8.64e15;

/** A long, double or decimal count of ms since the epoch as a date (`performCastNumberToDate`). */
function dateOf(value: unknown, from: string): Date {
  const ms = from === 'long' ? BigInt(String(value)) : truncateToInteger(value, 64);
  // MongoDB holds any 64-bit count; a JavaScript Date cannot, so that much is refused, not corrupted.
  if (ms > BigInt(MAX_DATE_MS) || ms < -BigInt(MAX_DATE_MS)) throw overflow(String(value));
  return new Date(Number(ms));
}

/** `OID::parse` under `$convert`'s message. */
function parseObjectId(text: string): ObjectId {
  const fail = (reason: string): CommandError =>
    new CommandError(
      ErrorCodes.ConversionFailure,
      `Failed to parse objectId '${text}' in $convert with no onError value: ${reason}`,
    );
  const length = Buffer.byteLength(text);
  if (length !== 24) throw fail(`Invalid string length for parsing to OID, expected 24 but found ${length}`);
  const bad = /[^0-9a-fA-F]/.exec(text);
  if (bad) throw fail(`Invalid character found in hex string: ${bad[0]}`);
  return ObjectId.createFromHexString(text);
}

const CONVERT_FIELDS = new Set(['input', 'to', 'onError', 'onNull']);

/**
 * The engine's `$convert` and shorthands, over `base` (the engine's other expression operators, whose
 * `$toString` and `$toDate` format values and read dates).
 * @throws CommandError 9/2 for a malformed `$convert` or `to`; 241 for a failed conversion, unless
 *   `onError` is given.
 */
export function conversionExpressions(base: Readonly<Record<string, unknown>>): Record<string, ExpressionOp> {
  const $convert: ExpressionOp = (obj, expr, options) => {
    if (!isPlainObject(expr))
      throw failedToParse(`$convert expects an object of named arguments but found: ${typeName(expr)}`);
    for (const name of Object.keys(expr))
      if (!CONVERT_FIELDS.has(name)) throw failedToParse(`$convert found an unknown argument: ${name}`);
    if (!('input' in expr)) throw failedToParse("Missing 'input' parameter to $convert");
    if (!('to' in expr)) throw failedToParse("Missing 'to' parameter to $convert");
    const to = evalExpr(obj, expr['to'], options);
    const input = evalExpr(obj, expr['input'], options);
    const target = isNullish(to) ? undefined : targetType(to);
    if (isNullish(input)) return 'onNull' in expr ? evalExpr(obj, expr['onNull'], options) : null;
    if (target === undefined) return null;
    try {
      return convertValue(input, target, base, options);
    } catch (error) {
      const caught = error instanceof CommandError && error.code === ErrorCodes.ConversionFailure;
      if (caught && 'onError' in expr) return evalExpr(obj, expr['onError'], options);
      throw error;
    }
  };
  const shorthand =
    (to: string): ExpressionOp =>
    (obj, expr, options) =>
      $convert(
        obj,
        {
          input: Array.isArray(expr) && expr.length === 1 ? (expr[0] as unknown) : expr,
          to: { $literal: to },
        },
        options,
      );
  return {
    $convert,
    $toInt: shorthand('int'),
    $toLong: shorthand('long'),
    $toDouble: shorthand('double'),
    $toDecimal: shorthand('decimal'),
    $toBool: shorthand('bool'),
    $toDate: shorthand('date'),
    $toString: shorthand('string'),
    $toObjectId: shorthand('objectId'),
  };
}
