/**
 * `$in` over many values without a collation: MongoDB looks a value up in the sorted set of the
 * operator's values (InMatchExpression); scanning the whole list for every document, as mingo does,
 * made a 200 000-value `$in` (2 MB, well under the 16 MiB a command may have) over 1 000 documents hold
 * the server for a minute.
 */
import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import type { Predicate, QueryOp } from './operator-types.js';
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
 * `$in` of `values` at `selector`: keyed values by a set lookup of the value the path holds and of its
 * elements, the others through `fallback` (mingo's `$in`).
 */
export function inSetPredicate(
  selector: string,
  values: unknown[],
  options: Options,
  fallback: QueryOp,
): Predicate {
  const keys = new Set<string>();
  const rest: unknown[] = [];
  for (const value of values) {
    if (keyed(value)) keys.add(keyOf(value));
    else rest.push(value);
  }
  if (keys.size === 0) return fallback(selector, values, options);
  const others = rest.length > 0 ? fallback(selector, rest, options) : undefined;
  const hit = (v: unknown): boolean => keys.has(keyOf(v));
  return (obj) => {
    // The value at the path, or one of its elements (one level, as MongoDB: [[1]] is not $in [1]).
    const v = resolve(obj, selector, { unwrapArray: true });
    return (Array.isArray(v) ? hit(v) || v.some(hit) : hit(v)) || (others?.(obj) ?? false);
  };
}
