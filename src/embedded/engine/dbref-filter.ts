/**
 * A DBRef's names as filter clauses of their own: `{ $ref: 'c' }`, `{ $id: 5 }`, `{ $db: 'd' }` at any
 * level of a filter (the top, an `$and`/`$or`/`$nor` entry, an `$elemMatch` on documents). MongoDB's
 * parser has a pathless `parseDBRef` for each (src/mongo/db/matcher/expression_parser.cpp), an equality
 * on the field of that name: `$id` under the collation, `$ref` and `$db` by binary comparison. mingo
 * reads a `$` name at a filter's top as an unknown operator, so each becomes a clause on
 * {@link DBREF_SELF}, a selector the engine's `$ref`/`$id`/`$db` operators read as "this document"
 * (context.ts).
 */
import type { Doc } from './values.js';

/**
 * The selector of the document a filter level tests. It starts with a lone surrogate, which no decoded
 * BSON name holds (as proto-alias.ts's alias), so it names no stored field.
 */
export const DBREF_SELF = '\ud800dbref';

/** The clause mingo compiles for the pathless DBRef field `name` (`$ref`, `$id`, `$db`) equal to `value`. */
export function dbRefClause(name: string, value: unknown): Doc {
  return { [DBREF_SELF]: { [name]: value } };
}
