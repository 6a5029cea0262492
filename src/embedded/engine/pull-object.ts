/**
 * A `$pull` condition that is a query on the array's documents: a document whose first field is not a
 * field operator (`{ a: 1 }`, `{ $ref: 'c', extra: 2 }`, `{ $or: [...] }`, `{}`). MongoDB's PullNode
 * runs it with its ObjectMatcher (src/mongo/db/update/pull_node.cpp): the condition is a whole query,
 * pathless operators included, matched against each element that is a document, and no other element
 * matches. mingo's `$pull` reads any `$` name as an operator on the element instead, so such a
 * condition becomes a clause mingo runs on the element itself (see {@link elementQuery}).
 */
import type { Doc } from './values.js';

/**
 * The selector of the array element an object condition tests. It starts with a lone surrogate, which
 * no decoded BSON name holds (as proto-alias.ts's alias), so it names no stored field.
 */
export const PULL_ELEMENT = '\ud800element';

/**
 * The condition mingo's `$pull` runs for `query`, an already prepared query on an element's fields: an
 * `$and` on {@link PULL_ELEMENT}, which context.ts's `$and` reads as "the element is a document and
 * matches every clause".
 */
export function elementQuery(query: Doc): Doc {
  return { [PULL_ELEMENT]: { $and: [query] } };
}
