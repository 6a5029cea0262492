/**
 * Command fields read the way MongoDB 7.0's IDL-generated parsers read them, with their codes and
 * messages: a `safeBool` (a boolean, or a number read as one), an `object`, a `string` and a string
 * enumeration; and `bypassDocumentValidation`, read by its truth value. `command` names the field's command in messages (`BSON field 'create.validator' …`).
 */
import { nonZeroNumber } from '../engine/arithmetic.js';
import { bsonTypeName, isPlainObject } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

function wrongType(command: string, field: string, value: unknown, expected: string): CommandError {
  return new CommandError(
    ErrorCodes.TypeMismatch,
    `BSON field '${command}.${field}' is the wrong type '${bsonTypeName(value)}', ${expected}`,
  );
}

/**
 * A `safeBool` field: absent or null is `fallback`, a number is true unless zero.
 * @throws CommandError TypeMismatch (14) for any other type.
 */
export function safeBoolField(cmd: Doc, command: string, field: string, fallback = false): boolean {
  const value = cmd[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  const nonZero = nonZeroNumber(value);
  if (nonZero !== undefined) return nonZero;
  throw wrongType(command, field, value, "expected types '[bool, long, int, decimal, double']");
}

/**
 * An `object` field (absent or null: undefined).
 * @throws CommandError TypeMismatch (14) for any other type.
 */
export function objectField(cmd: Doc, command: string, field: string): Doc | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw wrongType(command, field, value, "expected type 'object'");
  return value;
}

/**
 * A string enumeration field (absent or null: undefined).
 * @throws CommandError TypeMismatch (14) for a non-string, BadValue (2) for a value not in `values`.
 */
export function enumField(
  cmd: Doc,
  command: string,
  field: string,
  values: readonly string[],
): string | undefined {
  const value = cmd[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wrongType(command, field, value, "expected type 'string'");
  if (!values.includes(value))
    throw new CommandError(
      ErrorCodes.BadValue,
      `Enumeration value '${value}' for field '${command}.${field}' is not a valid value.`,
    );
  return value;
}

/**
 * `bypassDocumentValidation` read as MongoDB 7.0 reads it for the commands that take it (the field's
 * truth value, shouldBypassDocumentValidationForCommand): absent, null, false and zero are false; other
 * values are true and are not refused.
 */
export function bypassesValidation(cmd: Doc): boolean {
  const value = cmd['bypassDocumentValidation'];
  if (value === undefined || value === null || value === false) return false;
  return nonZeroNumber(value) ?? true;
}
