/**
 * The operators of exponents, logarithms, roots and angles on evaluated arguments, as MongoDB 7.0
 * evaluates them (src/mongo/db/pipeline/expression.cpp, expression_trigonometric.h): a decimal argument
 * gives a decimal of 34 digits (decimal-functions.ts, decimal-trigonometry.ts), ints, longs and doubles
 * a double from C's `<math.h>`; arguments outside a function's domain fail with MongoDB's codes.
 * Each returns `undefined` for what it does not handle (a wrong count, a non-number), which the caller
 * hands to mingo for its errors.
 */
import { Decimal128 } from 'bson';
import { doubleOf, numberKind } from './arithmetic.js';
import { divideDecimal } from './decimal-operations.js';
import { asDecimal } from './decimal-operators.js';
import { float, isZero, logDecimal, powDecimal, sqrtDecimal } from './decimal-functions.js';
import { expDecimal } from './decimal-exponential.js';
import { lnDecimal, log10Decimal } from './decimal-logarithm.js';
import { decimalParts, roundParts, toDecimal128 } from './decimal-round.js';
import type { DecimalParts, DecimalValue } from './decimal-round.js';
import { int, sub } from './decimal-float.js';
import { atan2Decimal, decimalTrigonometry } from './decimal-trigonometry.js';
import { asDouble } from './numbers.js';
import { formatDouble } from './value-strings.js';
import { CommandError } from '../errors.js';

type Operator = (args: unknown[]) => unknown;

const nullish = (value: unknown): boolean => value === null || value === undefined;
const isNumber = (value: unknown): boolean => numberKind(value) !== undefined;
const isDecimal = (value: unknown): value is Decimal128 => numberKind(value) === 'decimal';
const decimalOf = (value: Decimal128): DecimalValue => decimalParts(value.toString());

/** Whether a decimal is above zero (`Decimal128::isGreater(kNormalizedZero)`: NaN is not). */
const positive = (x: DecimalValue): boolean =>
  x === 'Infinity' || (typeof x !== 'string' && !x.negative && x.coef !== 0n);
/** Whether a decimal has its sign bit set (`isNegative()`: −0 and −∞ too). */
const signBit = (x: DecimalValue): boolean => x === '-Infinity' || (typeof x !== 'string' && x.negative);

/** `f` of the one numeric argument; null for a nullish one, undefined (mingo's errors) otherwise. */
function unary(f: (value: unknown) => unknown): Operator {
  return (args) => {
    if (args.length !== 1) return undefined;
    const [value] = args;
    if (nullish(value)) return null;
    return isNumber(value) ? f(value) : undefined;
  };
}

/** `f` of two numeric arguments, the same way. */
function binary(f: (a: unknown, b: unknown) => unknown): Operator {
  return (args) => {
    if (args.length !== 2) return undefined;
    const [a, b] = args;
    if (nullish(a) || nullish(b)) return null;
    return isNumber(a) && isNumber(b) ? f(a, b) : undefined;
  };
}

/**
 * `$ln` and `$log10`: a decimal above zero through `decimal`; anything else (a double, a decimal zero,
 * negative or NaN) as a double, refused with `code` unless above zero or NaN.
 */
function logarithm(
  name: string,
  code: number,
  decimal: (x: DecimalValue) => DecimalValue,
  double: (n: number) => number,
): Operator {
  return unary((value) => {
    if (isDecimal(value) && positive(decimalOf(value))) return toDecimal128(decimal(decimalOf(value)));
    const n = doubleOf(value);
    if (!(n > 0) && !Number.isNaN(n)) {
      throw new CommandError(code, `${name}'s argument must be a positive number, but is ${formatDouble(n)}`);
    }
    return asDouble(double(n));
  });
}

const squareRoot = unary((value) => {
  const refuse = (): never => {
    throw new CommandError(28714, "$sqrt's argument must be greater than or equal to 0");
  };
  if (isDecimal(value)) {
    const x = decimalOf(value);
    if (signBit(x) && !isZero(x)) refuse();
    return toDecimal128(sqrtDecimal(x));
  }
  const n = doubleOf(value);
  if (n < 0) refuse();
  return asDouble(Math.sqrt(n));
});

/** `$log`: decimals when either side is one and both are in the domain, doubles (and the errors) otherwise. */
const logWithBase = binary((value, base) => {
  if (isDecimal(value) || isDecimal(base)) {
    const x = asDecimal(value);
    const b = asDecimal(base);
    if (positive(x) && positive(b) && !isOne(b)) return toDecimal128(logDecimal(x, b));
  }
  const n = doubleOf(value);
  const b = doubleOf(base);
  if (!(n > 0) && !Number.isNaN(n)) {
    throw new CommandError(28758, `$log's argument must be a positive number, but is ${formatDouble(n)}`);
  }
  if (!(b > 0 && b !== 1) && !Number.isNaN(b)) {
    throw new CommandError(
      28759,
      `$log's base must be a positive number not equal to 1, but is ${formatDouble(b)}`,
    );
  }
  return asDouble(Math.log(n) / Math.log(b));
});

/** Whether a decimal equals 1 (`1`, `1.00`, `0.1E1`). */
function isOne(x: DecimalValue): boolean {
  if (typeof x === 'string' || x.negative || x.exp > 0) return false;
  return x.coef === 10n ** BigInt(-x.exp);
}

/** `$pow` when a side is a decimal (the other cases stay with the typed operator). */
const decimalPower: Operator = (args) => {
  const [base, exponent] = args;
  if (
    args.length !== 2 ||
    !(isDecimal(base) || isDecimal(exponent)) ||
    !isNumber(base) ||
    !isNumber(exponent)
  ) {
    return undefined;
  }
  const x = asDecimal(base);
  const y = asDecimal(exponent);
  if (isZero(x) && signBit(y))
    throw new CommandError(28764, '$pow cannot take a base of 0 and a negative exponent');
  return toDecimal128(powDecimal(x, y));
};

/** Domain bounds of the bounded trigonometric operators: [lower, upper], or (lower, upper) when open. */
const BOUNDS: Record<string, [number, number, 'closed' | 'open']> = {
  $acos: [-1, 1, 'closed'],
  $asin: [-1, 1, 'closed'],
  $atanh: [-1, 1, 'closed'],
  $acosh: [1, Infinity, 'closed'],
  $cos: [-Infinity, Infinity, 'open'],
  $sin: [-Infinity, Infinity, 'open'],
  $tan: [-Infinity, Infinity, 'open'],
};

/** A decimal compared with a bound (±1 or ±∞): −1, 0 or 1. */
function compareWith(x: DecimalValue, bound: number): number {
  if (x === 'Infinity') return bound === Infinity ? 0 : 1;
  if (x === '-Infinity') return bound === -Infinity ? 0 : -1;
  if (typeof x === 'string' || !Number.isFinite(bound)) return bound > 0 ? -1 : 1;
  return Math.sign(Number(sub(float(x), int(bound), 40).m));
}

/** A double compared with a bound: −1, 0 or 1. */
const compareDouble = (n: number, bound: number): number => (n === bound ? 0 : n < bound ? -1 : 1);

/** `$sin` … `$atanh`: NaN passes through, an argument outside the bounds fails with 50989. */
function trigonometric(name: string, double: (n: number) => number): Operator {
  const bounds = BOUNDS[name];
  return unary((value) => {
    const decimal = isDecimal(value) ? decimalOf(value) : undefined;
    const n = doubleOf(value);
    if (decimal === 'NaN' || Number.isNaN(n)) return value;
    if (bounds) {
      const [lower, upper, kind] = bounds;
      const compare = (bound: number): number =>
        decimal !== undefined ? compareWith(decimal, bound) : compareDouble(n, bound);
      const low = compare(lower);
      const high = compare(upper);
      const inside = kind === 'closed' ? low >= 0 && high <= 0 : low > 0 && high < 0;
      if (!inside) {
        const shown = decimal !== undefined ? (value as Decimal128).toString() : formatDouble(n);
        const [open, close] = kind === 'closed' ? ['[', ']'] : ['(', ')'];
        throw new CommandError(
          50989,
          `cannot apply ${name} to ${shown}, value must be in ${open}${formatDouble(lower)},${formatDouble(upper)}${close}`,
        );
      }
    }
    if (decimal !== undefined) return toDecimal128(decimalTrigonometry[name]!(decimal));
    return asDouble(double(n));
  });
}

/** MongoDB's `Decimal128::kPi`: π given to 51 digits, rounded to 34. */
const PI = roundParts(decimalParts('3.14159265358979323846264338327950288419716939937510') as DecimalParts);
const DEGREES_TO_RADIANS = divideDecimal(PI, { negative: false, coef: 180n, exp: 0 });
const RADIANS_TO_DEGREES = divideDecimal({ negative: false, coef: 180n, exp: 0 }, PI);
const DOUBLE_PI = 3.141592653589793;

/** `x × factor` as `Decimal128::multiply` rounds it (the exponents add: 0 × π/180 is 0E-35). */
function multiplyBy(x: DecimalValue, factor: DecimalValue): DecimalValue {
  if (typeof factor === 'string') return factor;
  if (x === 'NaN') return x;
  if (typeof x === 'string') return x;
  return roundParts({
    negative: x.negative !== factor.negative,
    coef: x.coef * factor.coef,
    exp: x.exp + factor.exp,
  });
}

/** `$degreesToRadians` and `$radiansToDegrees`: one multiplication by MongoDB's constant. */
const convertAngle = (decimal: DecimalValue, double: number): Operator =>
  unary((value) =>
    isDecimal(value)
      ? toDecimal128(multiplyBy(decimalOf(value), decimal))
      : asDouble(doubleOf(value) * double),
  );

/** The trigonometric and hyperbolic operators: `$sin` is `Math.sin` for doubles, and so on. */
const TRIGONOMETRIC = [
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'sinh',
  'cosh',
  'tanh',
  'asinh',
  'acosh',
  'atanh',
] as const;

/** The operators, by name, each given its evaluated arguments (a single argument wrapped). */
export const mathOperators: Record<string, Operator> = {
  $sqrt: squareRoot,
  $exp: unary((value) =>
    isDecimal(value) ? toDecimal128(expDecimal(decimalOf(value))) : asDouble(Math.exp(doubleOf(value))),
  ),
  $ln: logarithm('$ln', 28766, lnDecimal, Math.log),
  $log10: logarithm('$log10', 28761, log10Decimal, Math.log10),
  $log: logWithBase,
  $pow: decimalPower,
  ...Object.fromEntries(TRIGONOMETRIC.map((f) => [`$${f}`, trigonometric(`$${f}`, (n) => Math[f](n))])),
  $atan2: binary((y, x) =>
    isDecimal(y) || isDecimal(x)
      ? toDecimal128(atan2Decimal(asDecimal(y), asDecimal(x)))
      : asDouble(Math.atan2(doubleOf(y), doubleOf(x))),
  ),
  $degreesToRadians: convertAngle(DEGREES_TO_RADIANS, DOUBLE_PI / 180),
  $radiansToDegrees: convertAngle(RADIANS_TO_DEGREES, 180 / DOUBLE_PI),
};
