/**
 * Text read as a number the way `$convert` reads it in MongoDB 7.0 (parseStringToNumber in the server's
 * expression code, over src/mongo/base/parse_number.cpp): integers in base 10 only, an optional sign and
 * nothing else around the digits; doubles as C's `strtod` reads them (exponents, `inf`, `nan`, hex
 * floats after a sign) but without leading whitespace; decimals as Decimal128 parses them. A string
 * starting `0x` is refused before any of these. A failure is error 241 `ConversionFailure` with the
 * parser's reason, e.g. "Failed to parse number ' 5' in $convert with no onError value: Did not consume
 * whole string.", which `$convert`'s `onError` replaces.
 */
import { Decimal128, Long } from 'bson';
import { parseDecimal } from './decimal.js';
import { decToParts, roundParts, toDecimal128 } from './decimal-round.js';
import { CommandError, ErrorCodes } from '../errors.js';

/** 241 for `text`, with the parser's `reason`. */
function parseFailure(text: string, reason: string): CommandError {
  return new CommandError(
    ErrorCodes.ConversionFailure,
    `Failed to parse number '${text}' in $convert with no onError value: ${reason}`,
  );
}

/** The server's refusal of hexadecimal text, before it parses anything. */
function refuseHex(text: string): void {
  if (text.startsWith('0x'))
    throw new CommandError(
      ErrorCodes.ConversionFailure,
      `Illegal hexadecimal input in $convert with no onError value: ${text}`,
    );
}

const UINT64_MAX = 2n ** 64n - 1n;

/**
 * The smallest normal double: a non-zero value that comes out below it underflowed (C's `strtod` then
 * reports ERANGE, Intel's decimal-to-double conversion its underflow flag).
 */
export const MIN_NORMAL_DOUBLE = 2.2250738585072014e-308;

/**
 * `text` as a 32- or 64-bit integer (`$toInt`, `$toLong`).
 * @throws CommandError 241 for hex, no digits, anything besides a sign and digits, or overflow.
 */
export function parseIntegerText(text: string, bits: 32 | 64): number | Long {
  refuseHex(text);
  const negative = text.startsWith('-');
  const digits = negative || text.startsWith('+') ? text.slice(1) : text;
  if (digits === '') throw parseFailure(text, 'No digits');
  let magnitude = 0n;
  let consumed = 0;
  for (const char of digits) {
    if (char < '0' || char > '9') break;
    magnitude = magnitude * 10n + BigInt(char.charCodeAt(0) - 48);
    if (magnitude > UINT64_MAX) throw parseFailure(text, 'Overflow');
    consumed++;
  }
  if (consumed !== digits.length) throw parseFailure(text, 'Did not consume whole string.');
  const max = 2n ** BigInt(bits - 1) - (negative ? 0n : 1n);
  if (magnitude > max) throw parseFailure(text, 'Overflow');
  const value = negative ? -magnitude : magnitude;
  return bits === 32 ? Number(value) : Long.fromBigInt(value);
}

/** What `strtod` reads from the start of a string: a sign, then a decimal, hex, infinity or NaN. */
const STRTOD_PREFIX =
  /^[+-]?(?:0x(?:[0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p[+-]?\d+)?|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|infinity|inf|nan(?:\([0-9a-z_]*\))?)/i;

/** C's `isspace` in the "C" locale. */
const C_SPACE = /^[ \t\n\v\f\r]/;

/** A `strtod` match as a double (JS reads every form but hex floats and `nan(…)`). */
function strtodValue(match: string): number {
  const negative = match.startsWith('-');
  const body = match.replace(/^[+-]/, '').toLowerCase();
  let value: number;
  if (body.startsWith('inf')) value = Infinity;
  else if (body.startsWith('nan')) value = NaN;
  else if (body.startsWith('0x')) {
    const [mantissa = '', exponent = '0'] = body.slice(2).split('p');
    const [whole = '', fraction = ''] = mantissa.split('.');
    const digits = whole + fraction;
    value = digits === '' ? 0 : parseInt(digits, 16) * 2 ** (Number(exponent) - 4 * fraction.length);
  } else value = Number(body);
  return negative ? -value : value;
}

/**
 * `text` as a double (`$toDouble`).
 * @throws CommandError 241 for hex, empty text, leading whitespace, no number, a value out of the
 *   double range (overflow or underflow, as `strtod` reports ERANGE), or text after the number.
 */
export function parseDoubleText(text: string): number {
  refuseHex(text);
  if (text === '') throw parseFailure(text, 'Empty string');
  if (C_SPACE.test(text)) throw parseFailure(text, 'Leading whitespace');
  const match = STRTOD_PREFIX.exec(text)?.[0];
  if (match === undefined) throw parseFailure(text, 'Did not consume any digits');
  const value = strtodValue(match);
  const finiteText = !/inf|nan/i.test(match);
  const nonZeroText = /[1-9a-f]/i.test(match.replace(/^[+-]?0x/i, '').replace(/[ep][+-]?\d+$/i, ''));
  const underflow = nonZeroText && Math.abs(value) < MIN_NORMAL_DOUBLE;
  if (finiteText && (!Number.isFinite(value) || underflow)) throw parseFailure(text, 'Out of range');
  if (match.length !== text.length) throw parseFailure(text, 'Did not consume whole string.');
  return value;
}

/**
 * `text` as a decimal (`$toDecimal`), rounded to 34 digits.
 * @throws CommandError 241 for hex, empty text, text Decimal128 cannot read, or an exponent out of range.
 */
export function parseDecimalText(text: string): Decimal128 {
  refuseHex(text);
  if (text === '') throw parseFailure(text, 'Empty string');
  if (/^[+-]?nan$/i.test(text)) return Decimal128.fromString('NaN');
  const dec = parseDecimal(text);
  if (dec === 'NaN' || (typeof dec !== 'string' && !/\d/.test(text)))
    throw parseFailure(text, 'Failed to parse string to decimal');
  if (typeof dec === 'string') return Decimal128.fromString(dec);
  const rounded = roundParts(decToParts(dec, text.startsWith('-')));
  if (typeof rounded === 'string')
    throw parseFailure(text, 'Conversion from string to decimal would overflow');
  return toDecimal128(rounded);
}
