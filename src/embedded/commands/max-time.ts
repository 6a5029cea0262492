/**
 * The `maxTimeMS` argument checked as MongoDB 7.0 checks it before it runs a command: a number that is a
 * whole count of milliseconds between 0 and 2^31 − 1.
 */
import { numberKind } from '../engine/arithmetic.js';
import { bsonTypeName } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** A number of any BSON type as a 64-bit integer, truncated and saturated as MongoDB converts it. */
function toInt64(value: unknown): bigint {
  // Every BSON number type prints its value.
  const n = Number((value as { toString(): string }).toString());
  if (numberKind(value) === 'long') return BigInt((value as { toString(): string }).toString());
  if (Number.isNaN(n)) return 0n;
  if (n >= 2 ** 63) return INT64_MAX;
  if (n <= -(2 ** 63)) return INT64_MIN;
  return BigInt(Math.trunc(n));
}

/**
 * Checks `cmd.maxTimeMS` of command `name` (absent: no limit). Errors: 14 `TypeMismatch` (not a
 * number), 51024 (negative), 2 `BadValue` (null, not whole, above 2147483647).
 */
export function checkMaxTimeMS(name: string, cmd: Record<string, unknown>): void {
  const value = cmd['maxTimeMS'];
  if (value === undefined) return;
  if (value === null) throw new CommandError(ErrorCodes.BadValue, 'maxTimeMS must be a number');
  if (numberKind(value) === undefined) {
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field '${name}.maxTimeMS' is the wrong type '${bsonTypeName(value)}', expected types '[long, int, decimal, double']`,
    );
  }
  const whole = toInt64(value);
  if (whole < 0n) {
    throw new CommandError(51024, `BSON field 'maxTimeMS' value must be >= 0, actual value '${whole}'`);
  }
  if (!Number.isInteger(Number((value as { toString(): string }).toString()))) {
    throw new CommandError(ErrorCodes.BadValue, 'maxTimeMS has non-integral value');
  }
  if (whole > 2_147_483_647n) {
    throw new CommandError(
      ErrorCodes.BadValue,
      `${whole} value for maxTimeMS is out of range [0, 2147483647]`,
    );
  }
}
