/**
 * The count arguments of `$jsonSchema` (`minLength`, `maxLength`, `minItems`, `maxItems`, `minProperties`,
 * `maxProperties`), read as MongoDB reads them: `BSONElement::parseIntegerElementToNonNegativeLong`
 * (src/mongo/bson/bsonelement.cpp), which `json_schema_parser.cpp`'s `parseLength` and
 * `parseNumProperties` call before anything else, at the top level too. Every refusal is FailedToParse.
 */
import { numberKind, toDec } from './arithmetic.js';
import { elementText } from './bson-text.js';
import { CommandError, ErrorCodes } from '../errors.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The integer a number argument holds, or the reason MongoDB gives for refusing it. */
function integerOf(value: unknown): bigint | string {
  if (typeof value === 'bigint') return value;
  const kind = numberKind(value);
  if (kind === undefined) return 'Expected a number in:';
  if (kind === 'long' || kind === 'int') return BigInt(String(value));
  if (kind === 'double') {
    const n = Number(value);
    if (Number.isNaN(n)) return 'Expected an integer, but found NaN in:';
    // 2^63 itself is out of range: an int64 stops one below it.
    if (n >= 2 ** 63 || n < -(2 ** 63)) return 'Cannot represent as a 64-bit integer:';
    return Number.isInteger(n) ? BigInt(n) : 'Expected an integer:';
  }
  // A decimal goes through Decimal128::toLongExact: any rounding, NaN or overflow is the same refusal.
  const dec = toDec(value);
  const tooBig = 'Cannot represent as a 64-bit integer:';
  if (typeof dec === 'string') return tooBig;
  const scale = 10n ** BigInt(Math.abs(dec.exp));
  if (dec.exp < 0 && dec.coef % scale !== 0n) return tooBig;
  const n = dec.exp < 0 ? dec.coef / scale : dec.coef * scale;
  return n < INT64_MIN || n > INT64_MAX ? tooBig : n;
}

/**
 * Checks the count argument `value` of `keyword`.
 * @throws CommandError FailedToParse (9) with MongoDB's message naming the element, e.g.
 *   "Expected a number in: minLength: \"2\"", "Expected an integer: maxItems: 1.5",
 *   "Expected a non-negative number in: minProperties: -1".
 */
export function checkCount(keyword: string, value: unknown): void {
  const n = integerOf(value);
  const reason = typeof n === 'string' ? n : n < 0n ? 'Expected a non-negative number in:' : undefined;
  if (reason !== undefined)
    throw new CommandError(ErrorCodes.FailedToParse, `${reason} ${elementText(keyword, value)}`);
}
