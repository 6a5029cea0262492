/**
 * `$dateFromString` as MongoDB 7.0 evaluates it (ExpressionDateFromString::evaluate, expression.cpp): the
 * `format` is checked first, then the `timezone`; a null or missing `dateString` gives `onNull`; then a
 * string that cannot be read, or that names its own zone together with a `timezone`, fails with 241
 * `ConversionFailure` — unless `onError` is given, which then is the answer. mingo's operator answered
 * nothing for such strings.
 */
import { evalExpr } from 'mingo/core';
import { bsonText } from './bson-text.js';
import {
  FROM_STRING_SPECIFIERS,
  parseFormattedDateString,
  parseFreeDateString,
} from './date-string-parse.js';
import type { DateStringParts } from './date-string-parse.js';
import type { ExpressionOp } from './operator-types.js';
import { zoneOf } from './time-zone.js';
import type { Zone } from './time-zone.js';
import { bsonTypeName, isPlainObject } from './values.js';
import type { Doc } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

const ARGUMENTS = ['dateString', 'format', 'timezone', 'onNull', 'onError'];

function fail(code: number, message: string): never {
  throw new CommandError(code, message);
}

const nullish = (v: unknown): v is null | undefined => v === null || v === undefined;

/** A value as MongoDB's `Value::toString` prints it in these messages (a date in ISO form). */
const valueText = (v: unknown): string => (v instanceof Date ? v.toISOString() : bsonText(v));

/** The format checks of date_time_support.cpp (checkFormatString): 18535 and 18536. */
function checkFormat(format: string): void {
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') continue;
    const c = format[++i];
    if (c === undefined) fail(18535, "Unmatched '%' at end of format string");
    if (!FROM_STRING_SPECIFIERS.has(c)) fail(18536, `Invalid format character '%${c}' in format string`);
  }
}

/** Whether a `timezone` is UTC itself, with which a string may name its own zone (TimeZone::isUtcZone). */
const isUtcName = (name: unknown): boolean =>
  name === undefined || name === 'UTC' || (typeof name === 'string' && /^[+-]00(:?00)?$/.test(name));

/**
 * The instant the parts name: in their own zone, or else as a wall-clock time in `zone`.
 * @throws CommandError 241 when the string names a zone and a `timezone` other than UTC is given too.
 */
function instantOf(parts: DateStringParts, zone: Zone, utc: boolean): number {
  const wall = Date.UTC(
    2000,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
    parts.millisecond,
  );
  const local = new Date(wall);
  local.setUTCFullYear(parts.year);
  const ms = local.getTime();
  if (parts.zone && !utc) {
    fail(
      ErrorCodes.ConversionFailure,
      parts.zone.kind === 'offset'
        ? 'you cannot pass in a date/time string with GMT offset together with a timezone argument'
        : `you cannot pass in a date/time string with time zone information ('${parts.zone.text}') together with a timezone argument`,
    );
  }
  if (parts.zone) return ms - parts.zone.seconds * 1000;
  // The zone's offset at the instant: first guessed from the wall time, then read at the guess.
  return ms - zone(ms - zone(ms) * 1000) * 1000;
}

/** Evaluates the parts after `onNull`: what may fail with 241 and so give `onError` instead. */
function convert(expr: Doc, dateString: unknown, format: unknown, zone: Zone | null, utc: boolean): unknown {
  if (typeof dateString !== 'string') {
    fail(
      ErrorCodes.ConversionFailure,
      `$dateFromString requires that 'dateString' be a string, found: ${bsonTypeName(dateString)} with value ${valueText(dateString)}`,
    );
  }
  if (!zone) return null;
  if ('format' in expr && nullish(format)) return null;
  const parts =
    typeof format === 'string'
      ? parseFormattedDateString(dateString, format)
      : parseFreeDateString(dateString);
  return new Date(instantOf(parts, zone, utc));
}

/**
 * Checks a `$dateFromString` argument as MongoDB parses it (ExpressionDateFromString::parse).
 * @throws CommandError 40540 (not an object), 40541 (an unknown argument), 40542 (no `dateString`).
 */
export function checkDateFromStringArgument(expr: unknown): asserts expr is Doc {
  if (!isPlainObject(expr))
    fail(40540, `$dateFromString only supports an object as an argument, found: ${bsonTypeName(expr)}`);
  const extra = Object.keys(expr).find((key) => !ARGUMENTS.includes(key));
  if (extra !== undefined) fail(40541, `Unrecognized argument to $dateFromString: ${extra}`);
  if (!('dateString' in expr)) fail(40542, "Missing 'dateString' parameter to $dateFromString");
}

/**
 * `$dateFromString: { dateString, format?, timezone?, onNull?, onError? }` → a date, `onNull` (default null)
 * for a null or missing `dateString`, null for a null `timezone` or `format`. Errors: 40540 (not an object),
 * 40541 (unknown argument), 40542 (no `dateString`), 40684 (`format` not a string), 18535/18536 (bad
 * format), 40517/40485 (bad `timezone`), and 241 `ConversionFailure` — `onError`'s value when it is given —
 * for a `dateString` that is not a string, cannot be read, lacks date or time elements, or names a zone
 * while a `timezone` is given.
 */
export const dateFromString: ExpressionOp = (obj, expr, options) => {
  checkDateFromStringArgument(expr);
  const dateString = evalExpr(obj, expr['dateString'], options);
  const format = 'format' in expr ? evalExpr(obj, expr['format'], options) : undefined;
  if (!nullish(format)) {
    if (typeof format !== 'string') {
      fail(
        40684,
        `$dateFromString requires that 'format' be a string, found: ${bsonTypeName(format)} with value ${valueText(format)}`,
      );
    }
    checkFormat(format);
  }
  const zoneName = 'timezone' in expr ? evalExpr(obj, expr['timezone'], options) : undefined;
  const zone = zoneOf(obj, 'timezone' in expr ? { $literal: zoneName } : undefined, options);
  if (nullish(dateString)) return 'onNull' in expr ? evalExpr(obj, expr['onNull'], options) : null;
  try {
    return convert(expr, dateString, format, zone, isUtcName(zoneName));
  } catch (error) {
    if (error instanceof CommandError && error.code === ErrorCodes.ConversionFailure && 'onError' in expr)
      return evalExpr(obj, expr['onError'], options);
    throw error;
  }
};
