/**
 * Values turned into text as MongoDB's string expressions turn them (src/mongo/db/exec/document_value/
 * value.cpp): `coerceToString`, which `$substrBytes`, `$substrCP`, `$toUpper`, `$toLower` and `$strcasecmp`
 * apply to their input (numbers as C's `%g`, dates as ISO strings, null and missing as ""), and the text
 * a value prints as in their messages (`Value::toString`: strings in double quotes, doubles as `%g`,
 * documents as `{a: 1}`, missing as `MISSING`). Also the number tests those operators share.
 */
import { numberKind } from './arithmetic.js';
import { bsonText, dbPointerParts } from './bson-text.js';
import { bsonTag, bsonTypeName, isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/** A value's type as MongoDB's messages name it (`missing` for a missing value). */
export function typeName(value: unknown): string {
  return value === undefined ? 'missing' : bsonTypeName(value);
}

/** Whether a value is null, missing or BSON undefined (MongoDB's `Value::nullish`). */
export function isNullish(value: unknown): boolean {
  return value === null || value === undefined || bsonTag(value) === 'Undefined';
}

/** The JS number of a BSON number of any type (`Long`, `Decimal128`, `Double` print their value). */
export function numberOf(value: unknown): number {
  return Number((value as { toString(): string }).toString());
}

/** Whether `value` is a number exactly representable as a 32-bit int (MongoDB's `Value::integral`). */
export function isIntegral32(value: unknown): boolean {
  if (numberKind(value) === undefined) return false;
  const n = numberOf(value);
  return Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31;
}

/**
 * A number as `Value::coerceToLong` reads it: doubles truncated, decimals rounded half to even.
 * Only for values `numberKind` recognises.
 */
export function coerceToLong(value: unknown): number {
  const n = numberOf(value);
  if (numberKind(value) === 'double') return Math.trunc(n);
  if (numberKind(value) !== 'decimal' || Math.abs(n % 1) !== 0.5) return Math.round(n);
  return 2 * Math.round(n / 2);
}

/** Strips the zeros C's `%g` drops after a fraction. */
const stripZeros = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** A double as C's `printf("%g")` prints it (6 significant digits), as MongoDB streams doubles. */
export function formatDouble(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exponentText] = x.toExponential(5).split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const digits = String(Math.abs(exponent)).padStart(2, '0');
    return `${stripZeros(mantissa)}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  return stripZeros(x.toFixed(5 - exponent));
}

/** A number of any BSON type as MongoDB streams it: ints and longs in full, doubles as `%g`. */
function numberText(value: unknown): string {
  if (numberKind(value) === 'double') return formatDouble(numberOf(value));
  return (value as { toString(): string }).toString();
}

const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
const two = (n: number): string => String(n).padStart(2, '0');

/** `Timestamp::toStringPretty`: ctime's `Mmm dd hh:mm:ss` (UTC here) and the increment. */
function timestampPretty(ts: { high: number; low: number }): string {
  const d = new Date(ts.high * 1000);
  const day = String(d.getUTCDate()).padStart(2, ' ');
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${MONTHS[d.getUTCMonth()]!} ${day} ${time}:${ts.low}`;
}

/**
 * `Value::coerceToString`: strings as they are, numbers as MongoDB streams them, dates as
 * `%Y-%m-%dT%H:%M:%S.%LZ`, timestamps as `Mmm dd hh:mm:ss:inc`, null and missing as "".
 * @throws CommandError 16007 `can't convert from BSON type <type> to String` for any other type.
 */
export function coerceToString(value: unknown): string {
  if (isNullish(value)) return '';
  if (typeof value === 'string') return value;
  if (numberKind(value) !== undefined) return numberText(value);
  if (value instanceof Date) return value.toISOString();
  const tag = bsonTag(value);
  if (tag === 'Timestamp') return timestampPretty(value as { high: number; low: number });
  if (tag === 'Code') return String((value as { code: unknown }).code);
  if (tag === 'BSONSymbol') return String((value as { value: unknown }).value);
  throw new CommandError(16007, `can't convert from BSON type ${typeName(value)} to String`);
}

/** `Value::toString`: a value as MongoDB prints it in expression error messages. */
export function valueText(value: unknown): string {
  if (value === undefined) return 'MISSING';
  if (value === null) return 'null';
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'boolean') return String(value);
  if (numberKind(value) !== undefined) return numberText(value);
  if (value instanceof Date) return `${value.toISOString().slice(0, 19)}Z`;
  if (Array.isArray(value)) return `[${value.map(valueText).join(', ')}]`;
  if (isPlainObject(value)) {
    const fields = Object.entries(value).map(([name, v]) => `${name}: ${valueText(v)}`);
    return fields.length === 0 ? '{}' : `{${fields.join(', ')}}`;
  }
  const v = value as Record<string, unknown> & { toString(): string };
  switch (bsonTag(value)) {
    case 'ObjectId':
      return (v as unknown as { toHexString(): string }).toHexString();
    case 'Timestamp':
      return `Timestamp(${String(v['high'])}, ${String(v['low'])})`;
    case 'BSONRegExp':
      return `/${String(v['pattern'])}/${String(v['options'])}`;
    case 'Undefined':
      return 'undefined';
    case 'MinKey':
      return 'MinKey';
    case 'MaxKey':
      return 'MaxKey';
    case 'BSONSymbol':
      return `Symbol("${String(v['value'])}")`;
    case 'Code':
      return v['scope'] == null
        ? `Code("${String(v['code'])}")`
        : `CodeWScope("${String(v['code'])}", ${bsonText(v['scope'])})`;
    case 'Binary': {
      const binary = value as { sub_type: number; buffer: Uint8Array };
      return `BinData(${binary.sub_type}, "${Buffer.from(binary.buffer).toString('hex').toUpperCase()}")`;
    }
    case 'DBRef': {
      const ref = dbPointerParts(value);
      return `DBRef("${ref.ns}", ${ref.oid})`;
    }
    default:
      return value instanceof RegExp ? `/${value.source}/${value.flags}` : v.toString();
  }
}
