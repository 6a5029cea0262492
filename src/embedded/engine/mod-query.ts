/**
 * The `$mod` query operator as MongoDB defines it (manual, "$mod"): `{ field: { $mod: [divisor,
 * remainder] } }` matches numbers whose value, truncated to an integer, leaves `remainder` when divided
 * by `divisor`; both operands are truncated too, and anything that is not a number never matches.
 * mingo's own computes `value % divisor` on any value, so `null` (0) and numeric strings matched.
 */
import type { Predicate, QueryOp } from './operator-types.js';
import { numberKind } from './arithmetic.js';
import { filterPath, someValue } from './query-path.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** An operand truncated toward zero, as a BigInt (exact for every int64); throws for NaN and infinities. */
function truncatedOperand(value: unknown, name: 'divisor' | 'remainder'): bigint {
  if (numberKind(value) === undefined) {
    throw new CommandError(ErrorCodes.BadValue, `malformed mod, ${name} not a number`);
  }
  const text = String(value);
  if (numberKind(value) === 'long') return BigInt(text);
  const n = Number(text);
  if (!Number.isFinite(n)) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `malformed mod, ${name} value is invalid :: caused by :: Unable to coerce NaN/Inf to integral type`,
    );
  }
  // A double past the int64 range cannot be coerced (2^63 itself still is, as MongoDB does).
  if (Math.abs(n) > 2 ** 63) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `malformed mod, ${name} value is invalid :: caused by :: Out of bounds coercing to integral value`,
    );
  }
  return BigInt(Math.trunc(n));
}

/** `[divisor, remainder]` of a `$mod` operand; throws MongoDB's BadValue (2) errors for a malformed one. */
function modOperands(value: unknown): [bigint, bigint] {
  if (!Array.isArray(value))
    throw new CommandError(ErrorCodes.BadValue, 'malformed mod, needs to be an array');
  if (value.length < 2) throw new CommandError(ErrorCodes.BadValue, 'malformed mod, not enough elements');
  if (value.length > 2) throw new CommandError(ErrorCodes.BadValue, 'malformed mod, too many elements');
  const divisor = truncatedOperand(value[0], 'divisor');
  const remainder = truncatedOperand(value[1], 'remainder');
  if (divisor === 0n) throw new CommandError(ErrorCodes.BadValue, 'divisor cannot be 0');
  return [divisor, remainder];
}

/** A stored value truncated to an integer, or undefined when it is not a finite number. */
function truncatedValue(value: unknown): bigint | undefined {
  const kind = numberKind(value);
  if (kind === undefined) return undefined;
  if (kind === 'long') return BigInt(String(value));
  const n = Number(String(value));
  return Number.isFinite(n) ? BigInt(Math.trunc(n)) : undefined;
}

/** The `$mod` query operator registered in the engine's context (same arguments as mingo's). */
export const modQuery: QueryOp = (selector, value): Predicate => {
  const [divisor, remainder] = modOperands(value);
  // BigInt's `%` truncates toward zero, as C++'s does in MongoDB: -5 % 3 is -2.
  const matches = (candidate: unknown): boolean => {
    const n = truncatedValue(candidate);
    return n !== undefined && n % divisor === remainder;
  };
  const path = filterPath(selector);
  return (obj) => someValue(obj, path, matches);
};
