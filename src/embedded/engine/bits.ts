/**
 * The bitwise query operators (`$bitsAllSet`, `$bitsAnySet`, `$bitsAllClear`, `$bitsAnyClear`) as MongoDB
 * defines them: they test numbers that are integers within 64 bits (two's complement, so a negative
 * number has every high bit set) and BinData (bit 0 is the lowest bit of the first byte); any other value,
 * a fractional double included, does not match. The mask is a non-negative integer, a BinData or an array
 * of bit positions. mingo's operators read int64s, fractional doubles and BinData differently.
 */
import type { QueryOp } from './operator-types.js';
import { integralValue, numberKind } from './arithmetic.js';
import { elementText } from './bson-text.js';
import { bsonTag } from './values.js';
import { filterPath, someValue } from './query-path.js';
import { CommandError, ErrorCodes } from '../errors.js';

type BitTest = (position: number) => boolean;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Bit `i` of BinData bytes: bit 0 is the lowest bit of the first byte; past the end, 0. */
function binaryBit(bytes: Uint8Array, i: number): boolean {
  return i < bytes.length * 8 && ((bytes[i >> 3]! >> (i & 7)) & 1) === 1;
}

function bytesOf(value: unknown): Uint8Array {
  return (value as { buffer: Uint8Array }).buffer;
}

/** A bit position of a mask array, checked as MongoDB checks it. @throws CommandError BadValue (2). */
function bitPosition(index: number, value: unknown): number {
  const reason =
    numberKind(value) === undefined
      ? 'Expected a number in:'
      : integralValue(value) === undefined
        ? 'Expected an integer:'
        : Number(value) < 0
          ? 'Expected a non-negative number in:'
          : undefined;
  if (reason) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `Failed to parse bit position. ${reason} ${elementText(String(index), value)}`,
    );
  }
  return Number(value);
}

/**
 * A numeric mask, checked as MongoDB checks it: a fraction, a double past int64 or a negative number is
 * FailedToParse (9), e.g. "Expected a non-negative number in: $bitsAllSet: -1".
 */
function numericMask(operator: string, mask: unknown): bigint {
  const n = Number(String(mask));
  const isLong = numberKind(mask) === 'long';
  const reason = !Number.isInteger(n)
    ? 'Expected an integer:'
    : !isLong && n >= 2 ** 63
      ? 'Cannot represent as a 64-bit integer:'
      : n < 0
        ? 'Expected a non-negative number in:'
        : undefined;
  if (reason) throw new CommandError(ErrorCodes.FailedToParse, `${reason} ${elementText(operator, mask)}`);
  return isLong ? BigInt(String(mask)) : BigInt(n);
}

/**
 * The bit positions a mask names.
 * @throws CommandError BadValue (2) or FailedToParse (9) with MongoDB's message for an invalid mask.
 */
function maskPositions(operator: string, path: string, mask: unknown): number[] {
  if (bsonTag(mask) === 'Binary') {
    const bytes = bytesOf(mask);
    const positions: number[] = [];
    for (let i = 0; i < bytes.length * 8; i++) if (binaryBit(bytes, i)) positions.push(i);
    return positions;
  }
  if (Array.isArray(mask)) return mask.map((p, i) => bitPosition(i, p));
  if (numberKind(mask) === undefined) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `${path} takes an Array, a number, or a BinData but received: ${elementText(operator, mask)}`,
    );
  }
  const positions: number[] = [];
  for (let i = 0, rest = numericMask(operator, mask); rest > 0n; i++, rest >>= 1n)
    if (rest & 1n) positions.push(i);
  return positions;
}

/** How to read the bits of a field value, or undefined when the operators do not apply to it. */
function bitsOf(value: unknown): BitTest | undefined {
  if (bsonTag(value) === 'Binary') {
    const bytes = bytesOf(value);
    return (i) => binaryBit(bytes, i);
  }
  if (numberKind(value) === undefined) return undefined;
  const text = String(value);
  let n: bigint;
  try {
    n = BigInt(numberKind(value) === 'double' || numberKind(value) === 'int' ? Number(text) : text);
  } catch {
    return undefined; // fractional, NaN or infinite
  }
  if (n < INT64_MIN || n > INT64_MAX) return undefined;
  return (i) => ((i < 64 ? n >> BigInt(i) : n < 0n ? 1n : 0n) & 1n) === 1n;
}

function bitOperator(operator: string, test: (bits: BitTest, positions: number[]) => boolean): QueryOp {
  return (selector, mask) => {
    const positions = maskPositions(operator, selector, mask);
    const path = filterPath(selector);
    return (obj) =>
      someValue(obj, path, (value) => {
        const bits = bitsOf(value);
        return bits !== undefined && test(bits, positions);
      });
  };
}

/** The bitwise query operators, registered over mingo's. */
export const bitQueryOperators: Record<string, QueryOp> = {
  $bitsAllSet: bitOperator('$bitsAllSet', (bits, ps) => ps.every((p) => bits(p))),
  $bitsAnySet: bitOperator('$bitsAnySet', (bits, ps) => ps.some((p) => bits(p))),
  $bitsAllClear: bitOperator('$bitsAllClear', (bits, ps) => ps.every((p) => !bits(p))),
  $bitsAnyClear: bitOperator('$bitsAnyClear', (bits, ps) => ps.some((p) => !bits(p))),
};
