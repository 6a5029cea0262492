/**
 * Arguments of field operators that MongoDB 7.0's match-expression parser refuses before it reads a
 * document, with its codes and messages: a `$regex`/`$options` pair of the wrong types or with options
 * given twice, a regex under `$gt`/`$gte`/`$lt`/`$lte`/`$ne`, an operator nested in `$in`/`$nin`, and
 * an `$all` that mixes `$elemMatch` with values or holds operators. filter-check.ts calls these for each
 * operator of a field; mingo would accept these filters and answer something else.
 */
import { bsonTag, isPlainObject } from './values.js';
import { CommandError, ErrorCodes } from '../errors.js';

/**
 * The operators MongoDB's parser takes where no field is named (its "pathless" operators): at the top of
 * a filter, of a `$and`/`$or`/`$nor` entry, or of an `$elemMatch` or `$pull` query on elements.
 */
export const PATHLESS_OPERATORS = new Set([
  '$and',
  '$or',
  '$nor',
  '$expr',
  '$text',
  '$where',
  '$comment',
  '$jsonSchema',
  '$alwaysTrue',
  '$alwaysFalse',
  '$sampleRate',
]);

/** The operators MongoDB's parser knows on a field (its "path-accepting keywords"; `$not` is not one). */
export const PATH_KEYWORDS = new Set([
  '$eq',
  '$ne',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$nin',
  '$exists',
  '$type',
  '$size',
  '$all',
  '$elemMatch',
  '$regex',
  '$options',
  '$mod',
  '$bitsAllSet',
  '$bitsAllClear',
  '$bitsAnySet',
  '$bitsAnyClear',
  '$near',
  '$nearSphere',
  '$geoWithin',
  '$geoIntersects',
  '$geoNear',
  '$within',
]);

function badValue(message: string): never {
  throw new CommandError(ErrorCodes.BadValue, message);
}

/** True for a regex value (a JS RegExp or a BSON regex). */
export function isRegexValue(value: unknown): boolean {
  return value instanceof RegExp || bsonTag(value) === 'BSONRegExp';
}

/** The options a regex value carries (`''` for none). */
function regexFlags(value: unknown): string {
  if (value instanceof RegExp) return value.flags.replace(/[gyd]/g, '');
  return (value as { options: string }).options;
}

/**
 * A DBRef document (`$ref` and `$id`, or with `incomplete` any of `$ref`/`$id`/`$db`), which MongoDB
 * takes as a value, not as operators.
 */
export function isDbRef(value: Record<string, unknown>, incomplete: boolean): boolean {
  const keys = Object.keys(value);
  const has = (k: string): boolean => keys.includes(k);
  return incomplete ? has('$ref') || has('$id') || has('$db') : has('$ref') && has('$id');
}

/** A document whose first key starts with `$` and that is no DBRef: an operator document. */
export function isExpressionDocument(value: unknown, incompleteDbRef: boolean): boolean {
  if (!isPlainObject(value)) return false;
  const first = Object.keys(value)[0];
  return first !== undefined && first.startsWith('$') && !isDbRef(value, incompleteDbRef);
}

/**
 * The `$regex` and `$options` of one operator document, read in order as MongoDB reads them.
 * @throws CommandError BadValue (2), or 51074/51075 when both the regex and `$options` carry options.
 */
export function checkRegexDocument(ops: Record<string, unknown>): void {
  if (!('$regex' in ops)) return;
  let options = '';
  for (const [op, arg] of Object.entries(ops)) {
    if (op === '$regex') {
      if (isRegexValue(arg)) {
        const flags = regexFlags(arg);
        if (flags !== '' && options !== '')
          throw new CommandError(51074, 'options set in both $regex and $options');
        if (flags !== '') options = flags;
      } else if (typeof arg !== 'string') badValue('$regex has to be a string');
    } else if (op === '$options') {
      if (typeof arg !== 'string') badValue('$options has to be a string');
      if (options !== '') throw new CommandError(51075, 'options set in both $regex and $options');
      options = arg;
    }
  }
}

/** A comparison's argument: no regex but under `$eq`. @throws CommandError BadValue (2). */
export function checkComparison(op: string, arg: unknown, path: string): void {
  if (!isRegexValue(arg)) return;
  if (op === '$ne') badValue("Can't have regex as arg to $ne.");
  if (op !== '$eq') badValue(`Can't have RegEx as arg to predicate over field '${path}'.`);
}

/** `$in`/`$nin` entries: values and regexes, no operator documents. @throws CommandError BadValue (2). */
export function checkInEntries(entries: unknown[]): void {
  for (const entry of entries) {
    if (isExpressionDocument(entry, false)) badValue('cannot nest $ under $in');
  }
}

function firstKey(value: unknown): string | undefined {
  return isPlainObject(value) ? Object.keys(value)[0] : undefined;
}

/**
 * `$all` entries: either all `{ $elemMatch }` documents (when the first is one) or values and regexes.
 * Returns the `$elemMatch` arguments to check. @throws CommandError BadValue (2).
 */
export function checkAllEntries(entries: unknown[]): unknown[] {
  if (firstKey(entries[0]) === '$elemMatch') {
    return entries.map((entry) => {
      if (firstKey(entry) !== '$elemMatch') badValue('$all/$elemMatch has to be consistent');
      return (entry as Record<string, unknown>)['$elemMatch'];
    });
  }
  for (const entry of entries) {
    const key = firstKey(entry);
    if (key !== undefined && PATH_KEYWORDS.has(key)) badValue('no $ expressions in $all');
  }
  return [];
}
