/**
 * The state of `$sum` and `$avg`, as MongoDB 7.0 keeps it for `$group`, for `$setWindowFields` windows
 * that only grow (AccumulatorSum in accumulator_sum.cpp, AccumulatorAvg in accumulator_avg.cpp) and for
 * windows that values also leave (RemovableSum in window_function_sum.h and .cpp, WindowFunctionAvg in
 * window_function_avg.h):
 * - ints, longs and doubles go into one double-double total (double-double.ts), decimals into a decimal
 *   total rounded at each step (decimal-sum.ts); a value leaves by adding its negation, so a window's
 *   sum moves in O(1) and answers what MongoDB's answers, rounding included;
 * - the result is typed by the widest type the totals have met (int, long on an int overflow or a long,
 *   double, decimal): an int or long total that leaves 64 bits is a double;
 * - NaN and infinities are counted apart: any NaN, or both infinities, answer NaN, else the infinity
 *   (a decimal one when a decimal is among the values);
 * - a removable state narrows its result to the values still in the window (RemovableSum::getValue):
 *   without a decimal left, a decimal total becomes a double (with a double left) or an int or long
 *   (when integral); without a double left, a double total becomes an int or long (rounded half away
 *   from zero); a long that fits 32 bits becomes an int. A state that only adds answers as
 *   AccumulatorSum does, without narrowing.
 */
import { Decimal128, Long } from 'bson';
import { divideDecimal, INT32_MAX, INT32_MIN, numberKind } from './arithmetic.js';
import type { NumberKind } from './arithmetic.js';
import { parseDecimal } from './decimal.js';
import type { Dec } from './decimal.js';
import { decToParts, toDecimal128 } from './decimal-round.js';
import { addRounded, doubleDoubleDecimal } from './decimal-sum.js';
import { DoubleDoubleSum } from './double-double.js';
import { asDouble } from './numbers.js';

const WIDTH: Record<NumberKind, number> = { int: 0, long: 1, double: 2, decimal: 3 };

/** An integer as MongoDB's Value::createIntOrLong types it: an int when it fits 32 bits. */
function intOrLong(n: bigint): number | Long {
  return n >= INT32_MIN && n <= INT32_MAX ? Number(n) : Long.fromBigInt(n);
}

/** C's llround: to the nearest integer, halves away from zero. */
const llround = (x: number): bigint => BigInt(Math.sign(x) * Math.round(Math.abs(x)));

const negate = (dec: Dec): Dec =>
  typeof dec === 'string'
    ? dec === 'NaN'
      ? dec
      : dec === 'Infinity'
        ? '-Infinity'
        : 'Infinity'
    : { coef: -dec.coef, exp: dec.exp };

/** The `$sum` and `$avg` state (see the file comment). */
export class SumState {
  private readonly total = new DoubleDoubleSum();
  private decimal: Dec = { coef: 0n, exp: 0 };
  private widest: NumberKind = 'int';
  private nan = 0;
  private positiveInfinity = 0;
  private negativeInfinity = 0;
  private doubles = 0;
  private decimals = 0;
  /** The numbers in the state, `$avg`'s divisor. */
  private count = 0;

  /** @param removable whether values leave the state (a window with a bounded lower end). */
  constructor(private readonly removable: boolean) {}

  /** Adds a value; anything but a number is ignored. */
  add(value: unknown): void {
    this.update(value, 1);
  }

  /** Takes off a value added before. */
  remove(value: unknown): void {
    this.update(value, -1);
  }

  private update(value: unknown, sign: 1 | -1): void {
    const kind = numberKind(value);
    if (kind === undefined) return;
    this.count += sign;
    if (kind === 'double') this.doubles += sign;
    if (kind === 'decimal') this.decimals += sign;
    const text = String(value);
    const special = kind === 'decimal' ? parseDecimal(text) : Number(text);
    if (special === 'NaN' || Number.isNaN(special)) this.nan += sign;
    else if (special === 'Infinity' || special === Infinity) this.positiveInfinity += sign;
    else if (special === '-Infinity' || special === -Infinity) this.negativeInfinity += sign;
    else {
      if (WIDTH[kind] > WIDTH[this.widest]) this.widest = kind;
      if (kind === 'decimal') {
        this.decimal = addRounded(this.decimal, sign > 0 ? (special as Dec) : negate(special as Dec));
      } else if (kind === 'long') this.total.addLong(BigInt(text) * BigInt(sign));
      else this.total.addDouble((special as number) * sign);
    }
  }

  /** A NaN or an infinity when one decides the result (a decimal one with a decimal among the values). */
  private special(): unknown {
    const named =
      this.nan > 0 || (this.positiveInfinity > 0 && this.negativeInfinity > 0)
        ? 'NaN'
        : this.positiveInfinity > 0
          ? 'Infinity'
          : this.negativeInfinity > 0
            ? '-Infinity'
            : undefined;
    if (named === undefined) return undefined;
    return this.decimals > 0 ? Decimal128.fromString(named) : Number(named);
  }

  /** The totals' value typed by the widest type met (AccumulatorSum::getValue). */
  private accumulated(): { kind: NumberKind; value: unknown } {
    if (this.widest === 'decimal') {
      const dec = addRounded(this.decimal, doubleDoubleDecimal(this.total.parts()));
      return { kind: 'decimal', value: toDecimal128(decToParts(dec)) };
    }
    if (this.widest !== 'double') {
      const long = this.total.long();
      if (long !== undefined)
        return this.widest === 'int'
          ? { kind: 'int', value: intOrLong(long) }
          : { kind: 'long', value: Long.fromBigInt(long) };
    }
    return { kind: 'double', value: this.total.double() };
  }

  /** The sum: a number of MongoDB's type for it (a double as asDouble keeps it). */
  sum(): unknown {
    const special = this.special();
    if (special !== undefined) return special;
    const { kind, value } = this.accumulated();
    if (!this.removable) return kind === 'double' ? asDouble(value as number) : value;
    if (kind === 'decimal' && this.decimals === 0) {
      const dec = parseDecimal(String(value)) as { coef: bigint; exp: number };
      const double = Number(String(value));
      if (this.doubles > 0) return asDouble(double);
      const integral = dec.exp >= 0 || dec.coef % 10n ** BigInt(-dec.exp) === 0n;
      const n = dec.exp >= 0 ? dec.coef * 10n ** BigInt(dec.exp) : dec.coef / 10n ** BigInt(-dec.exp);
      return integral && n >= -(2n ** 63n) && n < 2n ** 63n ? intOrLong(n) : asDouble(double);
    }
    if (kind === 'double' && this.doubles === 0) {
      const x = value as number;
      if (x > -(2 ** 63) && x < 2 ** 63) return intOrLong(llround(x));
    }
    if (kind === 'long') return intOrLong(BigInt(String(value)));
    return kind === 'double' ? asDouble(value as number) : value;
  }

  /** The average: null without numbers, a decimal with a decimal, else a double. */
  average(): unknown {
    if (this.count === 0) return null;
    const special = this.special();
    if (special !== undefined) return special;
    if (!this.removable) {
      if (this.widest === 'decimal') return divideDecimal(this.accumulated().value, this.count);
      return asDouble(this.total.double() / this.count);
    }
    const sum = this.sum();
    if (numberKind(sum) === 'decimal') return divideDecimal(sum, this.count);
    return asDouble(Number(String(sum)) / this.count);
  }
}
