/**
 * A sort specification checked as MongoDB 7.0's SortPattern parses it (src/mongo/db/query/sort_pattern.cpp),
 * for the `$sort` stage, a find's and a findAndModify's `sort`, `$setWindowFields`' `sortBy` and the
 * `sortBy` of `$top`/`$bottom`/`$topN`/`$bottomN`: each key a `{ $meta: … }` document (17312 for another
 * document) or a number (15974) whose value read as a 64-bit integer is 1 or -1 (15975), on a valid field
 * path. The number is read as `BSONElement::safeNumberLong` reads it, so `1.5` sorts ascending and
 * `-1.9` descending (a double is truncated), `0.5` is refused, a decimal is rounded half to even
 * (`NumberDecimal('1.5')` is 2: refused) and `NumberLong(-1)` sorts descending.
 */
import { numberKind } from './arithmetic.js';
import { elementText } from './bson-text.js';
import { parseDecimal } from './decimal.js';
import { checkFieldPath } from './field-path.js';
import { isPlainObject } from './values.js';
import { CommandError } from '../errors.js';

/** Whether the decimal text `text` rounds half to even to 1 or -1: 0.5 < |d| < 1.5. */
function decimalIsUnit(text: string): boolean {
  const dec = parseDecimal(text);
  if (typeof dec === 'string') return false;
  const twice = 2n * (dec.coef < 0n ? -dec.coef : dec.coef);
  if (dec.exp >= 0) return twice * 10n ** BigInt(dec.exp) === 2n;
  const scale = 10n ** BigInt(-dec.exp);
  return twice > scale && twice < 3n * scale;
}

/**
 * The direction SortPattern reads from the sort key value `value`: 1 or -1 when the number, read as
 * `safeNumberLong` reads it (a double truncated toward zero, NaN as 0, a decimal rounded half to even),
 * is 1 or -1; undefined for any other number and for a value that is not a number.
 */
export function patternDirection(value: unknown): 1 | -1 | undefined {
  const kind = numberKind(value);
  if (kind === undefined) return undefined;
  if (kind === 'decimal') {
    const text = String(value);
    if (!decimalIsUnit(text)) return undefined;
    return text.startsWith('-') ? -1 : 1;
  }
  const n = Math.trunc(Number(value));
  return n === 1 || n === -1 ? n : undefined;
}

/**
 * The sort document `spec` with each decimal direction replaced by the int 1 or -1 SortPattern reads from
 * it, or 0 when it reads another number ({@link patternDirection}), so that a decimal's rounding survives
 * specs.ts making the numbers of a spec plain (`NumberDecimal('1.5')` would be the double 1.5, read as 1).
 * Anything else is returned as it is.
 */
export function decimalDirectionsRead(spec: unknown): unknown {
  if (!isPlainObject(spec)) return spec;
  const decimals = Object.keys(spec).filter((key) => numberKind(spec[key]) === 'decimal');
  if (decimals.length === 0) return spec;
  const read: Record<string, unknown> = { ...spec };
  for (const key of decimals) read[key] = patternDirection(spec[key]) ?? 0;
  return read;
}

/**
 * Checks the direction of the sort key `path`; a document (`{ $meta: 'textScore' }`) is left to the
 * caller, which knows which metadata it has.
 * @throws CommandError 17312 for a document without `$meta`, 15974 for a value that is not a number,
 *   15975 for a number that is not 1 or -1 once read as an integer ({@link patternDirection}).
 */
export function checkSortKey(path: string, direction: unknown): void {
  if (isPlainObject(direction)) {
    if ('$meta' in direction) return;
    throw new CommandError(17312, '$meta is the only expression supported by $sort right now');
  }
  if (numberKind(direction) === undefined)
    throw new CommandError(15974, `Illegal key in $sort specification: ${elementText(path, direction)}`);
  if (patternDirection(direction) === undefined)
    throw new CommandError(15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
}

/**
 * Checks each key of the sort document `spec` (a document: callers check that) in SortPattern's order:
 * its direction ({@link checkSortKey}), then, for a key that is not a `$meta` one, its field path
 * (field-path.ts: 40352, 15998, 40353, 16410).
 */
export function checkSortKeys(spec: Record<string, unknown>): void {
  for (const [path, direction] of Object.entries(spec)) {
    checkSortKey(path, direction);
    if (!isPlainObject(direction)) checkFieldPath(path);
  }
}

/**
 * Checks the directions of a find's `sort` document `spec` when there is no collection to read, as MongoDB
 * parses the sort before it looks for the collection; `$natural` is a hint, not a sort key (read.ts).
 * @throws CommandError as {@link checkSortKey}.
 */
export function checkFindSort(spec: Record<string, unknown> | undefined): void {
  for (const [path, direction] of Object.entries(spec ?? {})) {
    if (path !== '$natural') checkSortKey(path, direction);
  }
}
