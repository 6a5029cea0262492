/**
 * The `capped`, `size` and `max` options of `create`, checked as MongoDB 7.0's command parser checks
 * them (types, `size >= 1`, `size` required for a capped collection), so a malformed request gets
 * MongoDB's answer rather than the embedded database's refusal of capped collections, which applies
 * only to well-formed requests. A null option counts as absent, as in MongoDB.
 */
import { numberKind } from '../engine/arithmetic.js';
import { bsonTypeName } from '../engine/values.js';
import type { Doc } from '../engine/values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const NUMBER_TYPES = "'[long, int, decimal, double']";

/** A BSON number of any type (or a boolean) as a JS number. */
function numeric(value: unknown): number {
  return typeof value === 'boolean' ? Number(value) : Number((value as { toString(): string }).toString());
}

function wrongType(field: string, value: unknown, expected: string): CommandError {
  return new CommandError(
    ErrorCodes.TypeMismatch,
    `BSON field 'create.${field}' is the wrong type '${bsonTypeName(value)}', expected types ${expected}`,
  );
}

/**
 * True when `create` asks for a capped collection.
 * @throws CommandError TypeMismatch (14), 51024 (`size` below 1), InvalidOptions (72) (no `size`).
 */
export function checkCappedOptions(cmd: Doc): boolean {
  // In command order, as the parser reads them: the first bad field is the one reported.
  for (const [field, value] of Object.entries(cmd)) {
    if (value === null || value === undefined) continue;
    if (field === 'capped' && typeof value !== 'boolean' && numberKind(value) === undefined)
      throw wrongType(field, value, "'[bool, long, int, decimal, double']");
    if ((field === 'size' || field === 'max') && numberKind(value) === undefined)
      throw wrongType(field, value, NUMBER_TYPES);
    if (field === 'size' && numeric(value) < 1)
      throw new CommandError(51024, `BSON field 'size' value must be >= 1, actual value '${numeric(value)}'`);
  }
  const capped = cmd['capped'];
  const isCapped = capped !== undefined && capped !== null && numeric(capped) !== 0;
  if (isCapped && (cmd['size'] === undefined || cmd['size'] === null))
    throw new CommandError(ErrorCodes.InvalidOptions, "the 'size' field is required when 'capped' is true");
  return isCapped;
}
