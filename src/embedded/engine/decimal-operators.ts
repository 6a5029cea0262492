/**
 * `$divide`, `$mod`, `$round`, `$trunc`, `$ceil`, `$floor` and `$abs` on evaluated arguments, computed
 * exactly as MongoDB 7.0 computes them (src/mongo/db/pipeline/expression.cpp): a decimal operand makes
 * the operation a Decimal128 one (decimal-operations.ts), longs are exact (bigints), and `$round`/`$trunc`
 * of a double go through Decimal128 as MongoDB's do (ties to even). Each returns `undefined` for
 * arguments it does not handle (non-numbers, a wrong count), which the caller hands to mingo for its
 * errors.
 */
import { Decimal128, Long } from 'bson';
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, doubleOf, numberKind, toDec } from './arithmetic.js';
import { exactDouble } from './decimal.js';
import { absDecimal, divideDecimal, moduloDecimal, quantizeDecimal } from './decimal-operations.js';
import { decimalParts, decToParts, roundParts, toDecimal128 } from './decimal-round.js';
import type { DecimalValue, Rounding } from './decimal-round.js';
import { asDouble } from './numbers.js';
import { isIntegral32 } from './value-strings.js';
import { bsonTypeName } from './values.js';
import { CommandError } from '../errors.js';

const nullish = (value: unknown): boolean => value === null || value === undefined;
const isNumber = (value: unknown): boolean => numberKind(value) !== undefined;

/** MongoDB's `coerceToDecimal()`: a decimal as it is, a double at 15 significant digits, integers exact. */
export function asDecimal(value: unknown): DecimalValue {
  if (numberKind(value) === 'decimal') return decimalParts((value as Decimal128).toString());
  return decToParts(toDec(value));
}

const isZero = (value: DecimalValue): boolean => typeof value !== 'string' && value.coef === 0n;

/**
 * What `$divide` and `$mod` share: null when a side is nullish, `undefined` (mingo reports it) for a
 * wrong count or a side that is not a number, `zero` for a zero divisor, and `decimal` on both sides as
 * decimals when either is one; `other` computes every other case from the divisor as a double.
 */
function divideBy(
  args: unknown[],
  zero: () => CommandError,
  decimal: (a: DecimalValue, b: DecimalValue) => DecimalValue,
  other: (a: unknown, b: unknown, divisor: number) => unknown,
): unknown {
  const [a, b] = args;
  if (args.length !== 2) return undefined;
  if (nullish(a) || nullish(b)) return null;
  if (!isNumber(a) || !isNumber(b)) return undefined;
  if (numberKind(a) === 'decimal' || numberKind(b) === 'decimal') {
    const divisor = asDecimal(b);
    if (isZero(divisor)) throw zero();
    return toDecimal128(decimal(asDecimal(a), divisor));
  }
  const divisor = Number(String(b));
  if (divisor === 0) throw zero();
  return other(a, b, divisor);
}

/** `$divide`: a decimal when either side is one, a double otherwise (longs read as doubles). */
const divide = (args: unknown[]): unknown =>
  divideBy(
    args,
    () => new CommandError(16608, "can't $divide by zero"),
    divideDecimal,
    (a, _b, divisor) => asDouble(Number(String(a)) / divisor),
  );

/**
 * `$mod`: a decimal remainder when either side is a decimal; C's `fmod` on doubles when the dividend is
 * a double or the divisor a double that is not a 32-bit integer; otherwise a long when either is a long,
 * an int when not (an integral double divisor counts as an int). `x mod -1` is 0 (mongoSafeMod).
 */
const modulo = (args: unknown[]): unknown =>
  divideBy(
    args,
    () => new CommandError(16610, "can't $mod by zero"),
    moduloDecimal,
    (a, b, divisor) => {
      if (numberKind(a) === 'double' || (numberKind(b) === 'double' && !isIntegral32(b))) {
        return asDouble(Number(String(a)) % divisor);
      }
      const right = numberKind(b) === 'long' ? BigInt(String(b)) : BigInt(divisor);
      const remainder = right === -1n ? 0n : BigInt(String(a)) % right;
      if (numberKind(a) === 'long' || numberKind(b) === 'long') return Long.fromBigInt(remainder);
      return Number(remainder);
    },
  );

const ROUNDING: Record<string, Rounding> = {
  $round: 'half-even',
  $trunc: 'toward-zero',
  $ceil: 'ceiling',
  $floor: 'floor',
};

/** A double's value as MongoDB's `Decimal128(double, kRoundTo34Digits)`. */
const doubleAsDecimal = (n: number): DecimalValue => roundParts(decToParts(exactDouble(n), Object.is(n, -0)));

/**
 * `$round`/`$trunc` of `value` to `place` decimal places (negative: to tens, hundreds …), as
 * evaluateRoundOrTrunc does: decimals and doubles quantized to 10^-place through Decimal128 (ties to
 * even for `$round`), ints and longs unchanged for a place ≥ 0 and exact otherwise.
 */
function roundOrTrunc(name: string, args: unknown[]): unknown {
  if (args.length < 1 || args.length > 2) return undefined;
  const [value, precision] = args;
  if (nullish(value)) return null;
  if (!isNumber(value)) {
    throw new CommandError(51081, `${name} only supports numeric types, not ${bsonTypeName(value)}`);
  }
  let place = 0;
  if (args.length === 2) {
    if (nullish(precision)) return null;
    if (!isNumber(precision)) return undefined;
    if (!isIntegral32(precision)) {
      // Two spaces: MongoDB's message has them.
      throw new CommandError(51082, `precision argument to  ${name} must be a integral value`);
    }
    place = Number(String(precision));
    if (place < -20 || place > 100) {
      throw new CommandError(
        51083,
        `cannot apply ${name} with precision value ${place} value must be in [-20, 100]`,
      );
    }
  }
  return quantizeNumber(name, value, -place);
}

/** `value` quantized to 10^exp as `name` rounds, in MongoDB's result type. */
function quantizeNumber(name: string, value: unknown, exp: number): unknown {
  const mode = ROUNDING[name]!;
  switch (numberKind(value)) {
    case 'decimal': {
      const dec = decimalParts((value as Decimal128).toString());
      if (dec === 'Infinity' || dec === '-Infinity') return value;
      return toDecimal128(quantizeDecimal(dec, exp, mode));
    }
    case 'double': {
      const n = doubleOf(value);
      if (!Number.isFinite(n)) return value;
      if (name === '$ceil' || name === '$floor')
        return asDouble(name === '$ceil' ? Math.ceil(n) : Math.floor(n));
      return asDouble(Number(toDecimal128(quantizeDecimal(doubleAsDecimal(n), exp, mode)).toString()));
    }
    default: {
      if (exp <= 0) return value;
      const n = BigInt(String(value));
      const quantized = quantizeDecimal(decToParts({ coef: n, exp: 0 }), exp, mode);
      const out = typeof quantized === 'string' ? 0n : quantized.coef * 10n ** BigInt(quantized.exp);
      const signed = typeof quantized !== 'string' && quantized.negative ? -out : out;
      if (signed < INT64_MIN || signed > INT64_MAX) {
        throw new CommandError(
          51080,
          `invalid conversion from Decimal128 result in ${name} resulting from arguments: [${String(value)}, ${String(-exp)}]`,
        );
      }
      if (numberKind(value) === 'long' || signed > INT32_MAX) return Long.fromBigInt(signed);
      // MongoDB casts back to a 32-bit int without checking below INT32_MIN.
      return signed < INT32_MIN ? Number(BigInt.asIntN(32, signed)) : Number(signed);
    }
  }
}

/** `$ceil`/`$floor`: decimals quantized to an integer toward ±∞, doubles by Math, ints and longs as they are. */
function ceilOrFloor(name: string, args: unknown[]): unknown {
  if (args.length !== 1) return undefined;
  const [value] = args;
  if (nullish(value)) return null;
  if (!isNumber(value)) return undefined;
  return quantizeNumber(name, value, 0);
}

/** `$abs`: a decimal's sign cleared, a long's exact (error 28680 for its minimum), an int's minimum a long. */
function absolute(args: unknown[]): unknown {
  if (args.length !== 1) return undefined;
  const [value] = args;
  if (nullish(value)) return null;
  switch (numberKind(value)) {
    case 'decimal':
      return toDecimal128(absDecimal(decimalParts((value as Decimal128).toString())));
    case 'double':
      return asDouble(Math.abs(Number(String(value))));
    case 'long': {
      const n = BigInt(String(value));
      if (n === INT64_MIN) throw new CommandError(28680, "can't take $abs of long long min");
      return Long.fromBigInt(n < 0n ? -n : n);
    }
    case 'int': {
      const n = Math.abs(Number(String(value)));
      return n > Number(INT32_MAX) ? Long.fromNumber(n) : n;
    }
    default:
      return undefined;
  }
}

/**
 * The exact number operators, each given its evaluated arguments as an array (a single argument
 * wrapped), returning `undefined` when mingo's operator should take the call.
 */
export const exactNumberOperators: Record<string, (args: unknown[]) => unknown> = {
  $divide: divide,
  $mod: modulo,
  $round: (args) => roundOrTrunc('$round', args),
  $trunc: (args) => roundOrTrunc('$trunc', args),
  $ceil: (args) => ceilOrFloor('$ceil', args),
  $floor: (args) => ceilOrFloor('$floor', args),
  $abs: absolute,
};
