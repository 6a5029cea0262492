/**
 * The `scale` option of `dbStats`, checked as MongoDB 7.0 checks it: a number of any BSON type whose
 * integer part is at least 1. Sizes are divided by it, so a zero or negative scale is refused with
 * MongoDB's code and message rather than silently replaced.
 */
import { numberKind } from '../engine/arithmetic.js';
import { bsonTypeName } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * The scale factor `cmd` asks for (1 when absent or null).
 * @throws CommandError TypeMismatch (14) for a non-number, BadValue (2) below 1.
 */
export function scaleOption(cmd: Doc, command: string): number {
  const raw = cmd['scale'];
  if (raw === undefined || raw === null) return 1;
  if (numberKind(raw) === undefined)
    throw new CommandError(
      ErrorCodes.TypeMismatch,
      `BSON field '${command}.scale' is the wrong type '${bsonTypeName(raw)}', expected types '[long, int, decimal, double']`,
    );
  const scale = Math.trunc(Number((raw as { toString(): string }).toString()));
  if (!(scale > 0)) throw new CommandError(ErrorCodes.BadValue, 'Scale factor must be greater than zero');
  return scale;
}
