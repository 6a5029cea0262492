/**
 * Query equality with a document (`{ d: { a: 1, b: 2 } }`, `$eq`, `$in` entries). MongoDB compares two
 * documents pair by pair in their stored order, names and values (manual, "Comparison/Sort Order":
 * objects "recursively compare key-value pairs in the order that they appear within the BSON object"),
 * so `{ b: 2, a: 1 }` is another value than `{ a: 1, b: 2 }`; mingo's equality ignores field order.
 */
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import type { Predicate } from './operator-types.js';
import { filterPath, someValue } from './query-path.js';
import { isPlainObject } from './values.js';
import type { Doc } from './values.js';

/**
 * The predicate "a value `selector` reaches (query-path.ts) is the document `doc`",
 * strings inside compared under `collation` when given.
 */
export function documentEquality(selector: string, doc: Doc, collation?: Collation): Predicate {
  const path = filterPath(selector);
  return (obj) => someValue(obj, path, (v) => isPlainObject(v) && compareBson(v, doc, collation) === 0);
}
