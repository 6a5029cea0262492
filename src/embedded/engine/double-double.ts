/**
 * The running total MongoDB 7.0 keeps for the ints, longs and doubles of `$sum` and `$avg`
 * (DoubleDoubleSummation, src/mongo/util/summation.h and summation.cpp): an unevaluated sum of two
 * doubles, a rounded `sum` and the small `addend` it misses, updated with Dekker's Fast2Sum and Knuth's
 * 2Sum, so a long series keeps about 106 bits. Its double is `sum` alone (not `sum + addend`), and a
 * plain running total answers once `sum` is NaN (an infinity met its opposite, or a NaN came). A long
 * is added as two doubles, its high 32 bits and the rest, so ints and longs stay exact below 2^106.
 * The answers differ from a plain left-to-right double sum: 0.1 + 0.2 + 0.3 is 0.6, not
 * 0.6000000000000001. Values are taken off the total by adding their negation (RemovableSum,
 * window_function_sum.h), which is exact only as far as the 106 bits reach.
 */

/** Dekker's Fast2Sum of `a` and `b` (|b| ≤ |a|): the rounded sum and what it misses. */
function fast2Sum(a: number, b: number): [number, number] {
  const s = a + b;
  return [s, b - (s - a)];
}

/** Knuth's 2Sum of `a` and `b` (any magnitudes): the rounded sum and what it misses. */
function twoSum(a: number, b: number): [number, number] {
  const s = a + b;
  const aPrime = s - b;
  const bPrime = s - aPrime;
  return [s, a - aPrime + (b - bPrime)];
}

const TWO_32 = 2n ** 32n;

/** A double-double running total (see the file comment). */
export class DoubleDoubleSum {
  private sum = 0;
  private addend = 0;
  /** The plain running total answered once `sum` is NaN. */
  private special = 0;

  /** Adds a double. */
  addDouble(x: number): void {
    this.special += x;
    const [y, addend] = fast2Sum(x, this.addend);
    const [sum, rest] = twoSum(this.sum, y);
    this.sum = sum;
    this.addend = addend + rest;
  }

  /** Adds a 64-bit integer exactly: its high 32 bits (truncated toward zero) and the rest. */
  addLong(x: bigint): void {
    const high = (x / TWO_32) * TWO_32;
    this.addDouble(Number(x - high));
    this.addDouble(Number(high));
  }

  /** The double nearest the total (getDouble). */
  double(): number {
    return Number.isNaN(this.sum) ? this.special : this.sum;
  }

  /** The total as `[sum, addend]`, or `[special, 0]` once the sum is NaN (getDoubleDouble). */
  parts(): [number, number] {
    return Number.isNaN(this.sum) ? [this.special, 0] : [this.sum, this.addend];
  }

  /**
   * The total of integral values as an exact integer (getLong), or undefined when it is not finite or
   * leaves the 64 bits of a long (fitsLong). Only called while every value added was an int or a long,
   * so both halves are integers.
   */
  long(): bigint | undefined {
    if (!Number.isFinite(this.sum) || !Number.isFinite(this.addend)) return undefined;
    const total = BigInt(this.sum) + BigInt(Math.round(this.addend));
    return total >= -(2n ** 63n) && total < 2n ** 63n ? total : undefined;
  }
}
