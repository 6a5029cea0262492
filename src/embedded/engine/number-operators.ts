/**
 * The operators that compare or compute numbers, made to treat BSON's number types as MongoDB does.
 * mingo only knows JS numbers: stored int64s are bson `Long`s and decimals `Decimal128`s. Comparisons and
 * most arithmetic get "plain" views in which each `Long` within ±2^53 is a JS number (numbers.ts);
 * addition, subtraction, multiplication, `$sum` and `$avg` are computed here with MongoDB's result types
 * (arithmetic.ts), `$divide`, `$mod`, `$round`, `$trunc`, `$ceil`, `$floor` and `$abs` exactly, decimals
 * and longs included (decimal-operators.ts), and roots, exponentials, logarithms, `$pow` of decimals and
 * the trigonometric operators with MongoDB's decimal results and domain errors (math-operators.ts).
 */
import { evalExpr } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import type { Options } from 'mingo/types';
import { Decimal128, Long } from 'bson';
import type { AccumulatorOp, ExpressionOp, QueryOp } from './operator-types.js';
import { add, multiply, numberKind, subtract, widestOf } from './arithmetic.js';
import type { NumberKind } from './arithmetic.js';
import { exactNumberOperators } from './decimal-operators.js';
import { soleOperand } from './expression-arity.js';
import { mathOperators } from './math-operators.js';
import { modQuery } from './mod-query.js';
import { pathOperators } from './path-operators.js';
import { WHOLE_VALUE } from './query-path.js';
import { asDouble, plainFields, plainNumbers } from './numbers.js';
import { rangeExpression } from './range-expression.js';
import { SumState } from './sum-state.js';
import { CommandError } from '../errors.js';

const expressions = expressionOperators as unknown as Record<string, ExpressionOp>;
const accumulators = accumulatorOperators as unknown as Record<string, AccumulatorOp>;

/**
 * A query operator that compares the field's int64 values (and the operand's) as numbers; on
 * query-path.ts's {@link WHOLE_VALUE}, the tested value's.
 */
export function numericQuery(op: QueryOp): QueryOp {
  return (selector, value, options) => {
    const predicate = op(selector, plainNumbers(value), options);
    if (selector === WHOLE_VALUE) return (obj) => predicate(plainNumbers(obj));
    const paths = [selector];
    return (obj) => predicate(plainFields(obj, paths));
  };
}

/** An evaluated value as an expression that evaluates to it (numbers, dates … evaluate to themselves). */
const literal = (value: unknown): unknown =>
  value === null ||
  value === undefined ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  value instanceof Date
    ? value
    : { $literal: value };

const evaluate = (obj: unknown, expr: unknown, options: Options): unknown => evalExpr(obj, expr, options);

/**
 * An expression operator that sees its arguments' int64 values as numbers. Field paths resolve against the
 * pipeline's root document, not the `obj` an operator is given, so the arguments are evaluated here and
 * handed on as literals.
 */
function numericExpression(op: ExpressionOp): ExpressionOp {
  return (obj, expr, options) => callPlain(op, obj, evaluate(obj, expr, options), options);
}

function callPlain(op: ExpressionOp, obj: unknown, evaluated: unknown, options: Options): unknown {
  const args = plainNumbers(evaluated);
  return op(obj, Array.isArray(args) ? args.map(literal) : literal(args), options);
}

/** A JS number result as a value of MongoDB's result type (computed in double precision). */
function castTo(kind: NumberKind, n: number): unknown {
  // JS arithmetic can give -0 where MongoDB's integer arithmetic gives 0 (-4 % 2).
  if (n === 0 && (kind === 'int' || kind === 'long')) n = 0;
  switch (kind) {
    case 'int':
      if (!Number.isInteger(n)) return n;
      return numberKind(n) === 'int' ? n : Long.fromNumber(n);
    case 'long':
      return Number.isInteger(n) ? Long.fromNumber(n) : n;
    case 'decimal':
      return Decimal128.fromString(String(n));
    default:
      return asDouble(n);
  }
}

const sameAsFirst = (kinds: (NumberKind | undefined)[]): NumberKind | undefined => kinds[0];
const doubleUnlessDecimal = (kinds: (NumberKind | undefined)[]): NumberKind =>
  kinds.includes('decimal') ? 'decimal' : 'double';

/**
 * The type MongoDB gives each operator's result, from its arguments' types: `$abs`, `$ceil`, `$floor`,
 * `$round` and `$trunc` keep their argument's; `$divide`, `$sqrt`, `$exp` and the logarithms give doubles
 * (decimals for a decimal); `$mod` and `$pow` the widest argument type. (The conversions are convert.ts's.)
 */
const RESULT_KIND: Record<string, (kinds: (NumberKind | undefined)[]) => NumberKind | undefined> = {
  ...Object.fromEntries(['$abs', '$ceil', '$floor', '$round', '$trunc'].map((n) => [n, sameAsFirst])),
  ...Object.fromEntries(
    ['$divide', '$sqrt', '$exp', '$ln', '$log', '$log10'].map((n) => [n, doubleUnlessDecimal]),
  ),
  $mod: widestOf,
  $pow: (kinds) => (kinds.includes('decimal') || kinds.includes('double') ? widestOf(kinds) : undefined),
};

/**
 * `$pow` of integers, as 7.0's ExpressionPow: exact, an int while it fits 32 bits (both arguments ints), a
 * long while it fits 64, a double beyond or for a negative exponent — except that a base of 1 or -1 stays
 * an integer for any exponent (expression.cpp). (0 to a negative power is refused before, as 28764.)
 */
function integerPower(base: unknown, exponent: unknown): unknown {
  const e = BigInt(String(exponent));
  const b = BigInt(String(base));
  const ints = numberKind(base) === 'int' && numberKind(exponent) === 'int';
  const integer = (result: bigint): unknown => {
    if (ints && result >= -2147483648n && result <= 2147483647n) return Number(result);
    if (result >= -(2n ** 63n) && result < 2n ** 63n) return Long.fromBigInt(result);
    return asDouble(Number(result));
  };
  if (b === 1n) return integer(1n);
  if (b === -1n) return integer(e % 2n === 0n ? 1n : -1n);
  if (e < 0n || e > 63n) return asDouble(Math.pow(Number(b), Number(e)));
  return integer(b ** e);
}

const ROUNDING = new Set(['$round', '$trunc']);

/** An operator computed by mingo on plain numbers whose result is then typed as MongoDB types it. */
function typedExpression(name: string, op: ExpressionOp): ExpressionOp {
  const kindOf = RESULT_KIND[name]!;
  return (obj, expr, options) => {
    let evaluated = evaluate(obj, expr, options);
    // `{ $trunc: x }` and `{ $round: x }` are MongoDB's short form of `[x, 0]`; mingo takes only the array.
    if (ROUNDING.has(name) && !Array.isArray(evaluated)) evaluated = [evaluated];
    const args = Array.isArray(evaluated) ? (evaluated as unknown[]) : [evaluated];
    const kinds = args.map(numberKind);
    if (name === '$mod' && kinds[0] && kinds[1] && Number(String(args[1])) === 0) {
      throw new CommandError(16610, "can't $mod by zero");
    }
    if (name === '$pow' && args.length === 2 && kinds[0] && kinds[1]) {
      if (Number(String(args[0])) === 0 && Number(String(args[1])) < 0)
        throw new CommandError(28764, '$pow cannot take a base of 0 and a negative exponent');
      if (!kindOf(kinds)) return integerPower(args[0], args[1]);
    }
    const result = callPlain(op, obj, evaluated, options);
    const kind = kindOf(kinds);
    return typeof result === 'number' && kind ? castTo(kind, result) : result;
  };
}

/**
 * An operator computed here (decimal-operators.ts, math-operators.ts); what that does not take
 * (non-numbers, a wrong argument count, `$pow` without a decimal) goes to mingo's operator, through
 * {@link typedExpression} when MongoDB types its result, which reports the errors.
 */
function exactExpression(name: string, exact: (args: unknown[]) => unknown): ExpressionOp {
  const fallback = RESULT_KIND[name]
    ? typedExpression(name, expressions[name]!)
    : numericExpression(expressions[name]!);
  return (obj, expr, options) => {
    // An array operand lists the arguments; anything else is the one argument (even an array it yields).
    const args = Array.isArray(expr)
      ? (evaluate(obj, expr, options) as unknown[])
      : [evaluate(obj, expr, options)];
    const result = exact(args);
    return result === undefined ? fallback(obj, expr, options) : result;
  };
}

/**
 * An operator whose arguments at `positions` are indexes or counts: those are seen as JS numbers (a stored
 * `Double(1)` or `Long(1)` index works), the others (arrays, strings) are handed on untouched so that
 * elements passed through keep their types.
 */
function numericArguments(op: ExpressionOp, positions: readonly number[]): ExpressionOp {
  return (obj, expr, options) => {
    const args = evaluate(obj, expr, options);
    if (!Array.isArray(args)) return callPlain(op, obj, args, options);
    return op(
      obj,
      args.map((a, i) => literal(positions.includes(i) ? plainNumbers(a) : a)),
      options,
    );
  };
}

/** Operators that take indexes or counts, and the positions of those arguments. */
const INDEX_ARGUMENTS: Record<string, readonly number[]> = {
  $arrayElemAt: [1],
  $substr: [1, 2],
  $substrCP: [1, 2],
  $substrBytes: [1, 2],
  $indexOfCP: [2, 3],
  $indexOfBytes: [2, 3],
  $toDate: [0],
};

/**
 * The values an accumulator works on: its expression evaluated per document, missing as null (mingo's
 * `$push`), or the collection itself when mingo hands over already evaluated values (`expr` null).
 */
export function collect(collection: unknown[], expr: unknown, options: Options): unknown[] {
  return accumulators['$push']!(collection, expr, options) as unknown[];
}

/**
 * `$stdDevPop`/`$stdDevSamp`, which MongoDB computes in double precision whatever the input
 * (accumulator_std_dev.cpp: `getDouble()` of each number, a double result): every number, decimals
 * and longs included, is handed to mingo's accumulator as a double. With fewer than `least` numbers
 * (1 for the population, 2 for the sample) the answer is null, where mingo's is NaN or 0.
 */
function doubleAccumulator(op: AccumulatorOp, least: number): AccumulatorOp {
  return (collection, expr, options) => {
    const values = collect(collection, expr, options).map((v) => (isNumber(v) ? Number(String(v)) : v));
    if (values.filter((v) => typeof v === 'number').length < least) return null;
    const result = op(values, null, options);
    // A whole deviation (0, 1) is still a double, which a bare JS number would not encode as.
    return typeof result === 'number' ? asDouble(result) : result;
  };
}

const isNumber = (value: unknown): boolean => numberKind(value) !== undefined;

/** The `$sum` and `$avg` state (sum-state.ts) of `values`, in order; anything but a number is ignored. */
function sumOf(values: unknown[]): SumState {
  const state = new SumState(false);
  for (const value of values) state.add(value);
  return state;
}

/**
 * `$add`/`$subtract`/`$multiply` with MongoDB's result types; anything but numbers (dates, wrong types)
 * goes to mingo's operator, which handles dates and reports errors.
 */
function arithmetic(name: '$add' | '$subtract' | '$multiply'): ExpressionOp {
  const fallback = numericExpression(expressions[name]!);
  return (obj, expr, options) => {
    const args = evaluate(obj, expr, options);
    if (!Array.isArray(args) || !args.every(isNumber)) {
      if (Array.isArray(args) && args.some((v) => v === null || v === undefined)) return null;
      return fallback(obj, expr, options);
    }
    if (name === '$add') return add(args);
    if (name === '$multiply') return multiply(args);
    return args.length === 2 ? subtract(args[0], args[1]) : fallback(obj, expr, options);
  };
}

/** Query operators that compare numbers inside their operand (registered over mingo's). */
export const numberQueryOperators: Record<string, QueryOp> = {
  $mod: modQuery,
  $elemMatch: numericQuery(pathOperators['$elemMatch']!),
  $size: numericQuery(pathOperators['$size']!),
};

const PLAIN_EXPRESSIONS = ['$cmp', '$eq', '$gt', '$gte', '$lt', '$lte', '$ne', '$toString'];

/**
 * Expression operators registered over mingo's. (`$sum`, `$avg`, `$min`, `$max` used as expressions are
 * the accumulators below: mingo calls them with the evaluated operand.)
 */
export const numberExpressions: Record<string, ExpressionOp> = {
  ...Object.fromEntries(PLAIN_EXPRESSIONS.map((name) => [name, numericExpression(expressions[name]!)])),
  ...Object.fromEntries(
    Object.keys(RESULT_KIND).map((name) => [name, typedExpression(name, expressions[name]!)]),
  ),
  ...Object.fromEntries(
    Object.entries({ ...exactNumberOperators, ...mathOperators }).map(([name, exact]) => [
      name,
      exactExpression(name, exact),
    ]),
  ),
  ...Object.fromEntries(
    Object.entries(INDEX_ARGUMENTS).map(([name, at]) => [name, numericArguments(expressions[name]!, at)]),
  ),
  $range: rangeExpression(expressions['$range']!),
  // `{ $isNumber: [x] }` is the list form of `{ $isNumber: x }`, which mingo read as an array.
  $isNumber: (obj, expr, options) => isNumber(evaluate(obj, soleOperand(expr), options)),
  $add: arithmetic('$add'),
  $subtract: arithmetic('$subtract'),
  $multiply: arithmetic('$multiply'),
};

/** Accumulators registered over mingo's. */
export const numberAccumulators: Record<string, AccumulatorOp> = {
  $sum: (collection, expr, options) =>
    typeof expr === 'number'
      ? multiply([expr, collection.length])
      : sumOf(collect(collection, expr, options)).sum(),
  $avg: (collection, expr, options) => sumOf(collect(collection, expr, options)).average(),
  $stdDevPop: doubleAccumulator(accumulators['$stdDevPop']!, 1),
  $stdDevSamp: doubleAccumulator(accumulators['$stdDevSamp']!, 2),
};
