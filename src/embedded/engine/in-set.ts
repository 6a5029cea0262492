/**
 * `$in` over many values without a collation: MongoDB looks a value up in the sorted set of the
 * operator's values (InMatchExpression); scanning the whole list for every document, as mingo does,
 * made a 200 000-value `$in` (2 MB, well under the 16 MiB a command may have) over 1 000 documents hold
 * the server for a minute.
 */
import { isEqual } from 'mingo/util';
import type { Predicate } from './operator-types.js';
import { filterPath, someValue } from './query-path.js';
import { regexMatches } from './regex-values.js';
import { bsonTag, keyOf } from './values.js';

/**
 * True for values whose equality is their canonical key's (values.ts `keyOf`): strings, numbers but NaN,
 * booleans, dates, ObjectIds and integers. Others (null, which also matches a missing field, regexes,
 * documents, arrays, decimals) keep mingo's comparison.
 */
function keyed(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(value);
    default:
      return value instanceof Date || bsonTag(value) === 'ObjectId' || bsonTag(value) === 'Long';
  }
}

/**
 * `$in` of `values` (no collation, no documents: context.ts compares those) at `selector`: a value the
 * path reaches (query-path.ts) is in the set of keyed values, equals another by mingo's comparison, or is
 * a value a regex matches (regex-values.ts); a `null` entry also matches a missing value (InMatchExpression).
 */
export function inSetPredicate(selector: string, values: unknown[]): Predicate {
  const keys = new Set<string>();
  const others: unknown[] = [];
  const regexes: RegExp[] = [];
  let withNull = false;
  for (const value of values) {
    if (keyed(value)) keys.add(keyOf(value));
    else if (value instanceof RegExp) regexes.push(value);
    else if (value === null) withNull = true;
    else others.push(value);
  }
  const path = filterPath(selector);
  const test = (v: unknown): boolean => {
    if (v === undefined || v === null) return withNull;
    if (keys.size > 0 && keys.has(keyOf(v))) return true;
    if (regexes.some((regex) => regexMatches(regex, v))) return true;
    return others.some((other) => isEqual(v, other));
  };
  return (obj) => someValue(obj, path, test);
}
