/**
 * AJV's `coerceTypes` turns a string into a number whenever `Number()` reads it: `'0x10'` becomes
 * 16, `'1e1'` 10, `' 5 '` 5, `'Infinity'` Infinity. A query string holds only strings, so a client's
 * `?$limit=0x10` was silently a limit of 16. plume's validators accept a string as a number only when
 * it is written in decimal digits (core's `isDecimalNumber`, the form the adapter reads `$limit` and
 * `coerceQuery` numbers in) and, for an integer, only when the number is exactly that integer (beyond
 * 2^53 `'9007199254740993'` would be 9007199254740992: the query would mean another number), and
 * answer 400 naming the field otherwise. The strings are found before
 * AJV runs (it changes the data in place) and checked after: only those AJV did turn into a number
 * (the schema said number there) are refused.
 */

import { isDecimalNumber, roundedIntegerOf } from '../core/index.js';
import { BadRequest } from '../errors/index.js';

/** A string in the data that AJV would turn into a number, though it is not written in decimal digits, is too large or would be rounded. */
interface NonDecimalString {
  container: Record<string, unknown> | unknown[];
  key: string | number;
  /** Where it is, as a JSON pointer (AJV's `instancePath` form: `/age/$gt`). */
  path: string;
  text: string;
}

/**
 * True for a string AJV's coercion would read as a number (its own test: non-empty and
 * `text == +text`) that plume refuses: one not in decimal digits, one too large for a number
 * (`'1'` followed by 400 zeros would be `Infinity`), or an integer a double cannot hold exactly
 * (`'9007199254740993'` would be 9007199254740992, see `roundedIntegerOf`).
 */
function isRefusedNumber(text: string): boolean {
  const number = text === '' ? Number.NaN : Number(text);
  if (Number.isNaN(number)) return false;
  return !Number.isFinite(number) || !isDecimalNumber(text) || roundedIntegerOf(text) !== undefined;
}

/** What a refused string (`isRefusedNumber`) must be instead, for the 400 message. */
function describeExpected(text: string): string {
  if (!isDecimalNumber(text)) return 'a number in decimal digits';
  const rounded = roundedIntegerOf(text);
  if (rounded !== undefined) return `an integer a number holds exactly (it would be ${rounded})`;
  return 'a number small enough to store';
}

const isWalked = (value: unknown): value is Record<string, unknown> | unknown[] => {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** A JSON pointer segment: `~` and `/` escaped as `~0` and `~1` (RFC 6901). */
const pointerSegment = (key: string | number): string =>
  typeof key === 'number' ? String(key) : key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The strings in `data` (a value, or plain objects and arrays at any depth) that AJV would coerce to
 * a number but are not written in decimal digits, too large or rounded (`isRefusedNumber`); `undefined`
 * when there are none (the usual case).
 * Walks without recursion, so a deeply nested body cannot overflow the stack.
 */
export function findNonDecimalStrings(data: unknown): NonDecimalString[] | undefined {
  if (!isWalked(data)) return undefined;
  let found: NonDecimalString[] | undefined;
  const stack: { value: Record<string, unknown> | unknown[]; path: string }[] = [{ value: data, path: '' }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value: container, path } = entry;
    const keys: (string | number)[] = Array.isArray(container)
      ? Array.from(container, (_item, index) => index)
      : Object.keys(container);
    for (const key of keys) {
      const value = (container as Record<string | number, unknown>)[key];
      if (typeof value === 'string') {
        if (isRefusedNumber(value)) {
          (found ??= []).push({ container, key, path: `${path}/${pointerSegment(key)}`, text: value });
        }
      } else if (isWalked(value)) {
        stack.push({ value, path: `${path}/${pointerSegment(key)}` });
      }
    }
  }
  return found;
}

/** True when validation turned the string into a number (or, with `coerceTypes: 'array'`, into `[number]`). */
function becameNumber(value: unknown): boolean {
  return typeof value === 'number' || (Array.isArray(value) && typeof value[0] === 'number');
}

/**
 * Throws `BadRequest` (400) for the first string of `strings` (from `findNonDecimalStrings`, before
 * validation) that validation turned into a number: `Invalid query: /$limit must be a number in
 * decimal digits, not '0x10'` (or `must be a number small enough to store` for one that would be
 * `Infinity`, `must be an integer a number holds exactly (it would be 9007199254740992)` for
 * `'9007199254740993'`). `label` names what was validated, as in `toValidationError`.
 */
export function refuseNonDecimalNumbers(
  strings: readonly NonDecimalString[] | undefined,
  label: string,
): void {
  if (strings === undefined) return;
  for (const { container, key, path, text } of strings) {
    if (!becameNumber((container as Record<string | number, unknown>)[key])) continue;
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    throw new BadRequest(`Invalid ${label}: ${path} must be ${describeExpected(text)}, not '${shown}'`);
  }
}
