/**
 * The bitwise expressions `$bitAnd`, `$bitOr`, `$bitXor` and `$bitNot` (new in MongoDB 6.3) on ints and
 * longs, as MongoDB 7.0 computes them (manual, "$bitAnd"; src/mongo/db/pipeline/expression.cpp,
 * `evaluateBitwiseOp` over `SafeNum`, `ExpressionBitNot::evaluateNumericArg`): an int result while every
 * operand is an int, a long as soon as one is a long; null for a null or missing operand; no operand at
 * all gives the operation's identity (`-1` for `$bitAnd`, `0` otherwise). mingo refused every long.
 */
import { evalExpr } from 'mingo/core';
import { Long } from 'bson';
import { operandList, type ExpressionOp } from './operator-types.js';
import { numberKind } from './arithmetic.js';
import { soleOperand } from './expression-arity.js';
import { isNullish, typeName } from './value-strings.js';
import { CommandError, ErrorCodes } from '../errors.js';

type BitOperation = (a: bigint, b: bigint) => bigint;

const OPERATIONS: Record<string, [BitOperation, bigint]> = {
  $bitAnd: [(a, b) => a & b, -1n],
  $bitOr: [(a, b) => a | b, 0n],
  $bitXor: [(a, b) => a ^ b, 0n],
};

/** An int or a long as the BigInt it holds; undefined for any other value. */
function integerOf(value: unknown): bigint | undefined {
  const kind = numberKind(value);
  return kind === 'int' || kind === 'long' ? BigInt(String(value)) : undefined;
}

/** `value` as an int when `isLong` is false, else as a long (64-bit two's complement). */
const typed = (value: bigint, isLong: boolean): unknown =>
  isLong ? Long.fromBigInt(BigInt.asIntN(64, value)) : Number(BigInt.asIntN(32, value));

/** `$bitAnd`/`$bitOr`/`$bitXor` of their operands. @throws CommandError 14 for a non-integer operand. */
function bitwise(name: string): ExpressionOp {
  const [operation, identity] = OPERATIONS[name]!;
  return (obj, expr, options) => {
    let result = identity;
    let isLong = false;
    for (const operand of operandList(expr)) {
      const value = evalExpr(obj, operand, options);
      if (isNullish(value)) return null;
      const n = integerOf(value);
      if (n === undefined) {
        throw new CommandError(ErrorCodes.TypeMismatch, `${name} only supports int and long operands.`);
      }
      isLong ||= numberKind(value) === 'long';
      result = operation(result, n);
    }
    return typed(result, isLong);
  };
}

/**
 * `$bitNot`: the complement of an int or a long, of the same type; null for null or missing.
 * @throws CommandError 28765 for a non-number, 14 for a double or a decimal.
 */
const bitNot: ExpressionOp = (obj, expr, options) => {
  const value = evalExpr(obj, soleOperand(expr), options);
  if (isNullish(value)) return null;
  const kind = numberKind(value);
  if (kind === undefined) {
    throw new CommandError(28765, `$bitNot only supports numeric types, not ${typeName(value)}`);
  }
  const n = integerOf(value);
  if (n === undefined) {
    throw new CommandError(ErrorCodes.TypeMismatch, `$bitNot only supports int and long, not: ${kind}.`);
  }
  return typed(~n, kind === 'long');
};

/** The expressions above, to register over mingo's. */
export const bitExpressions: Record<string, ExpressionOp> = {
  $bitAnd: bitwise('$bitAnd'),
  $bitOr: bitwise('$bitOr'),
  $bitXor: bitwise('$bitXor'),
  $bitNot: bitNot,
};
