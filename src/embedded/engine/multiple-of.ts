/**
 * The `$jsonSchema` keyword `multipleOf` as MongoDB implements it (`parseMultipleOf` in
 * `json_schema_parser.cpp`, `InternalSchemaFmodMatchExpression` in `expression_internal_schema_fmod.cpp`):
 * the divisor must be a positive number, and a number matches when its Decimal128 remainder by the
 * divisor is zero. MongoDB converts both sides with `BSONElement::numberDecimal()`, which rounds a double
 * to 15 significant digits (`Decimal128(double)`), so `0.3` is a multiple of `0.1` there even though it is
 * not in binary floating point; the remainder is computed here exactly on those decimals. Also the keyword's
 * `errInfo` entry for a failed validation.
 */
import { numberKind, toDec } from './arithmetic.js';
import type { Dec } from './decimal.js';
import { bsonTypeName } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** A BSON number as MongoDB's `numberDecimal()` of it; undefined for a non-number. */
function decimalOf(value: unknown): Dec | undefined {
  return numberKind(value) === undefined ? undefined : toDec(value);
}

/**
 * Checks a `multipleOf` argument as MongoDB parses it. `nested` is true for a schema that applies to a
 * field (under `properties`, `items` …): only there does MongoDB build the fmod expression, whose
 * constructor refuses a NaN or infinite divisor; a top-level `multipleOf` never applies (documents are
 * objects) and is not built.
 * @throws CommandError TypeMismatch (14) "$jsonSchema keyword 'multipleOf' must be a number";
 *   FailedToParse (9) "... must have a positive value" for zero or a negative number; BadValue (2)
 *   "divisor cannot be NaN" / "divisor cannot be infinite" when `nested`.
 */
export function checkMultipleOf(divisor: unknown, nested: boolean): void {
  const dec = decimalOf(divisor);
  if (dec === undefined)
    throw new CommandError(ErrorCodes.TypeMismatch, "$jsonSchema keyword 'multipleOf' must be a number");
  if (dec === '-Infinity' || (typeof dec !== 'string' && dec.coef <= 0n))
    throw new CommandError(
      ErrorCodes.FailedToParse,
      "$jsonSchema keyword 'multipleOf' must have a positive value",
    );
  if (!nested) return;
  if (dec === 'NaN') throw new CommandError(ErrorCodes.BadValue, 'divisor cannot be NaN');
  if (dec === 'Infinity') throw new CommandError(ErrorCodes.BadValue, 'divisor cannot be infinite');
}

/**
 * True when `value` is a number whose remainder by `divisor` (a checked `multipleOf`) is zero, compared
 * as Decimal128s. A non-number is false (the caller applies the keyword to numbers only); NaN and
 * infinities are false, as the decimal remainder of those signals an invalid operation in MongoDB.
 * Throws nothing.
 */
export function isMultipleOf(value: unknown, divisor: unknown): boolean {
  const a = decimalOf(value);
  const b = decimalOf(divisor);
  if (a === undefined || b === undefined || typeof a === 'string' || typeof b === 'string') return false;
  if (b.coef === 0n) return false;
  // a = A × 10^e and b = B × 10^e on their common exponent e: a is a multiple of b when B divides A.
  const exp = Math.min(a.exp, b.exp);
  const scaled = (d: { coef: bigint; exp: number }): bigint => d.coef * 10n ** BigInt(d.exp - exp);
  return scaled(a) % scaled(b) === 0n;
}

const NUMBER_TYPES = new Set(['int', 'long', 'double', 'decimal', 'number']);

/**
 * Whether the schema states exactly one type and it is numeric (true) or not (false); undefined when it
 * states none or several. MongoDB's makeRestriction applies a number keyword as is under a single numeric
 * type, never under a single other type, and only to numbers otherwise.
 */
function statedNumeric(schema: Doc): boolean | undefined {
  const stated = schema['bsonType'] ?? schema['type'];
  const names: unknown[] = Array.isArray(stated) ? stated : stated === undefined ? [] : [stated];
  if (names.length !== 1 || typeof names[0] !== 'string') return undefined;
  return NUMBER_TYPES.has(names[0]);
}

/**
 * The `errInfo` entry of a failed `multipleOf` for a present `value` below the root, or undefined when the
 * keyword is absent or satisfied. Shapes and reasons are doc_validation_error.cpp's for
 * InternalSchemaFmodMatchExpression (and its tests in doc_validation_error_json_schema_test.cpp): a number
 * that is not a multiple, or a non-number under a stated numeric type ("type did not match", with the
 * expected number types). Throws nothing.
 */
export function multipleOfError(schema: Doc, value: unknown): Doc | undefined {
  const divisor = schema['multipleOf'];
  const numeric = statedNumeric(schema);
  if (divisor === undefined || numeric === false) return undefined;
  const entry: Doc = { operatorName: 'multipleOf', specifiedAs: { multipleOf: divisor } };
  if (numberKind(value) !== undefined) {
    if (isMultipleOf(value, divisor)) return undefined;
    return {
      ...entry,
      reason: 'considered value is not a multiple of the specified value',
      consideredValue: value,
    };
  }
  if (numeric !== true) return undefined;
  return {
    ...entry,
    reason: 'type did not match',
    consideredType: bsonTypeName(value),
    expectedTypes: ['decimal', 'double', 'int', 'long'],
    consideredValue: value,
  };
}
