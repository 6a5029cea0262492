/**
 * Addition and multiplication across BSON's number types with MongoDB's result types, for `$inc`/`$mul`
 * and the aggregation operators that add or multiply: the widest operand type wins (int < long < double <
 * decimal); an int result that leaves 32 bits becomes a long, a long result that leaves 64 bits a double
 * (updates refuse it instead). Decimals are computed as MongoDB's Decimal128 does: each step exact, then
 * rounded to 34 significant digits, ties to even (decimal-round.ts); a double meeting a decimal is first
 * rounded to 15 significant digits, as MongoDB converts it.
 */
import { Decimal128, Double, Long } from 'bson';
import { parseDecimal } from './decimal.js';
import { divideDecimal as divideExactly } from './decimal-operations.js';
import { decToParts, roundDec, roundParts, toDecimal128 } from './decimal-round.js';
import { asDouble } from './numbers.js';
import type { Dec } from './decimal.js';
import { bsonTag, bsonTypeName } from './values.js';

/** MongoDB's number types, narrowest first. */
export type NumberKind = 'int' | 'long' | 'double' | 'decimal';

const WIDTH: Record<NumberKind, number> = { int: 0, long: 1, double: 2, decimal: 3 };
/** The bounds of MongoDB's int (32 bits) and long (64 bits), as bigints. */
export const INT32_MIN = -(2n ** 31n);
export const INT32_MAX = 2n ** 31n - 1n;
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * MongoDB's `trueValue()` of a number: whether it is not zero, exactly for every type (a `Decimal128`
 * such as `1E-7000` is not zero though it rounds to 0 as a double). Undefined for a value that is not a
 * number.
 */
export function nonZeroNumber(value: unknown): boolean | undefined {
  const kind = numberKind(value);
  if (kind === undefined) return undefined;
  const text = (value as { toString(): string }).toString();
  if (kind === 'decimal') return !/^[-+]?0(\.0*)?(E[-+]?\d+)?$/i.test(text);
  if (kind === 'long') return text !== '0';
  return Number(text) !== 0;
}

/** The number type of a value, or undefined when it is not a number. */
export function numberKind(value: unknown): NumberKind | undefined {
  // A JS number is an int when the BSON encoder would write it as one (values.ts bsonTypeName).
  if (typeof value === 'number') return bsonTypeName(value) as 'int' | 'double';
  switch (bsonTag(value)) {
    case 'Long':
      return 'long';
    case 'Decimal128':
      return 'decimal';
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
    default:
      return undefined;
  }
}

/** An integral number of any BSON type as a JS number (`Long(2)`, `Double(2)`, `2`), or undefined. */
export function integralValue(value: unknown): number | undefined {
  if (numberKind(value) === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) ? n : undefined;
}

/**
 * A BSON number (as `numberKind` recognises) as an exact decimal, as MongoDB's `numberDecimal()` reads
 * it: a double rounded to 15 significant digits (`Decimal128(double)`), NaN and infinities as their
 * names. Throws nothing for numbers; not for other values.
 */
export function toDec(value: unknown): Dec {
  switch (numberKind(value)) {
    case 'decimal':
      return parseDecimal((value as Decimal128).toString());
    case 'double': {
      const n = Number(value);
      if (Number.isNaN(n)) return 'NaN';
      if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
      return parseDecimal(n.toPrecision(15));
    }
    default:
      return { coef: BigInt(String(value)), exp: 0 };
  }
}

function fromDec(dec: Dec): Decimal128 {
  return toDecimal128(typeof dec === 'string' ? dec : roundParts(decToParts(dec)));
}

function addDec(a: Dec, b: Dec): Dec {
  if (a === 'NaN' || b === 'NaN') return 'NaN';
  if (typeof a === 'string' || typeof b === 'string') {
    if (typeof a === 'string' && typeof b === 'string' && a !== b) return 'NaN';
    return typeof a === 'string' ? a : b;
  }
  const exp = Math.min(a.exp, b.exp);
  const scale = (d: { coef: bigint; exp: number }): bigint => d.coef * 10n ** BigInt(d.exp - exp);
  return { coef: scale(a) + scale(b), exp };
}

function multiplyDec(a: Dec, b: Dec): Dec {
  if (a === 'NaN' || b === 'NaN') return 'NaN';
  if (typeof a === 'string' || typeof b === 'string') {
    const finite = typeof a === 'string' ? b : a;
    if (typeof finite !== 'string' && finite.coef === 0n) return 'NaN';
    const negative = [a, b].filter((d) => d === '-Infinity' || (typeof d !== 'string' && d.coef < 0n)).length;
    return negative % 2 === 1 ? '-Infinity' : 'Infinity';
  }
  return { coef: a.coef * b.coef, exp: a.exp + b.exp };
}

/** What to do when a long result leaves 64 bits: MongoDB's aggregation gives a double, updates fail. */
export type LongOverflow = 'double' | 'throw';

/** Thrown by {@link add}/{@link multiply} for a long overflow when asked to (`'throw'`). */
export class LongOverflowError extends RangeError {}

/**
 * MongoDB's `coerceToDouble()` of a number of any BSON type: longs beyond 2^53 rounded, decimals to the
 * nearest double, a double's negative zero kept (`String(-0)` is `'0'`).
 */
export function doubleOf(value: unknown): number {
  if (typeof value === 'number') return value;
  const tag = bsonTag(value);
  return tag === 'Double' || tag === 'Int32' ? (value as Double).value : Number(String(value));
}

function combine(
  values: readonly unknown[],
  kind: NumberKind,
  onOverflow: LongOverflow,
  ops: {
    dec: (a: Dec, b: Dec) => Dec;
    big: (a: bigint, b: bigint) => bigint;
    num: (a: number, b: number) => number;
  },
  identity: number,
): number | Double | Long | Decimal128 {
  // Rounded after every step, as MongoDB adds (or multiplies) one operand after another.
  if (kind === 'decimal') {
    return fromDec(values.map(toDec).reduce((a, b) => roundDec(ops.dec(a, b)), toDec(identity)));
  }
  if (kind === 'double') return asDouble(values.map(doubleOf).reduce(ops.num, identity));
  const result = values.map((v) => BigInt(String(v))).reduce(ops.big, BigInt(identity));
  if (kind === 'int' && result >= INT32_MIN && result <= INT32_MAX) return Number(result);
  if (result >= INT64_MIN && result <= INT64_MAX) return Long.fromBigInt(result);
  if (onOverflow === 'throw') throw new LongOverflowError('integer overflow');
  return asDouble(values.map(doubleOf).reduce(ops.num, identity));
}

/** The widest of number types (int < long < double < decimal); an unknown one counts as a double. */
export function widestOf(kinds: readonly (NumberKind | undefined)[]): NumberKind {
  let kind: NumberKind = 'int';
  for (const k of kinds) {
    const known = k ?? 'double';
    if (WIDTH[known] > WIDTH[kind]) kind = known;
  }
  return kind;
}

/** The widest number type among `values` (all of which must be numbers). */
export function widestKind(values: readonly unknown[]): NumberKind {
  return widestOf(values.map(numberKind));
}

/**
 * The sum of numbers of any BSON type, typed as MongoDB types it.
 * @throws LongOverflowError when a long sum leaves 64 bits and `onOverflow` is `'throw'`.
 */
export function add(
  values: readonly unknown[],
  onOverflow: LongOverflow = 'double',
): number | Double | Long | Decimal128 {
  return combine(
    values,
    widestKind(values),
    onOverflow,
    { dec: addDec, big: (a, b) => a + b, num: (a, b) => a + b },
    0,
  );
}

/**
 * The product of numbers of any BSON type, typed as MongoDB types it.
 * @throws LongOverflowError when a long product leaves 64 bits and `onOverflow` is `'throw'`.
 */
export function multiply(
  values: readonly unknown[],
  onOverflow: LongOverflow = 'double',
): number | Double | Long | Decimal128 {
  return combine(
    values,
    widestKind(values),
    onOverflow,
    { dec: multiplyDec, big: (a, b) => a * b, num: (a, b) => a * b },
    1,
  );
}

/**
 * `a − b` for numbers of any BSON type, typed as MongoDB types it. Doubles are subtracted, not added
 * negated, so that `-0.0 - 0` is -0.0 as in MongoDB; an int is negated as `0 - b`, as -0 would be a double.
 */
export function subtract(a: unknown, b: unknown): number | Double | Long | Decimal128 {
  if (widestKind([a, b]) === 'double') return asDouble(doubleOf(a) - doubleOf(b));
  const negated =
    numberKind(b) === 'decimal'
      ? multiply([b, -1])
      : numberKind(b) === 'long'
        ? (b as Long).negate()
        : 0 - Number(b);
  return add([a, negated]);
}

/**
 * `value ÷ divisor` as a decimal, rounded to decimal128's 34 significant digits, ties to even (`$avg`'s
 * `total.divide(Decimal128(count))`).
 */
export function divideDecimal(value: unknown, divisor: number): Decimal128 {
  return toDecimal128(divideExactly(decToParts(toDec(value)), decToParts(toDec(divisor))));
}

/** A zero of `value`'s number type (what `$mul` leaves in a field that did not exist). */
export function zeroLike(value: unknown): number | Double | Long | Decimal128 {
  const kind = numberKind(value);
  if (kind === 'decimal') return Decimal128.fromString('0');
  if (kind === 'long') return Long.ZERO;
  return kind === 'double' ? asDouble(0) : 0;
}

/** `$bit`'s bitwise operations. */
export type BitOperation = 'and' | 'or' | 'xor';

/**
 * `a and|or|xor b` for ints and longs (`$bit`): a long when either is a long, an int otherwise.
 * Callers check that both are ints or longs.
 */
export function bitwise(operation: BitOperation, a: unknown, b: unknown): number | Long {
  const x = BigInt(String(a));
  const y = BigInt(String(b));
  const result = operation === 'and' ? x & y : operation === 'or' ? x | y : x ^ y;
  if (numberKind(a) === 'long' || numberKind(b) === 'long') return Long.fromBigInt(BigInt.asIntN(64, result));
  return Number(BigInt.asIntN(32, result));
}
