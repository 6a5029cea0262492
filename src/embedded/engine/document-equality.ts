/**
 * Query equality with a document (`{ d: { a: 1, b: 2 } }`, `$eq`, `$in` entries). MongoDB compares two
 * documents pair by pair in their stored order, names and values (manual, "Comparison/Sort Order":
 * objects "recursively compare key-value pairs in the order that they appear within the BSON object"),
 * so `{ b: 2, a: 1 }` is another value than `{ a: 1, b: 2 }`; mingo's equality ignores field order.
 */
import type { Collation } from './collation.js';
import { compareBson } from './compare.js';
import type { Predicate } from './operator-types.js';
import { isPlainObject, pathCandidates } from './values.js';
import type { Doc } from './values.js';

/**
 * The predicate "the value at `selector`, or an element of the array there, is the document `doc`",
 * strings inside compared under `collation` when given.
 */
export function documentEquality(selector: string, doc: Doc, collation?: Collation): Predicate {
  return (obj) =>
    pathCandidates(obj, selector).some((v) => isPlainObject(v) && compareBson(v, doc, collation) === 0);
}
